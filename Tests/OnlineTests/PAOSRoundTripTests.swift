import Testing

@testable import Online

/// Every message, encoded by eid and parsed back, is the same value; and what eid writes has the
/// shape of docs/protocol.md, "PAOS envelope" and "PAOS messages".
@Suite struct PAOSRoundTripTests {
    static let certificates: [[UInt8]] = [[0x7F, 0x21, 0x01, 0xAA], [0x7F, 0x21, 0x01, 0xBB]]

    static let messages: [PAOSMessage] = [
        .startPAOS(
            StartPAOS(
                sessionIdentifier: "4e6a761c-1224-46ed-9798-ac1972faf909",
                userAgent: .init(name: "eid", versionMajor: 0, versionMinor: 1, versionSubminor: 0))),
        .startPAOS(
            StartPAOS(
                sessionIdentifier: "s",
                connectionHandles: [ConnectionHandle(contextHandle: [1], ifdName: "Reader & 1", slotIndex: 2)],
                supportedAPIVersions: [.init(major: 1, minor: 1)],
                supportedDIDProtocols: ["urn:oid:1.3.162.15480.3.0.14"],
                profile: PAOSNamespace.profile)),
        .initializeFramework(InitializeFramework()),
        .initializeFrameworkResponse(InitializeFrameworkResponse()),
        .initializeFrameworkResponse(
            InitializeFrameworkResponse(result: DSSResult(.error(.internalError), message: "no"), version: nil)),
        .didAuthenticate(
            DIDAuthenticate(
                .eac1(
                    EAC1InputType(
                        certificates: certificates, certificateDescription: [0x30, 0x00],
                        requiredCHAT: [0x7F, 0x4C, 0x00],
                        optionalCHAT: [0x7F, 0x4C, 0x01], authenticatedAuxiliaryData: [0x67, 0x00],
                        transactionInfo: "<b>Order</b> 4711", acceptedEIDTypes: ["CardCertified"])))),
        .didAuthenticate(
            DIDAuthenticate(.eac1(EAC1InputType(certificates: certificates, certificateDescription: nil)))),
        .didAuthenticate(
            DIDAuthenticate(
                .eac2(EAC2InputType(certificates: certificates, ephemeralPublicKey: [0x04, 1, 2], signature: [9, 9])))),
        .didAuthenticate(DIDAuthenticate(.eac2(EAC2InputType(ephemeralPublicKey: [0x04, 1, 2], signature: nil)))),
        .didAuthenticate(DIDAuthenticate(.eacAdditional(EACAdditionalInputType(signature: [0x86, 0xE2])))),
        .didAuthenticateResponse(
            DIDAuthenticateResponse(
                .eac1(
                    EAC1OutputType(
                        retryCounter: 3, chat: [0x7F, 0x4C, 0x02], certificationAuthorityReferences: ["DETESTeID00005"],
                        efCardAccess: [0x31, 0x00], idPICC: [0xAB], challenge: [1, 2, 3, 4, 5, 6, 7, 8])))),
        .didAuthenticateResponse(
            DIDAuthenticateResponse(
                .eac2(EAC2OutputType(efCardSecurity: [0x30, 0x01], authenticationToken: [0xE9, 0x5B], nonce: [0, 1])))),
        .didAuthenticateResponse(DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: [8, 7, 6, 5, 4, 3, 2, 1])))),
        .didAuthenticateResponse(
            DIDAuthenticateResponse(result: DSSResult(.error(.cancellationByUser)), nil, protocolIdentifier: nil)),
        .transmit(
            Transmit(
                inputAPDUs: [
                    .init([0x0C, 0xA4, 0x04, 0x0C, 0x00], acceptableStatusCodes: [[0x90, 0x00]]),
                    .init([0x0C, 0xB0, 0x81, 0x00], acceptableStatusCodes: [[0x90], [0x62, 0x82]]),
                    .init([0, 0xB0, 0, 0]),
                ], requestID: "r-1")),
        .transmitResponse(TransmitResponse(outputAPDUs: [[0x99, 0x02, 0x90, 0x00], [0x90, 0x00]])),
        .transmitResponse(TransmitResponse(result: DSSResult(.error(.unknownError)), outputAPDUs: [[0x69, 0x82]])),
        .startPAOSResponse(StartPAOSResponse(result: .ok)),
        .startPAOSResponse(
            StartPAOSResponse(
                result: DSSResult(
                    major: .error, minor: .unrecognized("urn:x:other#code"), message: "Détail", messageLanguage: "de"))),
        .startPAOSResponse(StartPAOSResponse(result: DSSResult(.error(.timeout), message: "late"))),
    ]

    @Test(arguments: messages)
    func roundTrips(message: PAOSMessage) throws {
        let envelope = PAOSEnvelope(message, relatesTo: "urn:uuid:previous")
        let back = try PAOSEnvelope.parse(envelope.encoded())
        #expect(back == envelope)
        #expect(back.messageID?.hasPrefix("urn:uuid:") == true)
    }

    @Test func everyKindIsCovered() {
        #expect(Set(Self.messages.map(\.kind)) == Set(PAOSMessage.Kind.allCases))
    }

    @Test func clientMessagesCarryThePAOSHeaderAndTheBodyInItsOwnNamespace() throws {
        let text = String(decoding: PAOSEnvelope(Self.messages[0]).encoded(), as: UTF8.self)
        #expect(text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(
            text.contains(
                #"<paos:PAOS soap:mustUnderstand="1" soap:actor="http://schemas.xmlsoap.org/soap/actor/next">"#))
        #expect(
            text.contains(
                "<paos:ServiceType>http://www.bsi.bund.de/ecard/api/1.1/PAOS/GetNextCommand</paos:ServiceType>"))
        #expect(text.contains(#"<StartPAOS xmlns="urn:iso:std:iso-iec:24727:tech:schema">"#))
        #expect(text.contains(#"<ConnectionHandle xsi:type="iso:ConnectionHandleType">"#))
        #expect(text.contains("<CardApplication>E80704007F00070302</CardApplication>"))
        #expect(!text.contains("RelatesTo"), "StartPAOS answers nothing")
        let server = String(decoding: PAOSEnvelope(Self.messages[5]).encoded(), as: UTF8.self)
        #expect(!server.contains("paos:PAOS"))
        #expect(server.contains(#"xsi:type="iso:EAC1InputType""#))
    }

    @Test func resultsAreInTheDSSNamespace() throws {
        let text = String(decoding: PAOSEnvelope(Self.messages[3]).encoded(), as: UTF8.self)
        #expect(
            text.contains(
                #"<Result xmlns="urn:oasis:names:tc:dss:1.0:core:schema"><ResultMajor>http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok</ResultMajor></Result>"#
            ))
        #expect(text.contains(#"<InitializeFrameworkResponse xmlns="http://www.bsi.bund.de/ecard/api/1.1" Profile="#))
        #expect(text.contains("<SubMinor>5</SubMinor>"))
    }
}

extension PAOSMessage: CustomTestStringConvertible {
    public var testDescription: String { kind.rawValue }
}
