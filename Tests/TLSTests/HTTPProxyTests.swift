import Testing

@testable import TLS

/// Which proxy the environment names, as libcurl reads it for an https URL, and what eid says about it. The
/// requests through a real proxy (tinyproxy) are EndToEndTests' `ProxyTests`.
@Suite struct HTTPProxyTests {
    static func proxy(_ environment: [String: String]) throws(HTTPError) -> HTTPProxy? {
        try HTTPProxy.fromEnvironment { environment[$0] }
    }

    @Test func noVariableIsNoProxy() throws {
        #expect(try Self.proxy([:]) == nil)
        // eid speaks only https: http_proxy is not for it, and no_proxy alone names no proxy.
        #expect(try Self.proxy(["http_proxy": "http://a:1", "HTTP_PROXY": "http://a:1", "no_proxy": "*"]) == nil)
    }

    @Test func theVariablesInCurlsOrderTheFirstNotEmpty() throws {
        let all = [
            "https_proxy": "http://one:1", "HTTPS_PROXY": "http://two:2", "all_proxy": "http://three:3",
            "ALL_PROXY": "http://four:4",
        ]
        var environment = all
        for (variable, address) in [
            ("https_proxy", "one:1"), ("HTTPS_PROXY", "two:2"), ("all_proxy", "three:3"), ("ALL_PROXY", "four:4"),
        ] {
            let proxy = try #require(try Self.proxy(environment))
            #expect(proxy.variable == variable)
            #expect(proxy.address == address)
            environment[variable] = ""  // set but empty: as unset
        }
        #expect(try Self.proxy(environment) == nil)
    }

    @Test func noProxyThenNOPROXY() throws {
        let url = ["https_proxy": "http://proxy:3128"]
        #expect(try Self.proxy(url)?.noProxy == nil)
        #expect(try Self.proxy(url.merging(["NO_PROXY": "b"]) { $1 })?.noProxy == "b")
        #expect(try Self.proxy(url.merging(["no_proxy": "a", "NO_PROXY": "b"]) { $1 })?.noProxy == "a")
        #expect(try Self.proxy(url.merging(["no_proxy": "", "NO_PROXY": "b"]) { $1 })?.noProxy == "b")
    }

    @Test func theAddressHasNoCredentialsAndCurlsDefaults() throws {
        #expect(try HTTPProxy(url: "http://user:pw@proxy.example:3128").address == "proxy.example:3128")
        #expect(try HTTPProxy(url: "proxy.example:8080").address == "proxy.example:8080")
        #expect(try HTTPProxy(url: "HTTP://proxy.example").address == "proxy.example:1080")
        #expect(try HTTPProxy(url: "http://[::1]:3128/").address == "[::1]:3128")
    }

    @Test(arguments: ["https", "socks5", "socks4a"])
    func onlyHTTPProxies(scheme: String) throws {
        #expect(throws: HTTPError.unsupportedProxy(variable: "ALL_PROXY", scheme: scheme)) {
            try Self.proxy(["ALL_PROXY": "\(scheme)://user:secret-word@proxy:1"])
        }
    }

    @Test func anUnusableValueIsNamedByItsVariableNotRepeated() throws {
        for value in ["http://", "http://user:secret-word@", "http://exa mple:80"] {
            do {
                _ = try Self.proxy(["HTTPS_PROXY": value])
                Issue.record("\(value) was taken")
            } catch {
                #expect(error == .invalidProxy(variable: "HTTPS_PROXY"))
                #expect(!error.description.contains("secret-word"))
            }
        }
    }

    /// What eid says about a proxy names its address, never its password.
    @Test func errorsNameTheProxyNotItsCredentials() throws {
        let proxy = try HTTPProxy(url: "http://eid:secret-word@127.0.0.1:3128")
        let errors: [HTTPError] = [
            .proxyNotFound(proxy: proxy.address), .proxyRefused(proxy: proxy.address, host: "a.example", status: 407),
            .proxyConnectionFailed(proxy: proxy.address, detail: "Failed to connect to 127.0.0.1 port 3128"),
        ]
        for error in errors {
            #expect(error.description.contains("127.0.0.1:3128"))
            #expect(!error.description.contains("secret-word"))
        }
        #expect(HTTPError.proxyRefused(proxy: "p:1", host: "h", status: 407).description.contains("credentials"))
        #expect(HTTPError.proxyRefused(proxy: "p:1", host: "h", status: 403).description.contains("no_proxy"))
    }

    /// A libcurl message that repeats the credentials (as written in the URL, percent-encoded) loses them.
    @Test(arguments: [
        ("http://eid:secret-word@127.0.0.1:3128", "eid:secret-word"),
        ("http://e%40d:s%3Acret-word@127.0.0.1:3128", "e%40d:s%3Acret-word"),
        ("eid:secret-word@proxy.example", "eid:secret-word"),
    ])
    func libcurlsMessagesLoseTheCredentials(url: String, userInfo: String) throws {
        let proxy = try HTTPProxy(url: url)
        let password = String(userInfo.split(separator: ":")[1])
        let scrubbed = proxy.scrubbed("CONNECT via \(userInfo)@proxy; then \(password) alone")
        #expect(!scrubbed.contains(password), "\(scrubbed)")
        #expect(scrubbed.contains("CONNECT via ***@proxy"), "\(scrubbed)")
        #expect(try HTTPProxy(url: "http://127.0.0.1:3128").scrubbed("as \(userInfo)") == "as \(userInfo)")
    }

    /// Printed, dumped or inside a printed configuration, a proxy shows no credentials.
    @Test func printingAProxyShowsNoCredentials() throws {
        let proxy = try HTTPProxy(url: "http://eid:secret-word@127.0.0.1:3128", noProxy: "localhost")
        var dumped = ""
        dump(HTTPConfiguration(proxy: proxy), to: &dumped)
        for text in [
            "\(proxy)", String(describing: HTTPConfiguration(proxy: proxy)), String(reflecting: proxy), dumped,
        ] {
            #expect(text.contains("127.0.0.1:3128"), "\(text)")
            #expect(!text.contains("secret-word"), "\(text)")
        }
    }

    /// A proxy nobody listens on: the request fails at once, naming the proxy (libcurl's message says the port).
    @Test func aProxyThatIsDownIsNamed() throws {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        let proxy = try HTTPProxy(url: "http://eid:secret-word@127.0.0.1:\(port)")
        let session = HTTPSession(configuration: HTTPConfiguration(connectTimeout: .seconds(30), proxy: proxy))
        do {
            _ = try session.fetch("https://127.0.0.1:1/")
            Issue.record("the fetch succeeded")
        } catch {
            guard case .proxyConnectionFailed(let address, let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(address == "127.0.0.1:\(port)")
            #expect(detail.contains("port \(port)"))
            #expect(!error.description.contains("secret-word"))
        }
    }
}
