import Faces
import Foundation
import RemoteIFD
import SmartCard
import Testing

/// `eid pair`'s face with the network faked: a phone that accepts only the code 1234 and answers
/// IFDEstablishContext, and announcements given by the test.
@Suite struct PairFaceTests {
    /// A pairing channel that answers the one IFDEstablishContext it is sent.
    final class EstablishingChannel: IFDMessageChannel, @unchecked Sendable {
        private let answers = Locked<[String]>([])
        struct Ended: Error {}

        func send(text: String, timeout: Double) throws {
            guard text.contains(#""msg":"IFDEstablishContext""#) else { return }
            answers.withLock {
                $0.append(
                    #"{"msg":"IFDEstablishContextResponse","ContextHandle":"h","ResultMajor":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok","ResultMinor":null,"IFDName":"Phone"}"#
                )
            }
        }

        func receive(timeout: Double) throws -> String {
            guard let next = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { throw Ended() }
            return next
        }

        func isTimeout(_ error: any Error) -> Bool { false }
        func close() {}
    }

    struct CodeCheckingOpener: IFDChannelOpener {
        func openPairing(address: String, code: Secret, timeout: Double) throws -> (
            channel: any IFDMessageChannel, peerCertificate: [UInt8]
        ) {
            guard code.withBytes({ $0 == Array("1234".utf8) }) else {
                throw RemoteIFDError.pairingRefused(address: address, "the phone refused the pairing code")
            }
            return (EstablishingChannel(), Array("the phone's certificate".utf8))
        }

        func open(address: String, certificateSHA256: [UInt8], timeout: Double) throws -> any IFDMessageChannel {
            throw RemoteIFDError.unreachable(address: address, "not in this test")
        }
    }

    static let announcement = IFDAnnouncement(
        datagram: Array(
            #"{"msg":"REMOTE_IFD","IFDName":"Pixel","IFDID":"\#(String(repeating: "ab", count: 32))","port":24728,"SupportedAPI":["IFDInterface_WebSocket_v2"],"pairing":true}"#
                .utf8), sender: "192.0.2.5")!

    static func tools(heard: [IFDAnnouncement], directory: String) -> PairingTools {
        PairingTools(
            discover: { _, _ in heard }, pairing: IFDPairing(opener: CodeCheckingOpener(), udName: "laptop"),
            store: PairedDeviceStore(directory: directory))
    }

    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("eid-pair-\(UUID().uuidString)").path
    }

    @Test func pairsWithTheCodeFromStandardInputAndStoresThePhone() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = Harness(input: ScriptedInput(["1234"]))
        let face = PairFace(
            context: harness.context, json: true, tools: Self.tools(heard: [Self.announcement], directory: directory))
        #expect(face.pair(.init(listen: 1, codeTimeout: 2)) == 0)
        #expect(harness.sink.messages == ["IFD_FOUND", "IFD_ENTER_CODE", "IFD_PAIRED"])
        #expect(harness.sink.output.last?.contains(#""address":"wss://192.0.2.5:24728""#) == true)
        let stored = PairedDeviceStore(directory: directory).load().devices
        #expect(stored.map(\.name) == ["Pixel"])
        #expect(stored.first?.certificate == Array("the phone's certificate".utf8))
    }

    @Test func aWrongCodeStoresNothingAndSaysWhy() {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = Harness(input: ScriptedInput(["4321"]))
        let face = PairFace(
            context: harness.context, json: false, tools: Self.tools(heard: [Self.announcement], directory: directory))
        #expect(face.pair(.init(listen: 1, codeTimeout: 2)) == 6)
        #expect(harness.sink.error.last?.contains("refused the pairing code") == true)
        #expect(!(harness.sink.output + harness.sink.error).joined().contains("4321"))
        #expect(!PairedDeviceStore(directory: directory).hasDevices)
    }

    @Test func theCodeIsTypedWithEchoOffOnATerminal() {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let terminal = FakeTerminal(typing: ["1234"])
        let harness = Harness(input: ScriptedInput([], isTerminal: true), terminal: terminal)
        let face = PairFace(
            context: harness.context, json: false, tools: Self.tools(heard: [Self.announcement], directory: directory))
        #expect(face.pair(.init(listen: 1, codeTimeout: 2)) == 0)
        #expect(terminal.events.first == "echo off")
        #expect(harness.sink.output.last?.hasPrefix("paired with Pixel") == true)
    }

    @Test func noPhoneInPairingModeAndMalformedCodes() {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var notPairing = Self.announcement
        notPairing.pairing = false
        let none = Harness(input: ScriptedInput(["1234"]))
        let face = PairFace(
            context: none.context, json: true, tools: Self.tools(heard: [notPairing], directory: directory))
        #expect(face.pair(.init(listen: 1)) == 7)
        #expect(none.sink.messages == ["IFD_FOUND", "IFD_ERROR"])
        for code in ["12345", "12a4", ""] {
            let harness = Harness(input: ScriptedInput([code]))
            let face = PairFace(
                context: harness.context, json: true,
                tools: Self.tools(heard: [Self.announcement], directory: directory))
            #expect(face.pair(.init(listen: 1, codeTimeout: 2)) != 0)
            #expect(harness.sink.messages.last == "IFD_ERROR")
        }
        #expect(!PairedDeviceStore(directory: directory).hasDevices)
    }

    @Test func listAndForget() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try PairedDeviceStore(directory: directory).save(
            try PairedDevice(name: "Pixel", certificate: [1], address: "wss://192.0.2.5:24728"))
        let harness = Harness()
        let face = PairFace(context: harness.context, json: true, tools: Self.tools(heard: [], directory: directory))
        #expect(face.list() == 0)
        #expect(face.forget("Nokia") == 64)
        #expect(face.forget("Pixel") == 0)
        #expect(harness.sink.messages == ["IFD_DEVICE", "IFD_ERROR", "IFD_FORGOTTEN"])
    }
}
