import Foundation
import Testing

/// The end-to-end environment that `make test` sets up (Tests/Support/pcsc-env.sh): a private
/// pcscd with vpcd readers, and the built binaries. Without it these tests are skipped, and
/// say so; `make test` always provides it.
enum E2E {
    static let environment = ProcessInfo.processInfo.environment

    /// (reader name, vpcd port) pairs.
    static let readers: [(name: String, port: Int)] = (environment["EID_E2E_READERS"] ?? "")
        .split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let port = Int(parts[1]) else { return nil }
            return (String(parts[0]), port)
        }

    static var isAvailable: Bool { !readers.isEmpty }

    static let emptySocket = environment["EID_E2E_EMPTY_SOCKET"] ?? "/nonexistent/pcscd.comm"

    static let binDir: URL = {
        if let dir = environment["EID_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let pool = ReaderPool(readers: readers)
}

/// Every test that uses the test pcscd, one at a time: a card session of one test must not
/// meet the reader listing of another (eid holds cards exclusively while it works with them).
@Suite(.serialized, .enabled(if: E2E.isAvailable, "needs the pcscd test environment: run `make test`"))
enum ThroughPCSCD {}

/// Hands out vpcd readers one test at a time, so tests can run in parallel.
final class ReaderPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [(name: String, port: Int)]

    init(readers: [(name: String, port: Int)]) { free = readers }

    func withReader<T>(_ body: (String, Int) throws -> T) rethrows -> T {
        condition.lock()
        while free.isEmpty { condition.wait() }
        let reader = free.removeFirst()
        condition.unlock()
        defer {
            condition.lock()
            free.append(reader)
            condition.signal()
            condition.unlock()
        }
        return try body(reader.name, reader.port)
    }
}

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Runs a built tool to its end (at most `timeout` seconds, then it is killed and the test fails);
/// `launcher` (a program and its arguments, e.g. prlimit) starts it, when given.
@discardableResult
func runTool(
    _ tool: String, _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
    timeout: Double = 30, launcher: [String] = []
) throws -> RunResult {
    let path = E2E.binDir.appendingPathComponent(tool)
    if let program = launcher.first {
        return try runProgram(
            program, Array(launcher.dropFirst()) + [path.path] + arguments, stdin: stdin, environment: extra,
            timeout: timeout)
    }
    return try runProgram(path.path, arguments, stdin: stdin, environment: extra, timeout: timeout)
}

/// Runs a program to its end (at most `timeout` seconds, then it is killed and the test fails).
@discardableResult
func runProgram(
    _ program: String, _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
    timeout: Double = 30
) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in extra { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    // Read both pipes while waiting, so a full pipe cannot stall the tool.
    let outData = PipeDrain(out)
    let errData = PipeDrain(err)
    let deadline = Date(timeIntervalSinceNow: timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
        Issue.record("\(program) \(arguments.joined(separator: " ")) did not end within \(timeout) s")
    }
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: outData.text(), stderr: errData.text())
}

/// Reads a pipe to its end on a thread of its own.
final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A card program (eid-sim, or an emulator nobody here wrote) that is the vpcd client of one
/// reader for the life of this object: started, waited for until pcscd shows its card, and
/// stopped by PID.
class VPCDCardProcess {
    let process = Process()
    let reader: String
    private let errPipe = Pipe()
    private var stopped: (Int32, String)?

    /// Starts `executable` with `arguments` (standard output discarded: an emulator may print
    /// secrets there) and, with `waitForCard`, waits until pcscd shows the card in `reader`.
    init(reader: String, executable: URL, arguments: [String], waitForCard: Bool = true) throws {
        self.reader = reader
        process.executableURL = executable
        process.arguments = arguments
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if waitForCard { try self.waitForCard(present: true) }
    }

    /// Polls `eid readers --json` until the reader shows a card (or none); a card program
    /// that ended while its card was awaited ends the wait at once.
    func waitForCard(present: Bool, timeout: Double = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if present && !process.isRunning { break }
            let result = try runTool("eid", ["readers", "--json"])
            if let card = try? readerEntry(reader, in: result.stdout), (card["card"] is NSNull) != present { return }
            usleep(100_000)
        }
        let why = process.isRunning ? "" : " (the card program ended: \(stop().1))"
        throw E2EError.timeout("the card in \(reader) did not \(present ? "appear" : "disappear")\(why)")
    }

    /// Ends the card program (SIGTERM) and returns its exit status and standard error, once
    /// pcscd no longer shows the card (so the next test on this reader cannot see it).
    @discardableResult
    func stop() -> (Int32, String) {
        if let stopped { return stopped }
        if process.isRunning { process.terminate() }
        // Also after an exit of its own: Foundation's Process is freed only once waitUntilExit()
        // has seen the exit (LeakSanitizer, `make sanitize`).
        process.waitUntilExit()
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        stopped = (process.terminationStatus, err)
        try? waitForCard(present: false)
        return (process.terminationStatus, err)
    }

    deinit { stop() }
}

/// A software eID card (eid-sim) plugged into one vpcd reader for the life of this object.
final class SimulatedCard: VPCDCardProcess {
    /// Starts `eid-sim --vpcd 127.0.0.1:port` with `arguments` and waits until pcscd shows the
    /// card in `reader`.
    init(reader: String, port: Int, arguments: [String] = [], waitForCard: Bool = true) throws {
        try super.init(
            reader: reader, executable: E2E.binDir.appendingPathComponent("eid-sim"),
            arguments: ["--vpcd", "127.0.0.1:\(port)"] + arguments, waitForCard: waitForCard)
    }
}

enum E2EError: Error {
    case timeout(String)
    case unexpected(String)
}

/// The reader object named `name` in a READER_LIST line.
func readerEntry(_ name: String, in json: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    guard let readers = object?["readers"] as? [[String: Any]] else {
        throw E2EError.unexpected("no reader list in \(json)")
    }
    guard let entry = readers.first(where: { $0["name"] as? String == name }) else {
        throw E2EError.unexpected("no reader \(name) in \(json)")
    }
    return entry
}

/// Parses one JSON object line.
func jsonObject(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw E2EError.unexpected("not a JSON object: \(line)")
    }
    return object
}
