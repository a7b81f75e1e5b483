import Foundation
import SmartCard
import Testing

@testable import RemoteIFD

/// RemoteIFD over the real transport (IFDTransport: TLS 1.2, WebSocket) against `eid-sim --ifd`, the simulated
/// phone written from the protocol, not from this client: pairing, PIN-pad PACE with the PC/SC output, a wrong
/// PIN, and a second client while the first holds the phone. Skipped when eid-sim is not built.
@Suite(.serialized, .enabled(if: PhoneBinary.exists, "needs the built eid-sim"))
struct SimulatedPhonePeerTests {

    /// A PIN-pad phone on a loopback port of this helper's range, waiting to pair with code 1234.
    final class PhoneProcess {
        let process = Process()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("eid-ifd-peer-\(UUID().uuidString)")
        let address: String

        init(port: Int, pin: String) throws {
            address = "wss://127.0.0.1:\(port)"
            process.executableURL = PhoneBinary.path
            process.arguments = [
                "--ifd", "--ifd-listen", "127.0.0.1:\(port)", "--announce-to", "127.0.0.1:\(port + 1)",
                "--ifd-state-dir", root.appendingPathComponent("phone").path, "--pairing-code", "1234", "--ifd-pinpad",
                "--ifd-pin", pin,
            ]
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: root)
        }

        /// Pairs (retrying while the phone starts up) and returns the paired device.
        func pair(opener: IFDWebSocketOpener) throws -> PairedDevice {
            let deadline = Deadline(secondsFromNow: 10)
            while true {
                do {
                    return try IFDPairing(opener: opener, udName: "peer test").pair(
                        address: address, name: nil, code: Secret("1234"))
                } catch RemoteIFDError.unreachable where !deadline.hasPassed {
                    usleep(100_000)
                }
            }
        }
    }

    /// EstablishPACEChannel InputData (PC/SC Part 10 AMD1): the PIN, no CHAT, no PIN, no certificate description.
    static let pinInput: [UInt8] = [0x03, 0x00, 0x00, 0x00, 0x00]

    @Test func pinPadPACEAndASecondClient() throws {
        let phone = try PhoneProcess(port: 46240, pin: "123456")
        let opener = IFDWebSocketOpener(directory: phone.root.appendingPathComponent("eid").path)
        let device = try phone.pair(opener: opener)
        #expect(device.name == "eid-sim phone")
        let provider = RemoteIFDReaderProvider(devices: [device], opener: opener, udName: "peer test")
        let readers = try provider.readers()
        #expect(readers.count == 1)
        #expect(readers.first?.hasPINPad == true)
        #expect(readers.first?.cardPresent == true)
        let card = try #require(try provider.connect(reader: device.name, exclusive: true) as? PINPadConnection)
        let output = try card.establishPACEChannel(inputData: Self.pinInput, timeout: 10)
        #expect(Array(output.prefix(4)) == [0, 0, 0, 0], "ResultCode: no error")
        let length = Int(output[4]) | Int(output[5]) << 8
        #expect(output.count == 6 + length)
        #expect(Array(output[6..<8]) == [0x90, 0x00], "MSE:Set AT status")

        // The phone serves one client: a second one gets no reader, and no hang.
        let second = RemoteIFDReaderProvider(devices: [device], opener: opener, udName: "second")
        let start = Deadline(secondsFromNow: 30)
        #expect(try second.readers().isEmpty)
        #expect(start.remaining > 15)

        try card.destroyPACEChannel()
        card.disconnect()
    }

    @Test func wrongPINOnThePhone() throws {
        let phone = try PhoneProcess(port: 46250, pin: "111111")
        let opener = IFDWebSocketOpener(directory: phone.root.appendingPathComponent("eid").path)
        let device = try phone.pair(opener: opener)
        let provider = RemoteIFDReaderProvider(devices: [device], opener: opener, udName: "peer test")
        _ = try provider.readers()
        let card = try #require(try provider.connect(reader: device.name, exclusive: true) as? PINPadConnection)
        let output = try card.establishPACEChannel(inputData: Self.pinInput, timeout: 10)
        #expect(Array(output.prefix(4)) == [0xC2, 0x63, 0x06, 0xF0], "0xF00663C2: wrong PIN, 2 attempts left")
    }
}

/// Where the built eid-sim is (EID_BIN_DIR, else .build/debug).
enum PhoneBinary {
    static let path =
        (ProcessInfo.processInfo.environment["EID_BIN_DIR"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug")).appendingPathComponent("eid-sim")
    static var exists: Bool { FileManager.default.isExecutableFile(atPath: path.path) }
}
