import Foundation
import Glibc
import Testing

/// A running `eid-testserver serve --port 0` (stopped by PID in `stop()` or when released), its
/// port read from its greeting line.
final class TestServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Substring
    private var stopped = false

    /// Starts the server with `arguments` after `serve --port 0` and waits for
    /// the line that names its port (at most 60 s: it makes an RSA 3072 key first, slow on a
    /// busy machine). `errorLog`: a file for its standard error (else discarded).
    init(_ arguments: [String] = [], errorLog: URL? = nil) throws {
        process.executableURL = E2E.binDir.appendingPathComponent("eid-testserver")
        process.arguments = ["serve", "--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let deadline = Date(timeIntervalSinceNow: 60)
        while !line.contains(UInt8(ascii: "\n")) && Date() < deadline {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let greeting = String(decoding: line, as: UTF8.self)
        guard let port = greeting.split(separator: "(port ").last?.prefix(while: \.isNumber), !port.isEmpty else {
            process.terminate()
            process.waitUntilExit()
            throw E2EError.unexpected("eid-testserver did not say its port: \(greeting)")
        }
        self.port = port
    }

    var origin: String { "https://127.0.0.1:\(port)" }

    /// Ends the server: SIGTERM, SIGKILL after 10 s.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(grace: 10)
    }

    /// Kills the server at once (SIGKILL): gone without a word, as a crashed server.
    func kill() {
        guard !stopped else { return }
        stopped = true
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `GET /result?session=ID` (curl, the server's certificate not checked): the session's
    /// result as JSON, or nil when the server has none for it; with no ID, `/result` (the last
    /// finished session's).
    func result(session: String?) throws -> String? {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = [
            "-sSk", "--fail", "--max-time", "20", "\(origin)/result" + (session.map { "?session=\($0)" } ?? ""),
        ]
        let out = Pipe()
        curl.standardOutput = out
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        return curl.terminationStatus == 0 ? text : nil
    }

    deinit { stop() }
}

/// Runs `body` on one thread per element of `items`, at most `width` at a time, and waits for
/// all of them.
func inParallel<T: Sendable>(_ items: [T], width: Int, _ body: @escaping @Sendable (T) -> Void) {
    let slots = DispatchSemaphore(value: max(1, width))
    let group = DispatchGroup()
    for item in items {
        slots.wait()
        group.enter()
        Thread.detachNewThread {
            body(item)
            slots.signal()
            group.leave()
        }
    }
    group.wait()
}
