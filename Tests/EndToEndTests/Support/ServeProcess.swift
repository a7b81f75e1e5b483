import Foundation
import Glibc
import Testing

/// A running `eid serve --port 0 --port-file DIR/port` (plus `arguments`), its standard input
/// /dev/null (so a browser activation without SDK client has no terminal to ask); its port read
/// from the port file. Stopped by PID in `stop()` or when released.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let directory: URL
    private let log: URL
    private var stopped = false

    init(_ arguments: [String] = ["--simulator"], environment: [String: String] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port")
        log = directory.appendingPathComponent("output.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = E2E.binDir.appendingPathComponent("eid")
        process.arguments = ["serve", "--port", "0", "--port-file", portFile.path] + arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 30)
        var text = ""
        while Date() < deadline && process.isRunning {
            text = (try? String(contentsOf: portFile, encoding: .utf8)) ?? ""
            if !text.isEmpty { break }
            usleep(20_000)
        }
        guard let port = Int(text) else {
            process.terminate()
            process.waitUntilExit()
            throw E2EError.unexpected("eid serve wrote no port file: \(output)")
        }
        self.port = port
    }

    var origin: String { "http://127.0.0.1:\(port)" }
    var kernel: String { "ws://127.0.0.1:\(port)/eID-Kernel" }

    /// What eid serve wrote to standard output and standard error so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Ends it: SIGTERM, SIGKILL after 10 s.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(grace: 10)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// One HTTP answer as curl saw it: every status line (the interim 102 first), the final
/// answer's headers (names in lower case) and body.
struct HTTPExchange {
    var statuses: [Int]
    var headers: [String: String]
    var body: String

    var status: Int? { statuses.last }

    /// `curl -i` on `url` (a browser's request): `extra` are more curl options (headers, method).
    static func curl(_ url: String, _ extra: [String] = [], timeout: Double = 60) throws -> HTTPExchange {
        let run = try runProgram(
            "/usr/bin/curl", ["-sS", "-i", "--max-time", String(Int(timeout))] + extra + [url], timeout: timeout + 5)
        return parse(run.stdout)
    }

    static func parse(_ text: String) -> HTTPExchange {
        var exchange = HTTPExchange(statuses: [], headers: [:], body: "")
        var rest = Substring(text)
        while rest.hasPrefix("HTTP/") {
            guard let end = rest.range(of: "\r\n\r\n") else { break }
            let lines = rest[..<end.lowerBound].components(separatedBy: "\r\n")
            exchange.statuses.append(Int(lines[0].split(separator: " ")[1]) ?? 0)
            exchange.headers = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                exchange.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            rest = rest[end.upperBound...]
        }
        exchange.body = String(rest)
        return exchange
    }
}

/// Tests/Support/serve_sdk_client.py: a scripted SDK client on eid serve's WebSocket, its
/// received messages read line by line.
final class SDKClientScript: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output: GrowingOutput

    init(_ kernel: String, mode: String, tcTokenURL: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = E2E.packageRoot.appendingPathComponent("Tests/Support/serve_sdk_client.py").path
        process.arguments = [script, kernel, mode] + (tcTokenURL.map { [$0] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        output = GrowingOutput(out)
        _ = eventually { output.text().contains(#"{"connected": true}"#) || !process.isRunning }
        guard output.text().contains(#"{"connected": true}"#) else {
            throw E2EError.unexpected("the SDK client did not connect: \(output.text())")
        }
    }

    /// A client started again until eid serve takes it (at most `timeout` seconds): after another
    /// client went, eid serve takes the next once it has seen the first go.
    static func whenFree(_ kernel: String, mode: String, timeout: Double = 30) -> SDKClientScript? {
        var client: SDKClientScript?
        _ = eventually(timeout: timeout) {
            client = try? SDKClientScript(kernel, mode: mode)
            return client != nil
        }
        return client
    }

    /// Waits (at most `timeout` seconds) until it has printed a line containing `text`; whether it did.
    func waitFor(_ text: String, timeout: Double = 30) -> Bool {
        eventually(timeout: timeout) { output.text().contains(text) }
    }

    /// Waits for the end (at most `timeout` seconds); the messages it received.
    func finish(timeout: Double = 90) -> (status: Int32, messages: [String]) {
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let lines = output.text().split(separator: "\n").map(String.init)
        return (process.terminationStatus, lines)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// What a pipe has delivered so far, read on a thread of its own (`PipeDrain` waits for the end).
final class GrowingOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.withLock { data += chunk }
            }
        }
    }

    func text() -> String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// A program started with posix_spawn rather than Foundation's Process, its standard streams
/// /dev/null and no signal blocked: Process learns that a child ended when a socket it passes
/// the child closes, and then waits for that child, blocking the reaping of every other
/// Process of the test run; a program that closes the descriptors it inherits
/// (systemd-socket-activate) would stall them all.
final class SpawnedProgram: @unchecked Sendable {
    let pid: pid_t
    private var stopped = false

    init(_ arguments: [String], environment: [String: String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else { throw E2EError.unexpected("cannot start \(arguments[0]): errno \(status)") }
        self.pid = pid
    }

    /// Ends it: SIGTERM, SIGKILL after 10 s; reaped.
    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let end = Date(timeIntervalSinceNow: 10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > end {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(20_000)
        }
    }

    deinit { stop() }
}
