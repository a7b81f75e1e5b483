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

    /// vicc's options for a card of an `eid-testserver pki --out DIR` directory: Terminal
    /// Authentication trusts DIR's CVCA, EF.CardAccess and EF.CardSecurity (signed by DIR's
    /// document signer) and the Chip Authentication key are DIR's matching card's.
    static func options(trustingPKI dir: String) -> [String] {
        [
            "--cvca", dir + "/cvca.cvcert", "--ef-cardaccess", dir + "/card-ef-cardaccess.bin",
            "--ef-cardsecurity", dir + "/card-ef-cardsecurity.bin", "--ca-key", dir + "/card-ca.key",
        ]
    }

    /// vicc's default setup for a server of an `eid-testserver pki --out DIR` directory: only
    /// Terminal Authentication's trust in DIR's CVCA; its own EF.CardAccess and EF.CardSecurity
    /// and no CA key file (it makes a fresh key and writes it into EF.CardSecurity).
    static func options(trustingCVCAOf dir: String) -> [String] { ["--cvca", dir + "/cvca.cvcert"] }

    /// Starts the emulator as the vpcd client of `port` with `options` (vicc's nPA options) and
    /// waits until pcscd shows the card. vicc prints its card's events to standard output, the
    /// new PIN among them: not kept.
    init(reader: String, port: Int, options: [String] = []) throws {
        guard Self.missing.isEmpty else {
            throw E2EError.unexpected("the nPA emulator needs \(Self.missing.joined(separator: ", ")): run `make deps`")
        }
        try super.init(
            reader: reader, executable: URL(fileURLWithPath: Self.python),
            arguments: [Self.launcher.path, "--type", "nPA", "--hostname", "127.0.0.1", "--port", String(port)]
                + options)
    }
}
