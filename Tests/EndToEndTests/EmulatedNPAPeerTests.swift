import Foundation
import Testing

/// `eid change-pin --json` through the real pcscd against vsmartcard's nPA emulator, an
/// independent card: its PACE runs in OpenPACE's libeac, its secure messaging (the data
/// objects, the MAC input and its check) in vsmartcard's own Python code.
extension ThroughPCSCD {
    @Suite struct EmulatedNPAPeerTests {
        static func set(_ cmd: String, _ value: String) -> String { #"{"cmd":"\#(cmd)","value":"\#(value)"}"# }
        static let success = #"{"msg":"CHANGE_PIN","success":true}"#

        func changePIN(_ reader: String, _ answers: [String]) throws -> RunResult {
            try runTool(
                "eid", ["change-pin", "--json", "--reader", reader, "--timeout", "10"],
                stdin: answers.map { $0 + "\n" }.joined(), timeout: 30)
        }

        func retryCounter(_ reader: String) throws -> Int? {
            let entry = try readerEntry(reader, in: try runTool("eid", ["readers", "--json"]).stdout)
            return (entry["card"] as? [String: Any])?["retryCounter"] as? Int
        }

        /// The retry counters shown with each ENTER_* message, in order.
        func prompts(_ result: RunResult) throws -> [String] {
            try result.stdoutLines.map(jsonObject).compactMap { message in
                guard let name = message["msg"] as? String, name.hasPrefix("ENTER_") else { return nil }
                return "\(name) \(cardObject(of: message)?["retryCounter"] as? Int ?? -9)"
            }
        }

        @Test func pinIsChangedAndTheNewPINIsTheCardsPIN() throws {
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader, [Self.set("SET_PIN", EmulatedNPA.pin), Self.set("SET_NEW_PIN", "654321")])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdoutLines.last == Self.success)
                #expect(try prompts(result) == ["ENTER_PIN 3", "ENTER_NEW_PIN 3"])
                // The card took the new PIN: it opens PACE now, and the old one no longer does.
                let again = try changePIN(reader, [Self.set("SET_PIN", "654321"), Self.set("SET_NEW_PIN", "123123")])
                #expect(again.stdoutLines.last == Self.success, "\(again.stderr)")
                let old = try changePIN(reader, [Self.set("SET_PIN", "654321")])
                #expect(
                    messageNames(old.stdoutLines).filter { $0 == "ENTER_PIN" }.count == 2, "the replaced PIN is refused"
                )
                #expect(old.status == 5, "end of input at the second ENTER_PIN cancels")
                #expect(card.process.isRunning, "the emulator did not crash: \(card.stop().1)")
            }
        }

        /// The emulator answers MSE:Set AT with 9000 while two or three attempts are left (a real
        /// card says 63C2 at two) and with 63C1 once one is left, so eid shows 3, 3, then 1.
        @Test func twoWrongPINsThenCANThenPIN() throws {
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "000001"),
                        Self.set("SET_CAN", EmulatedNPA.can),
                        Self.set("SET_PIN", EmulatedNPA.pin), Self.set("SET_NEW_PIN", "654321"),
                    ])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    try prompts(result) == [
                        "ENTER_PIN 3", "ENTER_PIN 3", "ENTER_CAN 1", "ENTER_PIN 1", "ENTER_NEW_PIN 3",
                    ])
                #expect(result.stdoutLines.last == Self.success)
                #expect(try retryCounter(reader) == 3)
            }
        }

        /// Issue 6's acceptance: PIN -> CAN -> PUK unblock -> new PIN ends with success.
        ///
        /// The emulator unblocks the PIN already at PACE with the PUK, and answers the unblock,
        /// RESET RETRY COUNTER 0C 2C 03 03 with no DO'87 and no DO'97, with 6988: vsmartcard's
        /// SEutils.parse_SM_CAPDU pads the authenticated data once more in every case
        /// (SSC || pad(header) || 80 00 ..), where AusweisApp's SecureMessaging::createMac and
        /// OpenSC's sm_encrypt (vsmartcard's own npa-tool), like eid, pad a second time only when
        /// there are data objects (docs/peers.md, "Known disagreements"). As AusweisApp2's
        /// StateResetRetryCounter does, eid then drops the connection, reads the card again (3
        /// attempts: the PUK did unblock it) and goes on with ENTER_PIN.
        @Test func threeWrongPINsWithCANThenPUKUnblockThenNewPIN() throws {
            try E2E.pool.withReader { reader, port in
                let card = try EmulatedNPA(reader: reader, port: port)
                defer { card.stop() }
                let result = try changePIN(
                    reader,
                    [
                        Self.set("SET_PIN", "000000"), Self.set("SET_PIN", "000001"),
                        Self.set("SET_CAN", EmulatedNPA.can),
                        Self.set("SET_PIN", "000002"), Self.set("SET_PUK", EmulatedNPA.puk),
                        Self.set("SET_PIN", EmulatedNPA.pin),
                        Self.set("SET_NEW_PIN", "654321"),
                    ])
                let shown = try prompts(result)
                // Up to the PUK, with either MAC rule: the PIN is blocked after the third wrong PIN.
                #expect(
                    Array(shown.prefix(5)) == [
                        "ENTER_PIN 3", "ENTER_PIN 3", "ENTER_CAN 1", "ENTER_PIN 1", "ENTER_PUK 0",
                    ])
                // After the 6988 the card is read again: 3 attempts, ENTER_PIN, and the change goes through.
                #expect(Array(shown.dropFirst(5)) == ["ENTER_PIN 3", "ENTER_NEW_PIN 3"], "eid: \(result.stderr)")
                #expect(result.status == 0 && result.stdoutLines.last == Self.success, "eid: \(result.stderr)")
                #expect(try retryCounter(reader) == 3)
                #expect(card.process.isRunning, "the emulator did not crash: \(card.stop().1)")
            }
        }
    }
}
