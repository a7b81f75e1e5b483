import Foundation
import Glibc

/// A running `eid-sim --ifd …` (the simulated phone), its standard error read line by line: the port it
/// listens on and its IFDID from its first line; stopped by PID (SIGTERM) in `stop()` or when released.
final class PhoneSimProcess: @unchecked Sendable {  // one test's; the Process is only read and terminated
    let process = Process()
    let port: Int
    let ifdID: String
    private let errors = Pipe()
    private var pending = ""
    private var stopped = false

    /// Starts `eid-sim --ifd ARGUMENTS` and waits (60 s at most: a first start makes an RSA 3072 key) for the
    /// line that names its port.
    init(_ arguments: [String]) throws {
        process.executableURL = E2E.binDir.appendingPathComponent("eid-sim")
        process.arguments = ["--ifd"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var found: (Int, String)?
        while found == nil, let line = Self.nextLine(errors, &pending, within: 60) {
            let words = line.split(separator: " ")
            if let at = words.firstIndex(of: "port"), at + 1 < words.count, let port = Int(words[at + 1].dropLast()),
                let id = words.last
            {
                found = (port, String(id))
            }
        }
        guard let found else {
            process.stop(grace: 5)
            throw E2EError.unexpected("eid-sim --ifd did not say its port")
        }
        (port, ifdID) = found
    }

    /// The next line the phone writes on standard error, nil after `seconds` or at its end.
    func line(within seconds: Double = 15) -> String? { Self.nextLine(errors, &pending, within: seconds) }

    /// Ends the phone: SIGTERM (SIGKILL after 10 s); its exit status.
    @discardableResult
    func stop() -> Int32 {
        if !stopped {
            stopped = true
            process.stop(grace: 10)
        }
        return process.terminationStatus
    }

    private static func nextLine(_ pipe: Pipe, _ pending: inout String, within seconds: Double) -> String? {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
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

    deinit { stop() }
}
