import Foundation
import Testing

/// TR-03124-2 (v1.3) module B, the eCard-API profile: the cases issue 18 found missing, each a
/// run of `eid auth --json` with eid-sim through the test pcscd against the shared
/// `eid-testserver serve` with the fault that stages it (AuthFaultsTests' harness: the AUTH
/// result, the messages, the exit status, the url and what `/result` says). What AusweisApp2
/// 1.26.2 gives for the same faults is measured by Tests/Support/ausweisapp2_auth_peer_tests.py.
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"),
        .serialized, .sharedTestServer)
    struct ConformanceBTests {
        typealias Harness = AuthFaultsTests

        /// A fault a conforming client succeeds with: ok, the data read, plus `resultContains`.
        static func succeeds(_ fault: String, resultContains: [String] = []) -> Harness.Case {
            var success = Harness.success(fault, "?fault=" + fault)
            success.expected.resultContains = resultContains
            return success
        }

        /// The server ends early with StartPAOSResponse al/common#internalError: eid ends with it
        /// after the PIN was asked, as with final_error, and exits with 6; nothing was read.
        static func endsEarly(_ fault: String) -> Harness.Case {
            var end = Harness.reported(
                fault, minor: "/al/common#internalError", reason: "Paos_Generic_Server_Error", status: 6,
                messages: Harness.succeeded)
            end.expected.notRead = ["GivenNames"]
            end.expected.resultContains = [#""reason":"\#(fault)""#]
            return end
        }

        static func run(_ cases: [Harness.Case]) throws {
            try Harness.run(cases, server: Harness.server, withCard: true)
        }

        @Test("EID_CLIENT_B_06: a Transmit batch goes on past a status its AcceptableStatusCode accepts")
        func transmitBatch() throws {
            // One Transmit with every APDU; the age verification's 6300 is acceptable, so the reads after it are sent.
            try Self.run([Self.succeeds("transmit_batch", resultContains: [#""verified":{"AgeVerification":false}"#])])
        }

        @Test("EID_CLIENT_B_07: Transmit stops at the first status its AcceptableStatusCode does not accept")
        func transmitStop() throws {
            // The server ends with transmit_not_stopped if a response after the refused read comes.
            // It reads the rest in the next Transmit and ends ok, but the card's refusal fails the
            // authentication for the client, as with AusweisApp2 1.26.2 (its status
            // Card_Unexpected_Transmit_Status stays to the end): exit 6, clientError for the browser.
            var stopped = Harness.reported(
                "transmit_stop", minor: "/al/common#unknownError", reason: "Card_Unexpected_Transmit_Status",
                status: 6, messages: Harness.succeeded, urlMinor: "clientError")
            stopped.expected.serverOK = true
            stopped.expected.read = ["GivenNames"]
            try Self.run([stopped])
        }

        @Test("EID_CLIENT_B_33: a one-byte AcceptableStatusCode accepts every status word starting with it")
        func transmitStatusPrefix() throws {
            try Self.run([
                Self.succeeds("transmit_status_prefix", resultContains: [#""verified":{"AgeVerification":false}"#])
            ])
        }

        @Test("EID_CLIENT_B_09: another eService's certificate in EAC2InputType is ignored")
        func eac2OtherAT() throws {
            try Self.run([Self.succeeds("eac2_other_at")])
        }

        @Test("EID_CLIENT_B_10: an expired certificate in EAC2InputType is ignored")
        func eac2ExpiredAT() throws {
            try Self.run([Self.succeeds("eac2_expired_at")])
        }

        /// A PAOS message the client cannot take (a mandatory element missing, a single one twice):
        /// AusweisApp's "unknown message from the server", internalError; the server, whose message
        /// cannot be answered, ended with the fault, and nothing was read. Before the card the browser
        /// gets clientError, after it serverError, as with `broken_xml` and `oversized_ta_signature`.
        static func unknownMessage(_ fault: String, messages: [String], urlMinor: String? = nil) -> Harness.Case {
            var refused = Harness.reported(
                fault, minor: "/al/common#internalError", reason: "Workflow_Unknown_Paos_From_EidServer", status: 6,
                messages: messages, urlMinor: urlMinor)
            refused.expected.notRead = ["GivenNames"]
            refused.expected.resultContains = [#""reason":"\#(fault)""#]
            return refused
        }

        @Test("EID_CLIENT_B_11: EAC1InputType without a Certificate is refused before the card")
        func eac1WithoutCertificate() throws {
            try Self.run([
                Self.unknownMessage("eac1_no_certificate", messages: Harness.beforeTheCard, urlMinor: "clientError")
            ])
        }

        @Test("EID_CLIENT_B_12: EAC1InputType without CertificateDescription is refused before the card")
        func eac1WithoutDescription() throws {
            // AusweisApp2 1.26.2 parses it and refuses it at the certificate check: parameterError,
            // "No certificate description available" (measured).
            var refused = Harness.reported(
                "eac1_no_description", minor: "/al/common#parameterError",
                reason: "Certificate_Check_Failed_No_Description", status: 6, messages: Harness.beforeTheCard)
            refused.expected.notRead = ["GivenNames"]
            refused.expected.resultContains = [#""reason":"client_reported_error""#]
            try Self.run([refused])
        }

        @Test("EID_CLIENT_B_13: EAC1InputType with two CertificateDescription elements is refused before the card")
        func eac1WithTwoDescriptions() throws {
            try Self.run([
                Self.unknownMessage("eac1_two_descriptions", messages: Harness.beforeTheCard, urlMinor: "clientError")
            ])
        }

        @Test(
            "EID_CLIENT_B_14, EID_CLIENT_B_15: EAC2InputType without EphemeralPublicKey, or with two, is refused"
        )
        func eac2WithoutOrWithTwoEphemeralKeys() throws {
            // EAC2 comes after the PIN: the messages are those of a success up to the end.
            try Self.run([
                Self.unknownMessage("eac2_no_ephemeral_key", messages: Harness.succeeded),
                Self.unknownMessage("eac2_two_ephemeral_keys", messages: Harness.succeeded),
            ])
        }

        @Test("EID_CLIENT_B_24: pre-verification refuses a DV certificate whose signature is not the CVCA's")
        func forgedDocumentVerifier() throws {
            // Refused before the card, as expired_at: invalidCertificatePath, no PIN asked.
            var refused = Harness.reported(
                "dv_forged", minor: "/il/signature#invalidCertificatePath",
                reason: "Pre_Verification_Invalid_Certificate_Signature", status: 6, messages: Harness.beforeTheCard)
            refused.expected.notRead = ["GivenNames"]
            try Self.run([refused])
        }

        @Test("EID_CLIENT_B_31: the certificates in reverse order (AT first, the link certificate last) pass")
        func certificatesInReverseOrder() throws {
            let withLink = "cvca_link,certificates_reversed"
            try Self.run([Self.succeeds("certificates_reversed"), Harness.success(withLink, "?fault=" + withLink)])
        }

        @Test("EID_CLIENT_B_20: StartPAOSResponse right after EAC1OutputType ends with the server's result")
        func endAfterEAC1() throws {
            try Self.run([Self.endsEarly("end_after_eac1")])
        }

        @Test("EID_CLIENT_B_21: StartPAOSResponse right after EAC2OutputType ends with the server's result")
        func endAfterEAC2() throws {
            try Self.run([Self.endsEarly("end_after_eac2")])
        }

        @Test("EID_CLIENT_B_22: StartPAOSResponse in the EACAdditionalInputType round ends with the server's result")
        func endInTheEACAdditionalRound() throws {
            // Instead of EACAdditionalInputType, and after the EAC2 output that answers it.
            try Self.run([Self.endsEarly("end_after_eac2_challenge"), Self.endsEarly("end_after_eac_additional")])
        }
    }
}
