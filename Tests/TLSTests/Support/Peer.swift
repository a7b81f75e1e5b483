import Foundation

enum PeerError: Error {
    case failed(String)
    case noPort(String)
}

/// An independent TLS server process on loopback (openssl s_server, or the Python https server), on ports it
/// chose itself, so tests run in parallel. `stop()` ends it by its PID.
final class Peer: @unchecked Sendable {  // immutable after init; Process is only terminated
    let process: Process
    let ports: [Int]
    private let output: FileHandle
    private let earlyOutput: String
    /// Standard input kept open (s_server without -www ends its connection at end of input).
    private let input: Pipe?

    private init(process: Process, ports: [Int], output: FileHandle, earlyOutput: String, input: Pipe?) {
        self.process = process
        self.ports = ports
        self.output = output
        self.earlyOutput = earlyOutput
        self.input = input
    }

    /// Waits (30 s at most) for the server to end by itself (s_server -naccept), then returns everything it
    /// wrote to standard output (which a killed s_server would have left in its buffer).
    func waitAndReadOutput() -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
        stop()
        return earlyOutput + String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
    }

    var port: Int { ports[0] }

    func stop() {
        // SIGKILL: s_server, started from a test process whose threads block SIGTERM, inherits the mask.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        // Also after an exit of its own: Foundation's Process is freed only once waitUntilExit()
        // has seen the exit (LeakSanitizer, `make sanitize`).
        process.waitUntilExit()
    }

    /// `openssl s_server -accept 127.0.0.1:0 ARGUMENTS…`, started in the PKI directory. `echo`: its standard
    /// input stays open, so that without -www it prints what a client sends (read by `waitAndReadOutput`).
    static func sServer(_ arguments: [String], pki: TestPKI, echo: Bool = false) throws -> Peer {
        try start(
            "/usr/bin/openssl", ["s_server", "-accept", "127.0.0.1:0"] + arguments, pki: pki, keepInputOpen: echo
        ) { line in
            guard line.hasPrefix("ACCEPT "), let port = line.split(separator: ":").last.flatMap({ Int($0) })
            else { return nil }
            return [port]
        }
    }

    /// Tests/Support/https_test_server.py with server A's and B's certificate names.
    static func python(_ a: String, _ b: String, pki: TestPKI) throws -> Peer {
        let script = TestPKI.supportDirectory.appendingPathComponent("https_test_server.py").path
        return try start(
            "/usr/bin/python3",
            [script, pki.path("\(a).pem"), pki.path("\(a).key"), pki.path("\(b).pem"), pki.path("\(b).key")],
            pki: pki
        ) { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "PORTS", let a = Int(fields[1]), let b = Int(fields[2]) else {
                return nil
            }
            return [a, b]
        }
    }

    private static func start(
        _ executable: String, _ arguments: [String], pki: TestPKI, keepInputOpen: Bool = false,
        ports parse: (String) -> [Int]?
    ) throws -> Peer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = pki.directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let input = keepInputOpen ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            if poller.revents == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
            for line in text.split(separator: "\n") {
                if let ports = parse(String(line)) {
                    return Peer(
                        process: process, ports: ports, output: output.fileHandleForReading, earlyOutput: text,
                        input: input)
                }
            }
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        throw PeerError.noPort("\(executable) \(arguments.joined(separator: " ")): \(text)")
    }
}
