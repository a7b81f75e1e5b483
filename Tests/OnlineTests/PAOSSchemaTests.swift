import ECardAPISchema
import Foundation
import Testing

@testable import Online

/// Every PAOS message eid sends, as Online's builders write it with the values the workflow gives
/// them, validates against the eCard-API framework's schemas (TR-03112, from Open eCard; see
/// Tests/ECardAPISchema/Schemas/README.md), read by libxml2 and not by Online's own parser; and
/// the schemas refuse a message that is wrong.
@Suite struct PAOSSchemaTests {
    static func schema() throws -> ECardAPISchema { try ECardAPISchema.shared.get() }

    /// What `message` looks like on the wire: in its envelope, answering the server's last message.
    static func wire(_ message: PAOSMessage) -> [UInt8] {
        PAOSEnvelope(message, relatesTo: "urn:uuid:5b7e3c4a-8f51-4d2c-9a0e-3f1c2d4b6a70").encoded()
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    // Values of the sizes and shapes a card and the workflow give (EF.CardAccess with one PACE
    // info, the effective CHAT, ID_PICC of 32 bytes, the card's 8-byte challenge, EF.CardSecurity,
    // T_PICC and r_PICC of 8 bytes).
    static let efCardAccess = hex("3114 3012 060A 04007F00070202040202 020102 02010D")
    static let chat = hex("7F4C12 060904007F00070301020253053C0F13FFE7")
    static let idPICC = hex("2A0F7B3E91C4D8561F03A7BC64E9D2180B5C7A3E49F6812D07C3B95AE4816F22")
    static let challenge = hex("9C1F5E3A7B2D4860")
    static let efCardSecurity = hex(
        "308201A3 06092A864886F70D010702 A0820194 30820190 020103 310F300D0609608648016503040201 0500")
    static let token = hex("6E1D44B7C0F2A913")
    static let nonce = hex("0F3A5C7E91B2D4F6")
    static let errorResult = DSSResult(.error(.cancellationByUser), message: "The user cancelled.")

    /// Every message the workflow sends (AuthWorkflow.swift, +Card, +PAOS), by name.
    static let sent: [(String, PAOSMessage)] = [
        (
            "StartPAOS",
            .startPAOS(
                StartPAOS(
                    sessionIdentifier: "4e6a761c-1224-46ed-9798-ac1972faf909",
                    userAgent: .init(name: "eid", versionMajor: 0, versionMinor: 1, versionSubminor: 0)))
        ),
        ("InitializeFrameworkResponse", .initializeFrameworkResponse(InitializeFrameworkResponse())),
        (
            "InitializeFrameworkResponse reporting an error",
            .initializeFrameworkResponse(InitializeFrameworkResponse(result: errorResult))
        ),
        (
            "DIDAuthenticateResponse EAC1OutputType",
            .didAuthenticateResponse(
                DIDAuthenticateResponse(
                    .eac1(EAC1OutputType(chat: chat, efCardAccess: efCardAccess, idPICC: idPICC, challenge: challenge)))
            )
        ),
        (
            "DIDAuthenticateResponse EAC1OutputType with the card's CARs",
            .didAuthenticateResponse(
                DIDAuthenticateResponse(
                    .eac1(
                        EAC1OutputType(
                            chat: chat, certificationAuthorityReferences: ["DETESTeID00005", "DETESTeID00004"],
                            efCardAccess: efCardAccess, idPICC: idPICC, challenge: challenge))))
        ),
        (
            "DIDAuthenticateResponse EAC2OutputType",
            .didAuthenticateResponse(
                DIDAuthenticateResponse(
                    .eac2(EAC2OutputType(efCardSecurity: efCardSecurity, authenticationToken: token, nonce: nonce))))
        ),
        (
            "DIDAuthenticateResponse EAC2OutputType with the challenge only",
            .didAuthenticateResponse(DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: challenge))))
        ),
        (
            "DIDAuthenticateResponse reporting an error",
            .didAuthenticateResponse(DIDAuthenticateResponse(result: errorResult, nil))
        ),
        (
            "TransmitResponse",
            .transmitResponse(TransmitResponse(outputAPDUs: [hex("990290008E08A1B2C3D4E5F60718 9000"), [0x90, 0x00]]))
        ),
        (
            "TransmitResponse stopped at a status word not accepted",
            .transmitResponse(
                TransmitResponse(result: DSSResult(.error(.unknownError)), outputAPDUs: [[0x90, 0x00], [0x69, 0x82]]))
        ),
    ]

    @Test(arguments: sent.map(\.0))
    func validates(_ name: String) throws {
        let message = try #require(Self.sent.first { $0.0 == name }?.1)
        let problems = try Self.schema().problems(inEnvelope: Self.wire(message))
        #expect(problems.isEmpty, "\(name): \(problems)")
    }

    /// The two error reports eid sent before the schemas read them: a DIDAuthenticateResponse
    /// without AuthenticationProtocolData and an InitializeFrameworkResponse without Version.
    @Test func theErrorReportsOfBeforeDoNotValidate() throws {
        let schema = try Self.schema()
        let text = String(
            decoding: Self.wire(.didAuthenticateResponse(DIDAuthenticateResponse(result: Self.errorResult, nil))),
            as: UTF8.self)
        let range = try #require(text.range(of: #"<AuthenticationProtocolData[^>]*/>"#, options: .regularExpression))
        var old = text
        old.removeSubrange(range)
        let problems = schema.problems(inEnvelope: Array(old.utf8))
        #expect(problems.contains { $0.contains("Missing child element") && $0.contains("AuthenticationProtocolData") })

        let noVersion = InitializeFrameworkResponse(result: Self.errorResult, version: nil)
        let versionProblems = schema.problems(inEnvelope: Self.wire(.initializeFrameworkResponse(noVersion)))
        #expect(versionProblems.contains { $0.contains("Missing child element") && $0.contains("Version") })
    }

    /// Messages made wrong on purpose: the schemas refuse each, naming what is wrong.
    @Test func wrongMessagesAreRefused() throws {
        let schema = try Self.schema()
        let eac1 = Self.sent[3].1
        let text = String(decoding: Self.wire(eac1), as: UTF8.self)
        func refused(_ bytes: [UInt8], naming word: String, _ what: String) {
            let problems = schema.problems(inEnvelope: bytes)
            #expect(problems.contains { $0.contains(word) }, "\(what): \(problems)")
        }
        // A message the eCard-API does not know (a misspelt element).
        refused(
            Array(text.replacingOccurrences(of: "DIDAuthenticateResponse", with: "DIDAuthenticationResponse").utf8),
            naming: "DIDAuthenticationResponse", "an unknown body element")
        // EAC1OutputType without the card's challenge.
        var noChallenge = EAC1OutputType(
            chat: Self.chat, efCardAccess: Self.efCardAccess, idPICC: Self.idPICC, challenge: Self.challenge)
        noChallenge.challenge = nil
        refused(
            Self.wire(.didAuthenticateResponse(DIDAuthenticateResponse(.eac1(noChallenge)))), naming: "Challenge",
            "EAC1OutputType without Challenge")
        // EAC1OutputType's elements out of the schema's order.
        let idPICC = "<IDPICC>" + Self.idPICC.map { String(format: "%02X", $0) }.joined() + "</IDPICC>"
        let swapped = text.replacingOccurrences(of: idPICC, with: "").replacingOccurrences(
            of: "<EFCardAccess>", with: idPICC + "<EFCardAccess>")
        #expect(swapped != text)
        refused(Array(swapped.utf8), naming: "IDPICC", "IDPICC before EFCardAccess")
        // Not hexBinary.
        refused(
            Array(text.replacingOccurrences(of: "<Challenge>9C1F", with: "<Challenge>XY1F").utf8), naming: "hexBinary",
            "a challenge that is not hex")
        // A ResultMessage without its language (dss:InternationalStringType requires xml:lang).
        let unlabelled = DSSResult(major: .error, minor: .known(.cancellationByUser), message: "cancelled")
        refused(
            Self.wire(.transmitResponse(TransmitResponse(result: unlabelled, outputAPDUs: [[0x90, 0x00]]))),
            naming: "lang", "ResultMessage without xml:lang")
        // An envelope without its Body.
        let noBody = text.replacingOccurrences(
            of: #"<soap:Body>[\s\S]*</soap:Body>"#, with: "", options: .regularExpression)
        #expect(noBody != text)
        refused(Array(noBody.utf8), naming: "Body", "an envelope without Body")
        refused(Array("<soap:Envelope".utf8), naming: "well-formed", "not XML")
    }

    /// TransmitResponse reporting an error before the card answered any APDU (the card lost
    /// mid-Transmit) carries no OutputAPDU, as AusweisApp's and Open eCard's do; ISOIFD.xsd
    /// requires one. eid invents no response APDU: this is the one message that does not validate.
    @Test func aTransmitErrorWithoutAnyResponseIsTheKnownDeviation() throws {
        let empty = TransmitResponse(result: DSSResult(.error(.noCard)), outputAPDUs: [])
        let problems = try Self.schema().problems(inEnvelope: Self.wire(.transmitResponse(empty)))
        #expect(problems.contains { $0.contains("OutputAPDU") }, "\(problems)")
    }

    /// Every schema location in the fixtures is a relative path to a file that is there: libxml2
    /// fetches nothing from the network.
    @Test func everySchemaLocationIsALocalFile() throws {
        let directory = ECardAPISchema.directory
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "xsd" }
        #expect(files.count == 21)
        var imports = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let uncommented = text.replacingOccurrences(of: #"<!--[\s\S]*?-->"#, with: "", options: .regularExpression)
            let locations = uncommented.matches(
                of: /<(\w+:)?(import|include|redefine)\b[^>]*schemaLocation\s*=\s*["']([^"']+)["']/
            )
            .map { String($0.3) }
            imports += locations.count
            for location in locations {
                #expect(!location.contains(":"), "\(file.lastPathComponent): \(location)")
                let target = file.deletingLastPathComponent().appendingPathComponent(location).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(file.lastPathComponent): \(location)")
            }
        }
        #expect(imports == 51)
    }
}
