import SmartCard
import Testing

@testable import Online

@Suite struct TcTokenTests {
    static func token(_ elements: String) -> [UInt8] { Array("<TCTokenType>\(elements)</TCTokenType>".utf8) }

    static let valid = """
        <ServerAddress>https://eid.example/paos</ServerAddress>\
        <SessionIdentifier>s-1</SessionIdentifier>\
        <RefreshAddress>https://service.example/done</RefreshAddress>\
        <Binding>urn:liberty:paos:2006-08</Binding>
        """

    static func without(_ name: String) -> String {
        valid.replacingOccurrences(of: "<\(name)>", with: "<Removed>").replacingOccurrences(
            of: "</\(name)>", with: "</Removed>")
    }

    @Test func readsTheGovernikusVariant() throws {
        let token = try TcToken.parse(try OnlineFixture.bytes("TcToken_governikus"))
        #expect(token.serverAddress == "https://eid-server.example:443/paos?session=913399a9")
        #expect(token.sessionIdentifier == "4e6a761c-1224-46ed-9798-ac1972faf909")
        #expect(token.refreshAddress == "https://service.example/done?ref=913399a9")
        #expect(token.usableCommunicationErrorAddress == "https://service.example/err")
        #expect(token.binding == TcToken.paosBinding, "surrounding white space trimmed")
        #expect(token.pathSecurityProtocol == TcToken.tlsPSKProtocol)
        let psk = try #require(token.psk, "PSK found under PathSecurity-Parameter (singular)")
        #expect(psk.count == 64, "as in the LOG")
        #expect(psk.withBytes { $0.prefix(2) == [0xBB, 0xA6] })
    }

    @Test func readsAnAttachedTokenAndIgnoresUnknownElements() throws {
        let token = try TcToken.parse(try OnlineFixture.bytes("TcToken_attached"))
        #expect(token.psk == nil && token.pathSecurityProtocol == nil && token.communicationErrorAddress == nil)
        try token.checkAttachedServer(tcTokenURL: "https://service.example:443/tctoken?x=1")
        #expect(throws: TcTokenError.attachedServerNotSameOrigin) {
            try token.checkAttachedServer(tcTokenURL: "https://other.example/tctoken")
        }
    }

    @Test func roundTripsThroughItsEncoding() throws {
        var key: [UInt8] = Array(0..<32)
        let token = TcToken(
            serverAddress: "https://127.0.0.1:18443/paos/ab&cd", sessionIdentifier: "ab cd",
            refreshAddress: "https://127.0.0.1:18443/refresh?s=1&t=2",
            communicationErrorAddress: "https://127.0.0.1:18443/error", psk: Secret(consuming: &key))
        let back = try TcToken.parse(token.encoded())
        #expect(back.serverAddress == token.serverAddress && back.sessionIdentifier == token.sessionIdentifier)
        #expect(back.refreshAddress == token.refreshAddress)
        #expect(back.communicationErrorAddress == token.communicationErrorAddress)
        #expect(back.pathSecurityProtocol == TcToken.tlsPSKProtocol)
        #expect(back.psk?.copyBytes() == Array(0..<32))
        let attached = TcToken(
            serverAddress: "https://a.example/p", sessionIdentifier: "x", refreshAddress: "https://a.example/r")
        let back2 = try TcToken.parse(attached.encoded())
        #expect(back2.psk == nil && back2.pathSecurityProtocol == nil)
    }

    // docs/protocol.md, "TcToken validation", one test per rule.

    @Test func rule1RefusesMalformedXML() {
        #expect(throws: TcTokenError.malformedXML(.notWellFormed(line: 1))) {
            try TcToken.parse(Array("<TCTokenType><ServerAddress>".utf8))
        }
        #expect(throws: TcTokenError.wrongRootElement) { try TcToken.parse(Array("<html><body/></html>".utf8)) }
        #expect(throws: TcTokenError.malformedXML(.documentTypeDeclared)) {
            try TcToken.parse(try OnlineFixture.bytes("attack_externalDTD"))
        }
        #expect(throws: TcTokenError.malformedXML(.documentTypeDeclared)) {
            try TcToken.parse(try OnlineFixture.bytes("attack_billionLaughs"))
        }
        let long = Self.token(
            Self.valid + "<Padding>" + String(repeating: "x", count: TcToken.maximumSize) + "</Padding>")
        #expect(throws: TcTokenError.malformedXML(.tooLarge(limit: TcToken.maximumSize))) { try TcToken.parse(long) }
    }

    @Test(
        "EID_CLIENT_A2_13: rule 2 refuses a missing or empty mandatory element",
        arguments: ["ServerAddress", "SessionIdentifier", "RefreshAddress", "Binding"])
    func rule2RefusesAMissingOrEmptyMandatoryElement(name: String) {
        #expect(throws: TcTokenError.missingElement(name)) { try TcToken.parse(Self.token(Self.without(name))) }
        let emptied = Self.without(name) + "<\(name)>  </\(name)>"
        #expect(throws: TcTokenError.emptyElement(name)) { try TcToken.parse(Self.token(emptied)) }
    }

    @Test func rule2RefusesADuplicatedElement() {
        let twice = Self.valid + "<ServerAddress>https://evil.example/paos</ServerAddress>"
        #expect(throws: TcTokenError.duplicateElement("ServerAddress")) { try TcToken.parse(Self.token(twice)) }
    }

    @Test func rule3RefusesAnotherBinding() {
        let http = Self.without("Binding") + "<Binding>urn:ietf:rfc:2616</Binding>"
        #expect(throws: TcTokenError.unsupportedBinding) { try TcToken.parse(Self.token(http)) }
    }

    @Test func rule4RefusesAnotherPathSecurityProtocol() {
        let tls = Self.valid + "<PathSecurity-Protocol>urn:ietf:rfc:5246</PathSecurity-Protocol>"
        #expect(throws: TcTokenError.unsupportedPathSecurityProtocol) { try TcToken.parse(Self.token(tls)) }
    }

    @Test("EID_CLIENT_A2_14: rule 5 refuses addresses that are not https")
    func rule5RefusesAddressesThatAreNotHTTPS() {
        let httpServer = Self.without("ServerAddress") + "<ServerAddress>http://eid.example/paos</ServerAddress>"
        #expect(throws: TcTokenError.notHTTPS("ServerAddress")) { try TcToken.parse(Self.token(httpServer)) }
        let httpRefresh = Self.without("RefreshAddress") + "<RefreshAddress>http://s.example/r</RefreshAddress>"
        #expect(throws: TcTokenError.notHTTPS("RefreshAddress")) { try TcToken.parse(Self.token(httpRefresh)) }
        let notURL = Self.without("ServerAddress") + "<ServerAddress>paos</ServerAddress>"
        #expect(throws: TcTokenError.invalidURL("ServerAddress")) { try TcToken.parse(Self.token(notURL)) }
        let badError = Self.valid + "<CommunicationErrorAddress>::</CommunicationErrorAddress>"
        #expect(throws: TcTokenError.invalidURL("CommunicationErrorAddress")) {
            try TcToken.parse(Self.token(badError))
        }
    }

    /// A token refused for another rule still tells where the browser goes: its https
    /// CommunicationErrorAddress (AusweisApp sends it there with communicationError); an http
    /// one, two of them, or broken XML tell nothing.
    @Test func aRefusedTokenStillGivesItsHTTPSCommunicationErrorAddress() {
        let httpRefresh = Self.valid.replacingOccurrences(
            of: "https://service.example/done", with: "http://service.example/done")
        let refused = Self.token(
            httpRefresh + "<CommunicationErrorAddress>https://service.example/err</CommunicationErrorAddress>")
        #expect(throws: TcTokenError.notHTTPS("RefreshAddress")) { try TcToken.parse(refused) }
        #expect(TcToken.communicationErrorAddress(ofRefused: refused) == "https://service.example/err")
        let http = Self.token(
            httpRefresh + "<CommunicationErrorAddress>http://service.example/err</CommunicationErrorAddress>")
        #expect(TcToken.communicationErrorAddress(ofRefused: http) == nil)
        let twice = Self.token(
            httpRefresh + "<CommunicationErrorAddress>https://a.example/</CommunicationErrorAddress>"
                + "<CommunicationErrorAddress>https://b.example/</CommunicationErrorAddress>")
        #expect(TcToken.communicationErrorAddress(ofRefused: twice) == nil)
        #expect(TcToken.communicationErrorAddress(ofRefused: Array("TcToken".utf8)) == nil)
    }

    @Test("EID_CLIENT_A2_27: rule 5 keeps an http CommunicationErrorAddress but does not use it")
    func rule5KeepsAnHTTPErrorAddressButDoesNotUseIt() throws {
        let httpError = Self.valid + "<CommunicationErrorAddress>http://s.example/e</CommunicationErrorAddress>"
        let token = try TcToken.parse(Self.token(httpError))
        #expect(token.communicationErrorAddress == "http://s.example/e")
        #expect(token.usableCommunicationErrorAddress == nil)
    }

    @Test(
        "EID_CLIENT_A2_20, EID_CLIENT_A2_21: rule 6 refuses a PSK that is not even-length hex",
        arguments: ["ABC", "zz", "", "AB CD", String(repeating: "00", count: 257)])
    func rule6RefusesAPSKThatIsNotEvenLengthHex(psk: String) {
        let text =
            Self.valid + "<PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>"
            + "<PathSecurity-Parameters><PSK>\(psk)</PSK></PathSecurity-Parameters>"
        #expect(throws: TcTokenError.invalidPSK) { try TcToken.parse(Self.token(text)) }
    }

    @Test func rule6ErrorsNeverShowThePSK() {
        let text = Self.valid + "<PathSecurity-Parameters><PSK>0123456789ABCDEFX</PSK></PathSecurity-Parameters>"
        do {
            _ = try TcToken.parse(Self.token(text))
            Issue.record("parsed")
        } catch {
            #expect(!"\(error)".contains("0123456789"))
        }
    }

    /// TR-03124-2 EID_CLIENT_A2_19 (a parser unit test; `AuthFaultsTests` runs `eid auth` with
    /// such a token): PathSecurity-Protocol TLS-PSK with empty or no PathSecurity-Parameters is the
    /// attached eID server, as AusweisApp's `parseNoPskButPathSecurityProtocol` and
    /// `parseNoPathSecurityParametersButPathSecurityProtocol` have it.
    @Test(
        "EID_CLIENT_A2_19: a PSK protocol without a PSK is the attached model",
        arguments: [
            "<PathSecurity-Parameters></PathSecurity-Parameters>",
            "<PathSecurity-Parameters>\n  </PathSecurity-Parameters>",
            "<PathSecurity-Parameters/>", "",
        ])
    func rule7APSKProtocolWithoutAPSKIsTheAttachedModel(parameters: String) throws {
        let text = Self.valid + "<PathSecurity-Protocol> urn:ietf:rfc:4279 </PathSecurity-Protocol>" + parameters
        let token = try TcToken.parse(Self.token(text))
        #expect(token.psk == nil)
        #expect(token.pathSecurityProtocol == TcToken.tlsPSKProtocol)
        // Attached: the PAOS channel resumes TLS-1, so the same-origin rule holds.
        try token.checkAttachedServer(tcTokenURL: "https://eid.example/tctoken")
        #expect(throws: TcTokenError.attachedServerNotSameOrigin) {
            try token.checkAttachedServer(tcTokenURL: "https://service.example/tctoken")
        }
        // Encoded (as eid-testserver's psk_protocol_no_parameters serves it) with empty parameters.
        let encoded = String(decoding: token.encoded(), as: UTF8.self)
        #expect(encoded.contains("<PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>"))
        #expect(encoded.contains("<PathSecurity-Parameters/>") || encoded.contains("<PathSecurity-Parameters></"))
        #expect(!encoded.contains("<PSK"))
        let back = try TcToken.parse(token.encoded())
        #expect(back.psk == nil && back.pathSecurityProtocol == TcToken.tlsPSKProtocol)
    }

    @Test func rule7WithAPSKTheServerMayBeElsewhere() throws {
        let text = Self.valid + "<PathSecurity-Parameters><PSK>00112233</PSK></PathSecurity-Parameters>"
        let token = try TcToken.parse(Self.token(text))
        try token.checkAttachedServer(tcTokenURL: "https://service.example/tctoken")
    }

    @Test func rule8EveryTokenErrorIsATrustedChannelFailure() {
        #expect(TcTokenError.invalidPSK.result == .error(.trustedChannelEstablishmentFailed))
    }

    @Test func refusesASessionIdentifierThatCannotBeAPSKIdentity() {
        let long =
            Self.without("SessionIdentifier")
            + "<SessionIdentifier>\(String(repeating: "s", count: 257))</SessionIdentifier>"
        #expect(throws: TcTokenError.invalidSessionIdentifier) { try TcToken.parse(Self.token(long)) }
        let control = Self.without("SessionIdentifier") + "<SessionIdentifier>a&#1;b</SessionIdentifier>"
        #expect(throws: (any Error).self) { try TcToken.parse(Self.token(control)) }
    }
}
