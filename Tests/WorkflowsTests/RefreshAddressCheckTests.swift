import EIDCrypto
import Online
import Testing

@testable import Workflows

/// A scripted web: each address answers with a visit or fails; every request is recorded.
final class ScriptedRefreshClient: RefreshAddressClient {
    var answers: [String: Result<RefreshAddressVisit, PAOSTransportError>]
    private(set) var requests: [(url: String, headOnly: Bool)] = []

    init(_ answers: [String: Result<RefreshAddressVisit, PAOSTransportError>]) { self.answers = answers }

    func visit(_ url: String, headOnly: Bool) throws(PAOSTransportError) -> RefreshAddressVisit {
        requests.append((url, headOnly))
        guard let answer = answers[url] else { throw .hostNotFound(host: url) }
        return try answer.get()
    }
}

/// StateCheckRefreshAddress (docs/protocol.md, "Refresh address check"), one rule per test.
@Suite struct RefreshAddressCheckTests {
    static let listed: [UInt8] = Array("the service's TLS certificate".utf8)
    static let other: [UInt8] = Array("someone else's TLS certificate".utf8)

    func check() throws -> RefreshAddressCheck {
        RefreshAddressCheck(
            subjectURL: "https://service.example", commCertificates: ([try Digest.sha256.hash(Self.listed)], .sha256))
    }

    static func redirect(_ status: Int, to location: String?, certificate: [UInt8] = listed)
        -> Result<RefreshAddressVisit, PAOSTransportError>
    {
        .success(RefreshAddressVisit(status: status, location: location, serverCertificate: certificate))
    }

    @Test func theServicesOriginIsOnlyAHandshake() throws {
        let client = ScriptedRefreshClient(["https://service.example/done": Self.redirect(200, to: nil)])
        #expect(try check().resolve("https://service.example/done", client: client) == "https://service.example/done")
        #expect(client.requests.map(\.url) == ["https://service.example/done"])
        #expect(client.requests.map(\.headOnly) == [true])
    }

    /// As the testbed's A4_05 and AusweisApp's StateCheckRefreshAddress have it: the service's
    /// origin, reached by a redirect, is asked too, and its redirect names the refresh URL.
    @Test("EID_CLIENT_A4_05: redirects are followed to the service's origin, whose redirect is the refresh URL")
    func redirectsAreFollowedToTheServicesOrigin() throws {
        let client = ScriptedRefreshClient([
            "https://shop.example/back": Self.redirect(303, to: "https://pay.example/next"),
            "https://pay.example/next": Self.redirect(302, to: "https://service.example/done?x=1"),
            "https://service.example/done?x=1": Self.redirect(307, to: "https://service.example/home"),
            "https://service.example/home": Self.redirect(200, to: nil),
        ])
        #expect(try check().resolve("https://shop.example/back", client: client) == "https://service.example/home")
        #expect(client.requests.map(\.headOnly) == [false, false, false, true])
        // The service's origin reached by a redirect must redirect in turn.
        let page = ScriptedRefreshClient([
            "https://shop.example/back": Self.redirect(303, to: "https://service.example/done"),
            "https://service.example/done": Self.redirect(200, to: nil),
        ])
        #expect(throws: RefreshAddressError.unexpectedStatus(200)) {
            try check().resolve("https://shop.example/back", client: page)
        }
    }

    @Test("EID_CLIENT_A4_08: every hop's certificate must be in the description")
    func everyHopsCertificateMustBeInTheDescription() throws {
        let client = ScriptedRefreshClient([
            "https://shop.example/back": Self.redirect(307, to: "https://service.example/done", certificate: Self.other)
        ])
        #expect(throws: RefreshAddressError.certificateNotInDescription) {
            try check().resolve("https://shop.example/back", client: client)
        }
        let origin = ScriptedRefreshClient([
            "https://service.example/done": Self.redirect(200, to: nil, certificate: Self.other)
        ])
        #expect(throws: RefreshAddressError.certificateNotInDescription) {
            try check().resolve("https://service.example/done", client: origin)
        }
        // After EAC1 the client's connections are bound to CommCertificates: the handshake refuses it.
        let bound = ScriptedRefreshClient(["https://service.example/done": .failure(.certificateNotInDescription)])
        #expect(throws: RefreshAddressError.certificateNotInDescription) {
            try check().resolve("https://service.example/done", client: bound)
        }
    }

    /// A certificate description that lists no CommCertificates trusts no server certificate: the
    /// refresh address is not used, whatever its host shows. Only a missing description (A4_03,
    /// below) leaves the hops unchecked; an empty list is not the same as none.
    @Test func aDescriptionThatListsNoCertificateAcceptsNoHop() throws {
        let check = RefreshAddressCheck(subjectURL: "https://service.example", commCertificates: ([], .sha256))
        let origin = ScriptedRefreshClient(["https://service.example/done": Self.redirect(200, to: nil)])
        #expect(throws: RefreshAddressError.certificateNotInDescription) {
            try check.resolve("https://service.example/done", client: origin)
        }
        let elsewhere = ScriptedRefreshClient([
            "https://shop.example/back": Self.redirect(303, to: "https://service.example/done", certificate: Self.other)
        ])
        #expect(throws: RefreshAddressError.certificateNotInDescription) {
            try check.resolve("https://shop.example/back", client: elsewhere)
        }
        #expect(elsewhere.requests.map(\.url) == ["https://shop.example/back"], "no hop after a refused one")
    }

    @Test("EID_CLIENT_A4_06, EID_CLIENT_A4_07: only https addresses and redirect statuses")
    func onlyHTTPSAddressesAndRedirectStatuses() throws {
        #expect(throws: RefreshAddressError.notHTTPS) {
            try check().resolve("http://service.example/done", client: ScriptedRefreshClient([:]))
        }
        let downgrade = ScriptedRefreshClient([
            "https://shop.example/b": Self.redirect(302, to: "http://service.example/")
        ])
        #expect(throws: RefreshAddressError.notHTTPS) {
            try check().resolve("https://shop.example/b", client: downgrade)
        }
        let page = ScriptedRefreshClient(["https://shop.example/b": Self.redirect(200, to: nil)])
        #expect(throws: RefreshAddressError.unexpectedStatus(200)) {
            try check().resolve("https://shop.example/b", client: page)
        }
        let permanent = ScriptedRefreshClient([
            "https://shop.example/b": Self.redirect(301, to: "https://service.example/")
        ])
        #expect(throws: RefreshAddressError.unexpectedStatus(301)) {
            try check().resolve("https://shop.example/b", client: permanent)
        }
        let bare = ScriptedRefreshClient(["https://shop.example/b": Self.redirect(302, to: nil)])
        #expect(throws: RefreshAddressError.missingLocation) {
            try check().resolve("https://shop.example/b", client: bare)
        }
    }

    /// AusweisApp's FailureCode reasons (StateCheckRefreshAddress): a redirect to http is
    /// No_Https_Scheme, one without a Location Empty, any other answer Invalid_Http_Response.
    @Test func reasonsAreAusweisAppsReasons() {
        #expect(RefreshAddressError.notHTTPS.name == "Check_Refresh_Address_No_Https_Scheme")
        #expect(RefreshAddressError.missingLocation.name == "Check_Refresh_Address_Empty")
        #expect(RefreshAddressError.unexpectedStatus(200).name == "Check_Refresh_Address_Invalid_Http_Response")
    }

    @Test func loopsAndUnreachableHopsEnd() throws {
        let loop = ScriptedRefreshClient([
            "https://a.example/": Self.redirect(302, to: "https://b.example/"),
            "https://b.example/": Self.redirect(302, to: "https://a.example/"),
        ])
        #expect(throws: RefreshAddressError.tooManyRedirects(limit: 10)) {
            try check().resolve("https://a.example/", client: loop)
        }
        #expect(loop.requests.count == 11)
        let gone = ScriptedRefreshClient(["https://a.example/": .failure(.connectionFailed)])
        #expect(throws: RefreshAddressError.hopFailed(.connectionFailed)) {
            try check().resolve("https://a.example/", client: gone)
        }
    }

    @Test("EID_CLIENT_A4_03: without a description the tcTokenURL is the origin and no hash is checked")
    func withoutADescriptionTheTcTokenURLIsTheOriginAndNoHashIsChecked() throws {
        let check = RefreshAddressCheck(subjectURL: "https://service.example/tctoken", commCertificates: nil)
        let client = ScriptedRefreshClient([
            "https://service.example/done": Self.redirect(200, to: nil, certificate: Self.other)
        ])
        #expect(try check.resolve("https://service.example/done", client: client) == "https://service.example/done")
    }
}
