import Testing

@testable import Online

@Suite struct ActivationURLTests {
    static let target = "https://service.example:8443/tctoken?id=1&lang=de"
    static let encoded = "https%3A%2F%2Fservice.example%3A8443%2Ftctoken%3Fid%3D1%26lang%3Dde"

    @Test(arguments: [
        "http://127.0.0.1:24727/eID-Client?tcTokenURL=\(encoded)",
        "http://localhost:24727/eID-Client?tcTokenURL=\(encoded)",
        "http://[::1]:24727/eID-Client?tcTokenURL=\(encoded)",
        "eid://127.0.0.1:24727/eID-Client?tcTokenURL=\(encoded)",
        "eid://?tcTokenURL=\(encoded)",
        target,
    ])
    func takesTheTcTokenURL(argument: String) throws {
        #expect(try ActivationURL.tcTokenURL(from: argument) == Self.target)
    }

    /// An SDK's RUN_AUTH: its tcTokenURL, percent-encoded whole into a local activation URL,
    /// comes back out unchanged, and goes through the same checks.
    @Test func runAuthTcTokenURLsGoThroughALocalActivationURL() throws {
        for url in ["https://a.example/t?x=1&y=%20z#f", "https://127.0.0.1:8443/tctoken?fault=psk"] {
            let activation = ActivationURL.localActivationURL(tcTokenURL: url)
            #expect(activation.hasPrefix("http://127.0.0.1:24727/eID-Client?tcTokenURL=https%3A%2F%2F"))
            #expect(try ActivationURL.tcTokenURL(from: activation) == url)
        }
        #expect(throws: ActivationURLError.tcTokenURLNotHTTPS) {
            try ActivationURL.tcTokenURL(from: ActivationURL.localActivationURL(tcTokenURL: "http://a.example/t"))
        }
        #expect(ActivationURL.isUsableSDKTcTokenURL("http://127.0.0.1:9/tc"))
        #expect(!ActivationURL.isUsableSDKTcTokenURL("notaurl"))
        #expect(!ActivationURL.isUsableSDKTcTokenURL(""))
    }

    @Test func refusesWhatIsNoActivationURL() {
        #expect(throws: ActivationURLError.notAnActivationURL) {
            try ActivationURL.tcTokenURL(from: "http://service.example/tctoken")
        }
        #expect(throws: ActivationURLError.notAnActivationURL) {
            try ActivationURL.tcTokenURL(from: "http://127.0.0.1:8080/eID-Client?tcTokenURL=\(Self.encoded)")
        }
        #expect(throws: ActivationURLError.missingTcTokenURL) {
            try ActivationURL.tcTokenURL(from: "http://127.0.0.1:24727/eID-Client?other=1")
        }
        #expect(throws: ActivationURLError.missingTcTokenURL) {
            try ActivationURL.tcTokenURL(from: "eid://x?tcTokenURL=")
        }
        #expect(throws: ActivationURLError.duplicateTcTokenURL) {
            try ActivationURL.tcTokenURL(from: "eid://x?tcTokenURL=\(Self.encoded)&tcTokenURL=\(Self.encoded)")
        }
        #expect(throws: ActivationURLError.tcTokenURLNotHTTPS) {
            try ActivationURL.tcTokenURL(from: "eid://x?tcTokenURL=http%3A%2F%2Fservice.example%2Ft")
        }
        #expect(throws: ActivationURLError.invalidTcTokenURL) {
            try ActivationURL.tcTokenURL(from: "eid://x?tcTokenURL=abc")
        }
        #expect(ActivationURLError.tcTokenURLNotHTTPS.result == .error(.trustedChannelEstablishmentFailed))
        #expect(ActivationURLError.missingTcTokenURL.result == .error(.communicationError))
    }
}

@Suite struct WebOriginTests {
    @Test("EID_CLIENT_A4_04: the origin fills in the default port and ignores path and case")
    func fillsInTheDefaultPortAndIgnoresPathAndCase() {
        #expect(WebOrigin.isSameOrigin("https://h.example", "https://H.example:443/x?y#z"))
        #expect(WebOrigin(url: "http://h.example/")?.port == 80)
    }

    @Test func differsInSchemeHostOrPort() {
        #expect(!WebOrigin.isSameOrigin("https://h.example", "http://h.example"))
        #expect(!WebOrigin.isSameOrigin("https://h.example", "https://g.example"))
        #expect(!WebOrigin.isSameOrigin("https://h.example", "https://h.example:8443"))
        #expect(!WebOrigin.isSameOrigin("https://h.example.evil", "https://h.example"))
    }

    @Test func hasNoOriginWithoutHostOrForOtherSchemes() {
        #expect(WebOrigin(url: "https:///x") == nil)
        #expect(WebOrigin(url: "ftp://h.example/") == nil)
        #expect(WebOrigin(url: "https://user:pw@h.example/") == nil)
        #expect(!WebOrigin.isSameOrigin("garbage", "garbage"))
    }
}

@Suite struct RefreshResultTests {
    @Test func appendsAfterExistingParametersAndBeforeAFragment() {
        #expect(RefreshResult.ok.appended(to: "https://s.example/done") == "https://s.example/done?ResultMajor=ok")
        #expect(
            RefreshResult.ok.appended(to: "https://s.example/done?ref=1#top")
                == "https://s.example/done?ref=1&ResultMajor=ok#top")
        #expect(
            RefreshResult.error(.cancellationByUser).appended(to: "https://s.example/done?")
                == "https://s.example/done?ResultMajor=error&ResultMinor=cancellationByUser")
        #expect(
            RefreshResult.error(.serverError, message: "a b&c=ü").query
                == "ResultMajor=error&ResultMinor=serverError&ResultMessage=a%20b%26c%3D%C3%BC")
    }

    @Test func mapsResultsToTheFiveShortMinors() {
        #expect(RefreshResult(.ok, fromServer: false) == .ok)
        #expect(RefreshResult(.error(.cancellationByUser), fromServer: false) == .error(.cancellationByUser))
        #expect(
            RefreshResult(.error(.trustedChannelEstablishmentFailed), fromServer: false)
                == .error(.trustedChannelEstablishmentFailed))
        #expect(RefreshResult(.error(.communicationError), fromServer: false) == .error(.communicationError))
        #expect(RefreshResult(.error(.noPermission), fromServer: false) == .error(.clientError))
        #expect(RefreshResult(.error(.timeout), fromServer: true) == .error(.serverError))
        #expect(RefreshResult.Minor.allCases.count == 5)
    }
}
