import Foundation

/// vsmartcard's nPA emulator (Debian's `vicc --type nPA`), an eID card nobody on this project
/// wrote, plugged into one vpcd reader for the life of this object. It runs unmodified through
/// Tests/Support/vicc/run-vicc.py, which supplies OpenPACE's Python modules from our adapter
/// over Debian's libeac. Its card has PIN 111111, CAN 222222, PUK 3333333333 and three PIN
/// attempts; it forgets everything when it ends.
final class EmulatedNPA: VPCDCardProcess {
    static let pin = "111111", can = "222222", puk = "3333333333"

    /// Debian's interpreter: the emulator and pycryptodome are Debian packages.
    static let python = "/usr/bin/python3"
    static let launcher = E2E.packageRoot.appendingPathComponent("Tests/Support/vicc/run-vicc.py")

    /// What is missing to run it (installed by `make test` through Tests/Support/pcsc-env.sh).
    static var missing: [String] {
        ["/usr/bin/vicc", python, "/usr/lib/python3/dist-packages/Cryptodome"]
            .filter { !FileManager.default.fileExists(atPath: $0) }
    }

    /// Starts the emulator as the vpcd client of `port` and waits until pcscd shows the card.
    /// vicc prints its card's events to standard output, the new PIN among them: not kept.
    init(reader: String, port: Int) throws {
        guard Self.missing.isEmpty else {
            throw E2EError.unexpected("the nPA emulator needs \(Self.missing.joined(separator: ", ")): run `make deps`")
        }
        try super.init(
            reader: reader, executable: URL(fileURLWithPath: Self.python),
            arguments: [Self.launcher.path, "--type", "nPA", "--hostname", "127.0.0.1", "--port", String(port)])
    }
}
