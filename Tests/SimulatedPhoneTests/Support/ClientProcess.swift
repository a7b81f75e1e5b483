import Foundation

/// A process of the server test (openssl, the Python IFD client): started with its output piped, read
/// line by line with a deadline, killed by its PID when the test is done with it.
final class ClientProcess: @unchecked Sendable {  // one test's; the Process is only read and terminated
    static let supportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support")

    let process = Process()
    private let output = Pipe()
    private var pending = ""

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The Python IFD client with `arguments`.
    static func python(_ arguments: [String]) throws -> ClientProcess {
        try ClientProcess(
            "/usr/bin/python3", [supportDirectory.appendingPathComponent("ifd_phone_client.py").path] + arguments)
    }

    /// The next line of output, nil at its end or after `seconds`.
    func line(within seconds: Int = 15) -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let newline = pending.firstIndex(of: "\n") {
                defer { pending = String(pending[pending.index(after: newline)...]) }
                return String(pending[..<newline])
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { return nil }
            if poller.revents == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return nil }
            pending += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return nil
    }

    /// Every remaining line (until the process ends its output, or `seconds`), then the process stopped.
    func lines(within seconds: Int = 20) -> [String] {
        var lines: [String] = []
        while let line = line(within: seconds) { lines.append(line) }
        stop()
        return lines
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Runs `openssl ARGUMENTS` to its end (stdin closed) and returns its standard output.
    static func openssl(_ arguments: [String]) throws -> String {
        try ClientProcess("/usr/bin/openssl", arguments).lines().joined(separator: "\n")
    }
}
