import Foundation
import Glibc

/// Debian's tinyproxy as the HTTP CONNECT proxy of the proxy tests, for the life of this object: a
/// configuration of its own in a temporary directory (listening on 127.0.0.1 at a free port, CONNECT allowed
/// to `connectPorts` only, Basic credentials when given), in the foreground (`-d`: no daemon, no pid file),
/// logging every connection and request to a file there; stopped by PID. Its own connections leave from
/// 127.0.0.2 (`Bind`), so a server that logs its peers (`eid-testserver serve --log-requests`) tells a
/// request that came through the proxy from one that came straight from eid (127.0.0.1).
final class TinyproxyProcess: @unchecked Sendable {
    /// The address tinyproxy connects from.
    static let outgoingAddress = "127.0.0.2"

    let process = Process()
    let port: Int
    let directory: URL
    private let logFile: URL
    private var stopped = false

    init(connectPorts: [Int], credentials: (user: String, password: String)? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logFile = directory.appendingPathComponent("tinyproxy.log")
        port = try E2E.freePort()
        var lines = [
            "Port \(port)", "Listen 127.0.0.1", "Bind \(Self.outgoingAddress)", "Timeout 30", "MaxClients 50",
            "Allow 127.0.0.1", "LogFile \"\(logFile.path)\"", "LogLevel Info",
        ]
        lines += connectPorts.map { "ConnectPort \($0)" }
        if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
        let configuration = directory.appendingPathComponent("tinyproxy.conf")
        try (lines.joined(separator: "\n") + "\n").write(to: configuration, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") else {
            throw E2EError.unexpected(
                "no /usr/bin/tinyproxy: `Tests/Support/pcsc-env.sh install` installs tinyproxy-bin")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 20)
        while process.isRunning && Date() < deadline && !log.contains("Accepting connections") { usleep(20_000) }
        guard process.isRunning, log.contains("Accepting connections") else {
            stop()
            throw E2EError.unexpected("tinyproxy did not start: \(log)")
        }
    }

    /// The proxy URL for https_proxy.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Its log so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// The targets of the CONNECT requests it logged, in order ("127.0.0.1:PORT").
    var connects: [String] {
        log.split(separator: "\n").compactMap { line in
            guard let request = line.split(separator: "): CONNECT ", maxSplits: 1).dropFirst().first else {
                return nil
            }
            return String(request.prefix { $0 != " " })
        }
    }

    /// Kills it at once (SIGKILL): gone without a word, every tunnel broken, its directory kept.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Ends it (SIGTERM, SIGKILL after 10 s) and removes its directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if process.isRunning { process.stop(grace: 10) }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
