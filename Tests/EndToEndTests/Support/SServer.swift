import Foundation

/// A running `openssl s_server -state` on a free loopback port, standard input kept open (at its end
/// s_server would stop), its output (standard output and error) in a file of `dir`, which is also its
/// working directory (certificate paths may be relative to it). `options` follow the accept address.
final class SServer {
    let process = Process()
    let port: Int
    let log: URL
    private let input = Pipe()

    init(_ options: [String], in dir: URL, logName: String = "s_server") throws {
        port = try E2E.freePort()
        log = dir.appendingPathComponent("\(logName)-\(port).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-state"] + options
        process.currentDirectoryURL = dir
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = input
        try process.run()
        _ = eventually { !process.isRunning || output.contains("ACCEPT") }
        guard output.contains("ACCEPT") else {
            stop()
            throw E2EError.unexpected("s_server did not start: \(output)")
        }
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Its output once `condition` holds of it, or after `timeout` seconds: s_server logs what it saw
    /// of a connection a little after the client has gone.
    func output(when condition: (String) -> Bool, timeout: Double = 30) -> String {
        var seen = ""
        _ = eventually(timeout: timeout) {
            seen = output
            return condition(seen)
        }
        return seen
    }

    /// Whether s_server shows a ClientHello and the end of that connection (an alert, a failed
    /// handshake, or the close).
    static func sawConnectionEnd(_ seen: String) -> Bool {
        let hello = seen.contains("read client hello") || seen.contains("before SSL initialization")
        let end = ["alert", "SSL_accept:error", "ERROR", "CONNECTION CLOSED"].contains(where: seen.contains)
        return hello && end
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
