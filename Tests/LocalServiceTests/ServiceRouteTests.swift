import LocalService
import Testing

/// Routing by method, target and Host alone, as AusweisApp's web service routes.
@Suite struct ServiceRouteTests {
    func route(_ target: String, method: String = "GET", host: String? = "127.0.0.1:24727") -> ServiceRoute {
        ServiceRoute(method: method, target: target, host: host, port: 24727)
    }

    @Test func activationTakesTheDecodedTcTokenURLWithAnyCaseOfTheKey() {
        let encoded = "https%3A%2F%2Fservice.example%2Ftctoken%3Fa%3D1%26b%3D2"
        for key in ["tcTokenURL", "TCTOKENURL", "tctokenurl"] {
            #expect(
                route("/eID-Client?\(key)=\(encoded)")
                    == .activation(tcTokenURL: "https://service.example/tctoken?a=1&b=2"))
        }
    }

    @Test func statusIsTextOrJSONAndComesBeforeAnActivation() {
        #expect(route("/eID-Client?Status") == .status(json: false))
        #expect(route("/eID-Client?STATUS") == .status(json: false))
        #expect(route("/eID-Client?Status=json") == .status(json: true))
        #expect(route("/eID-Client?status=JSON") == .status(json: true))
        #expect(route("/eID-Client?Status&tcTokenURL=https%3A%2F%2Fa.example%2F") == .status(json: false))
    }

    @Test func anActivationWithoutOneUsableTcTokenURLIsRefused() {
        #expect(route("/eID-Client") == .refused(.notFound))
        #expect(route("/eID-Client?other=1") == .refused(.notFound))
        #expect(route("/eID-Client?tcTokenURL=") == .refused(.badRequest("The tcTokenURL is empty.")))
        #expect(route("/eID-Client?tcTokenURL") == .refused(.badRequest("The tcTokenURL is empty.")))
        #expect(
            route("/eID-Client?tcTokenURL=https%3A%2F%2Fa.example&TcTokenUrl=https%3A%2F%2Fb.example")
                == .refused(.badRequest("The request has more than one tcTokenURL.")))
    }

    @Test func preflightOtherMethodsAndOtherPaths() {
        #expect(route("/eID-Client", method: "OPTIONS") == .preflight)
        #expect(route("/eID-Client?Status", method: "HEAD") == .preflight)
        #expect(route("/eID-Client?Status", method: "POST") == .refused(.methodNotAllowed))
        #expect(route("/eID-Kernel") == .sdk)
        #expect(route("/") == .refused(.notFound))
        #expect(route("/favicon.ico") == .favicon, "AusweisApp2 1.26.2 serves an icon")
        #expect(route("/favicon.ico", method: "POST") == .refused(.notFound))
        #expect(route("/eID-Client/") == .refused(.notFound))
    }

    @Test func aTargetThatIsNotAPathOrTooLongIsRefused() {
        let bad = ServiceRoute.refused(.badRequest("The request target is not a valid path and query."))
        #expect(route("http://127.0.0.1:24727/eID-Client?Status") == bad)
        #expect(route("//evil.example/eID-Client?Status") == bad)
        let long = "/eID-Client?tcTokenURL=" + String(repeating: "a", count: ServiceRoute.maximumTargetLength)
        #expect(route(long) == .refused(.targetTooLong))
    }

    @Test func theHostMustBeALoopbackNameWithThePort() {
        for host in ["127.0.0.1:24727", "localhost:24727", "LOCALHOST:24727", "[::1]:24727"] {
            #expect(route("/eID-Client?Status", host: host) == .status(json: false), "\(host)")
        }
        for host in [
            nil, "", "127.0.0.1", "localhost", "[::1]", "127.0.0.1:24728", "evil.example:24727",
            "127.0.0.1.evil.example:24727", "localhost:24727.evil.example", "::1:24727", "127.0.0.2:24727",
        ] {
            #expect(route("/eID-Client?Status", host: host) == .refused(.foreignHost), "\(host ?? "none")")
        }
    }

    @Test func everyRefusalHasItsStatus() {
        let statuses: [(ServiceRefusal, Int)] = [
            (.notFound, 404), (.badRequest("x"), 400), (.methodNotAllowed, 405), (.targetTooLong, 414),
            (.foreignHost, 403), (.originPresent, 403), (.sdkClientPresent, 429), (.busy, 409),
        ]
        for (refusal, status) in statuses { #expect(refusal.status == status) }
    }
}
