import Foundation
import Glibc
import Testing

/// eid with a phone as card reader: `eid pair`, `eid readers` and `eid change-pin` against `eid-sim --ifd` (the
/// simulated phone, written from the protocol, not from eid's client) on loopback. No pcscd: PC/SC points at a
/// socket nobody serves, so the phone is the only reader. Each test has its own config directory, phone and ports.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-sim").path),
        "needs the built eid and eid-sim"))
struct RemoteReaderTests {
    /// A simulated phone and a config directory for eid.
    final class Phone {
        let phone: PhoneSimProcess
        let root: URL
        let discoveryPort: Int
        var port: Int { phone.port }

        init(_ extra: [String] = []) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("eid-remote-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            discoveryPort = try E2E.freePort()
            phone = try PhoneSimProcess(
                [
                    "--ifd-listen", "127.0.0.1:0", "--announce-to", "127.0.0.1:\(discoveryPort)",
                    "--ifd-name", "E2E Phone", "--ifd-state-dir", root.appendingPathComponent("phone").path,
                ] + extra)
        }

        deinit {
            phone.stop()
            try? FileManager.default.removeItem(at: root)
        }

        var environment: [String: String] {
            [
                "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                "EID_IFD_DISCOVERY_PORT": String(discoveryPort), "PCSCLITE_CSOCK_NAME": E2E.emptySocket,
            ]
        }

        var storeDirectory: String { root.appendingPathComponent("config/eid/ifd").path }

        func eid(_ arguments: [String], stdin: String? = nil, timeout: Double = 30) throws -> RunResult {
            try runTool("eid", arguments, stdin: stdin, environment: environment, timeout: timeout)
        }

        func pairedFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: storeDirectory)) ?? []).filter {
                $0.hasPrefix("phone-")
            }
        }
    }

    static func set(_ cmd: String, _ value: String) -> String { #"{"cmd":"\#(cmd)","value":"\#(value)"}"# }

    @Test func pairWrongCodeThenRightCodeThenReadersAndChangePIN() throws {
        let phone = try Phone(["--pairing-code", "1234"])
        let wrong = try phone.eid(["pair", "--json", "--timeout", "10"], stdin: "9999\n")
        #expect(wrong.status == 6, "\(wrong.stdout)")
        #expect(wrong.stdoutLines.first.map { $0.contains(#""msg":"IFD_FOUND""#) && $0.contains("E2E Phone") } == true)
        #expect(wrong.stdoutLines.last?.contains(#""msg":"IFD_ERROR""#) == true)
        #expect(!wrong.stdout.contains("9999"), "the code never appears")
        #expect(phone.pairedFiles().isEmpty, "a wrong code stores nothing")

        let paired = try phone.eid(["pair", "--json", "--name", "E2E Phone", "--timeout", "10"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stdout)")
        #expect(paired.stdoutLines.last?.contains(#""msg":"IFD_PAIRED","name":"E2E Phone""#) == true)
        let files = phone.pairedFiles()
        #expect(files.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: phone.storeDirectory + "/" + files[0])[
            .posixPermissions]
        #expect((mode as? Int) == 0o600)
        let list = try phone.eid(["pair", "--list"])
        #expect(list.stdout.hasPrefix("E2E Phone  wss://127.0.0.1:\(phone.port)"))

        let readers = try phone.eid(["readers", "--json"])
        #expect(readers.status == 0, "\(readers.stderr)")
        #expect(readers.stdout.contains(#"{"name":"E2E Phone","insertable":false,"attached":true,"keypad":false,"#))
        #expect(readers.stdout.contains(#""retryCounter":3"#))
        let none = try phone.eid(["readers", "--json", "--no-remote"])
        #expect(!none.stdout.contains("E2E Phone"))

        // Basic mode: eid runs PACE itself over IFDTransmit.
        let change = try phone.eid(
            ["change-pin", "--json", "--reader", "E2E Phone", "--timeout", "10"],
            stdin: [Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321")].joined(separator: "\n") + "\n")
        #expect(change.status == 0, "\(change.stdout) \(change.stderr)")
        #expect(change.stdout.contains(#""msg":"CHANGE_PIN","success":true"#))

        let forget = try phone.eid(["pair", "--forget", "E2E Phone", "--json"])
        #expect(forget.status == 0)
        #expect(phone.pairedFiles().isEmpty)
    }

    /// PIN-pad mode: the PIN and the new PIN are typed on the phone (IFDEstablishPACEChannel, IFDModifyPIN); the
    /// SDK asks with keypad true and SET_PIN without a value, as AusweisApp does.
    @Test func changePINInPINPadMode() throws {
        let phone = try Phone([
            "--pairing-code", "1234", "--ifd-pinpad", "--ifd-pin", "123456", "--ifd-new-pin", "654321",
        ])
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stderr)")
        let readers = try phone.eid(["readers", "--json"])
        #expect(readers.stdout.contains(#"{"name":"E2E Phone","insertable":false,"attached":true,"keypad":true,"#))
        let change = try phone.eid(
            ["change-pin", "--json", "--timeout", "10"],
            stdin: #"{"cmd":"SET_PIN"}"# + "\n" + #"{"cmd":"SET_NEW_PIN"}"# + "\n")
        #expect(change.status == 0, "\(change.stdout) \(change.stderr)")
        #expect(
            change.stdout.contains(
                #"{"msg":"ENTER_PIN","reader":{"name":"E2E Phone","insertable":false,"attached":true,"keypad":true"#))
        #expect(change.stdout.contains(#""msg":"CHANGE_PIN","success":true"#))
    }

    @Test func aWrongPINTypedOnThePhone() throws {
        let phone = try Phone(["--pairing-code", "1234", "--ifd-pinpad", "--ifd-pin", "111111"])
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stderr)")
        let change = try phone.eid(
            ["change-pin", "--json", "--timeout", "10"],
            stdin: #"{"cmd":"SET_PIN"}"# + "\n" + #"{"cmd":"SET_PIN"}"# + "\n")
        #expect(change.stdout.contains(#""retryCounter":2"#), "\(change.stdout)")
        #expect(!change.stdout.contains(#""success":true"#))
    }

    /// A whole authentication against eid-testserver with the card on the phone: basic mode (eid's PACE over
    /// IFDTransmit, the PIN given with SET_PIN) and PIN-pad mode (PACE on the phone, SET_PIN without a value).
    @Test(arguments: [false, true])
    func authenticationThroughThePhone(pinPad: Bool) throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let phone = try Phone(["--pairing-code", "1234"] + (pinPad ? ["--ifd-pinpad", "--ifd-pin", "123456"] : []))
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stderr)")
        let pin = pinPad ? #"{"cmd":"SET_PIN"}"# : #"{"cmd":"SET_PIN","value":"123456"}"#
        let auth = try phone.eid(
            ["auth", "--json", "--test-pki", "--timeout", "20", server.origin + "/tctoken"],
            stdin: #"{"cmd":"ACCEPT"}"# + "\n" + pin + "\n", timeout: 60)
        #expect(auth.status == 0, "\(auth.stdout) \(auth.stderr)")
        #expect(auth.stdout.contains(#""keypad":\#(pinPad)"#))
        #expect(
            auth.stdoutLines.last?.contains(
                #""result":{"major":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"}"#) == true)
    }

    @Test func aPhoneThatVanishesMidTransmitEndsTheCommandInTime() throws {
        let phone = try Phone(["--pairing-code", "1234", "--ifd-vanish-after-transmits", "3"])
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)", "--json"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stdout)")
        let start = Date()
        let change = try phone.eid(
            ["change-pin", "--json", "--reader", "E2E Phone", "--timeout", "10"],
            stdin: [Self.set("SET_PIN", "123456"), Self.set("SET_NEW_PIN", "654321")].joined(separator: "\n") + "\n",
            timeout: 40)
        #expect(change.status != 0)
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(!change.stdout.contains(#""success":true"#))
    }

    @Test func aPairedPhoneThatIsGoneIsNoReaderAndNoHang() throws {
        let phone = try Phone(["--pairing-code", "1234"])
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stderr)")
        phone.phone.stop()
        let start = Date()
        let readers = try phone.eid(["readers", "--json"])
        #expect(Date().timeIntervalSince(start) < 15)
        #expect(readers.status == 0, "\(readers.stderr)")
        #expect(readers.stdout.contains(#""readers":[]"#))
    }

    /// A phone that no longer knows this computer (here: eid's own certificate is new, as after a lost config
    /// directory; the phone keeps the old one) refuses it in the TLS handshake: no reader, and a sentence that
    /// says to pair again, not a silent empty list.
    @Test func anUnpairedCertificateIsRefusedWithPairAgain() throws {
        let phone = try Phone(["--pairing-code", "1234"])
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        #expect(paired.status == 0, "\(paired.stderr)")
        try FileManager.default.removeItem(atPath: phone.storeDirectory + "/client-identity.pem")
        let readers = try phone.eid(["readers", "--json"])
        #expect(readers.status == 0, "\(readers.stderr)")
        #expect(readers.stdout.contains(#""readers":[]"#), "\(readers.stdout)")
        #expect(readers.stderr.contains("'E2E Phone' is no card reader for this computer"), "\(readers.stderr)")
        #expect(readers.stderr.contains("pair again"), "\(readers.stderr)")
    }
}
