import Foundation

/// vsmartcard's nPA emulator (Debian's `vicc --type nPA`), an eID card nobody on this project
/// wrote, plugged into one vpcd reader for the life of this object. It runs unmodified through
/// Tests/Support/vicc/run-vicc.py, which supplies OpenPACE's Python modules from our adapter
/// over Debian's libeac. Its card has PIN 111111, CAN 222222, PUK 3333333333 and three PIN
/// attempts; it forgets everything when it ends.
final class EmulatedNPA {
    static let pin = "111111", can = "222222", puk = "3333333333"

    /// Debian's interpreter: the emulator and pycryptodome are Debian packages.
    static let python = "/usr/bin/python3"
    static let launcher = E2E.packageRoot.appendingPathComponent("Tests/Support/vicc/run-vicc.py")

    /// What is missing to run it (installed by `make test` through Tests/Support/pcsc-env.sh).
    static var missing: [String] {
        ["/usr/bin/vicc", python, "/usr/lib/python3/dist-packages/Cryptodome"]
            .filter { !FileManager.default.fileExists(atPath: $0) }
    }

    let process = Process()
    let reader: String
    private let errPipe = Pipe()
    private var stopped: (Int32, String)?

    /// Starts the emulator as the vpcd client of `port` and waits until pcscd shows the card.
    init(reader: String, port: Int) throws {
        guard Self.missing.isEmpty else {
            throw E2EError.unexpected("the nPA emulator needs \(Self.missing.joined(separator: ", ")): run `make deps`")
        }
        self.reader = reader
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.launcher.path, "--type", "nPA", "--hostname", "127.0.0.1", "--port", String(port)]
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        // vicc prints its card's events to standard output, the new PIN among them: not kept.
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try waitForCard(present: true)
    }

    /// Polls `eid readers --json` until the reader shows a card (or none), at most `timeout` s.
    func waitForCard(present: Bool, timeout: Double = 15) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if present && !process.isRunning { break }
            let result = try runTool("eid", ["readers", "--json"])
            if let entry = try? readerEntry(reader, in: result.stdout), (entry["card"] is NSNull) != present { return }
            usleep(100_000)
        }
        let why = process.isRunning ? "" : " (the emulator ended: \(stop().1))"
        throw E2EError.timeout("the emulated nPA in \(reader) did not \(present ? "appear" : "disappear")\(why)")
    }

    /// Ends the emulator (SIGTERM) and returns its exit status and standard error, once pcscd
    /// no longer shows the card.
    @discardableResult
    func stop() -> (Int32, String) {
        if let stopped { return stopped }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        stopped = (process.terminationStatus, err)
        try? waitForCard(present: false)
        return (process.terminationStatus, err)
    }

    deinit { stop() }
}
