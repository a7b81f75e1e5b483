import Testing

@testable import Online

/// What the parser refuses, each with the error that names the rule.
@Suite struct PAOSMalformedTests {
    static func envelope(_ body: String, header: String = "") -> [UInt8] {
        Array(
            """
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:iso="urn:iso:std:iso-iec:24727:tech:schema">\
            <soap:Header>\(header)</soap:Header><soap:Body>\(body)</soap:Body></soap:Envelope>
            """.utf8)
    }

    static let ok =
        #"<Result xmlns="urn:oasis:names:tc:dss:1.0:core:schema"><ResultMajor>http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok</ResultMajor></Result>"#

    static func eac(_ type: String, _ children: String) -> String {
        #"<DIDAuthenticate xmlns="urn:iso:std:iso-iec:24727:tech:schema"><AuthenticationProtocolData xsi:type="iso:\#(type)">\#(children)</AuthenticationProtocolData></DIDAuthenticate>"#
    }

    static func expect(_ error: PAOSError, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try PAOSEnvelope.parse(bytes) }
    }

    @Test func refusesWhatIsNoSOAP11Envelope() {
        Self.expect(.malformedXML(.notWellFormed(line: 1)), Array("<soap:Envelope".utf8))
        Self.expect(.notSOAPEnvelope, Array("<Envelope><Body/></Envelope>".utf8))
        Self.expect(
            .notSOAPEnvelope,
            Array(#"<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body/></e:Envelope>"#.utf8))
        Self.expect(.missingBody, Array(#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"/>"#.utf8))
        Self.expect(.bodyNotOneMessage, Self.envelope(""))
        Self.expect(.bodyNotOneMessage, Self.envelope("<InitializeFramework/><InitializeFramework/>"))
        Self.expect(.unknownMessage("GetNextCommand"), Self.envelope("<GetNextCommand/>"))
    }

    @Test(arguments: ["attack_externalEntity", "attack_billionLaughs", "attack_parameterEntity"])
    func refusesEntityAttacks(name: String) throws {
        Self.expect(.malformedXML(.documentTypeDeclared), try OnlineFixture.bytes(name))
    }

    @Test func refusesOverLongBodiesUnread() {
        let padding = String(repeating: "A", count: PAOSEnvelope.maximumSize)
        let bytes = Self.envelope(Self.eac("EAC2InputType", "<EphemeralPublicKey>\(padding)</EphemeralPublicKey>"))
        Self.expect(.malformedXML(.tooLarge(limit: PAOSEnvelope.maximumSize)), bytes)
    }

    @Test func refusesBadHexAndValuesTheProfileDoesNotAllow() {
        Self.expect(
            .invalidHex(message: "DIDAuthenticate", element: "EphemeralPublicKey"),
            Self.envelope(Self.eac("EAC2InputType", "<EphemeralPublicKey>04ABC</EphemeralPublicKey>")))
        Self.expect(
            .invalidHex(message: "DIDAuthenticate", element: "EphemeralPublicKey"),
            Self.envelope(Self.eac("EAC2InputType", "<EphemeralPublicKey>04 AB</EphemeralPublicKey>")))
        Self.expect(
            .invalidHex(message: "DIDAuthenticate", element: "Certificate"),
            Self.envelope(Self.eac("EAC1InputType", "<Certificate>7F21ZZ</Certificate>")))
        Self.expect(
            .invalidValue(message: "DIDAuthenticateResponse", element: "Challenge"),
            Self.envelope(
                #"<DIDAuthenticateResponse>\#(Self.ok)<AuthenticationProtocolData xsi:type="iso:EAC1OutputType"><Challenge>0102</Challenge></AuthenticationProtocolData></DIDAuthenticateResponse>"#
            ))
        Self.expect(
            .invalidValue(message: "Transmit", element: "InputAPDU"),
            Self.envelope("<Transmit><InputAPDUInfo><InputAPDU>00A4</InputAPDU></InputAPDUInfo></Transmit>"))
        Self.expect(
            .invalidValue(message: "Transmit", element: "AcceptableStatusCode"),
            Self.envelope(
                "<Transmit><InputAPDUInfo><InputAPDU>00A40000</InputAPDU><AcceptableStatusCode>900000</AcceptableStatusCode></InputAPDUInfo></Transmit>"
            ))
        Self.expect(
            .invalidValue(message: "TransmitResponse", element: "OutputAPDU"),
            Self.envelope("<TransmitResponse>\(Self.ok)<OutputAPDU>90</OutputAPDU></TransmitResponse>"))
    }

    @Test("EID_CLIENT_B_11, EID_CLIENT_B_14: refuses messages without a mandatory element")
    func refusesMissingMandatoryElements() {
        Self.expect(
            .missingElement(message: "DIDAuthenticate", element: "EphemeralPublicKey"),
            Self.envelope(Self.eac("EAC2InputType", "<Signature>00</Signature>")))
        Self.expect(
            .missingElement(message: "DIDAuthenticate", element: "Signature"),
            Self.envelope(Self.eac("EACAdditionalInputType", "")))
        Self.expect(
            .missingElement(message: "DIDAuthenticate", element: "Certificate"),
            Self.envelope(Self.eac("EAC1InputType", "<CertificateDescription>30</CertificateDescription>")))
        Self.expect(
            .missingElement(message: "DIDAuthenticate", element: "AuthenticationProtocolData"),
            Self.envelope("<DIDAuthenticate><DIDName>PIN</DIDName></DIDAuthenticate>"))
        Self.expect(
            .missingElement(message: "StartPAOSResponse", element: "Result"), Self.envelope("<StartPAOSResponse/>"))
        Self.expect(
            .invalidValue(message: "StartPAOS", element: "SessionIdentifier"),
            Self.envelope("<StartPAOS><SessionIdentifier> </SessionIdentifier></StartPAOS>"))
        Self.expect(
            .missingElement(message: "Transmit", element: "InputAPDUInfo"),
            Self.envelope("<Transmit><SlotHandle>00</SlotHandle></Transmit>"))
        Self.expect(
            .missingElement(message: "TransmitResponse", element: "OutputAPDU"),
            Self.envelope("<TransmitResponse>\(Self.ok)</TransmitResponse>"))
        Self.expect(
            .missingElement(message: "DIDAuthenticateResponse", element: "AuthenticationProtocolData"),
            Self.envelope("<DIDAuthenticateResponse>\(Self.ok)</DIDAuthenticateResponse>"))
    }

    @Test("EID_CLIENT_B_15: refuses duplicates of single elements")
    func refusesDuplicatesOfSingleElements() {
        Self.expect(
            .duplicateElement(message: "DIDAuthenticate", element: "EphemeralPublicKey"),
            Self.envelope(
                Self.eac(
                    "EAC2InputType",
                    "<EphemeralPublicKey>04</EphemeralPublicKey><EphemeralPublicKey>04</EphemeralPublicKey>")))
        Self.expect(
            .duplicateElement(message: "StartPAOSResponse", element: "Result"),
            Self.envelope("<StartPAOSResponse>\(Self.ok)\(Self.ok)</StartPAOSResponse>"))
        Self.expect(
            .duplicateElement(message: "Header", element: "MessageID"),
            Self.envelope(
                "<StartPAOSResponse>\(Self.ok)</StartPAOSResponse>",
                header:
                    #"<MessageID xmlns="http://www.w3.org/2005/03/addressing">a</MessageID><MessageID xmlns="http://www.w3.org/2005/03/addressing">b</MessageID>"#
            ))
    }

    @Test("EID_CLIENT_B_13: refuses EAC1InputType with two CertificateDescription elements")
    func refusesTwoCertificateDescriptions() {
        Self.expect(
            .duplicateElement(message: "DIDAuthenticate", element: "CertificateDescription"),
            Self.envelope(
                Self.eac(
                    "EAC1InputType",
                    "<Certificate>7F21</Certificate><CertificateDescription>30</CertificateDescription>"
                        + "<CertificateDescription>30</CertificateDescription>")))
    }

    @Test func refusesUnknownTypesAndResultMajors() {
        Self.expect(.unknownAuthenticationProtocolType, Self.envelope(Self.eac("PINCompareInputType", "")))
        Self.expect(
            .unknownAuthenticationProtocolType,
            Self.envelope(
                "<DIDAuthenticate><AuthenticationProtocolData><Signature>00</Signature></AuthenticationProtocolData></DIDAuthenticate>"
            ))
        Self.expect(
            .unknownResultMajor,
            Self.envelope(
                #"<StartPAOSResponse><Result><ResultMajor>http://www.bsi.bund.de/ecard/api/1.1/resultmajor#nextRequest</ResultMajor></Result></StartPAOSResponse>"#
            ))
    }

    @Test func errorsQuoteNothingButCutNames() {
        let long = String(repeating: "X", count: 200)
        #expect(throws: PAOSError.unknownMessage(String(repeating: "X", count: 64))) {
            try PAOSEnvelope.parse(Self.envelope("<\(long)/>"))
        }
        #expect(PAOSError.invalidHex(message: "Transmit", element: "InputAPDU").result == .error(.internalError))
    }
}
