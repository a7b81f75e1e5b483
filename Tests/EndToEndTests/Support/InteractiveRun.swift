import Foundation
import Testing

/// A running `eid` whose JSON lines are read as they come and whose standard input is written
/// line by line, for dialogues that answer what eid asks.
final class InteractiveRun: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var consumed = 0
    private var ended = false
    private(set) var all: [String] = []
    private let stderrDrain: PipeDrain

    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = E2E.binDir.appendingPathComponent("eid")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        stderrDrain = PipeDrain(errors)
        try process.run()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    condition.lock()
                    lines.append(line)
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next JSON message, waiting at most `timeout` seconds.
    func next(timeout: Double = 20) throws -> [String: Any] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while consumed >= lines.count {
            if ended { throw E2EError.unexpected("eid ended; its messages: \(lines)") }
            if !condition.wait(until: deadline) {
                throw E2EError.timeout("no message within \(timeout) s after \(lines)")
            }
        }
        let line = lines[consumed]
        consumed += 1
        return try jsonObject(line)
    }

    /// Reads messages until one named `msg` arrives; returns it and those skipped.
    @discardableResult
    func expect(_ msg: String, timeout: Double = 20) throws -> [String: Any] {
        while true {
            let message = try next(timeout: timeout)
            if message["msg"] as? String == msg { return message }
        }
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for eid to end (at most `timeout` s) and returns its status, all its stdout lines
    /// and its standard error.
    func finish(timeout: Double = 20) -> (status: Int32, lines: [String], stderr: String) {
        closeInput()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("eid did not end within \(timeout) s")
        }
        process.waitUntilExit()
        condition.lock()
        while !ended { condition.wait(until: Date(timeIntervalSinceNow: 1)) }
        let result = lines
        condition.unlock()
        return (process.terminationStatus, result, stderrDrain.text())
    }
}

/// The names ("msg") of JSON lines.
func messageNames(_ lines: [String]) -> [String] {
    lines.compactMap { (try? jsonObject($0))?["msg"] as? String }
}

/// The reader object's card of a message.
func cardObject(of message: [String: Any]) -> [String: Any]? {
    ((message["reader"] as? [String: Any]) ?? message)["card"] as? [String: Any]
}
