import Online

/// The transport faults that change how the TcToken is reached or what its addresses are
/// (`redirect`, and the TR-03124-2 cases of `TransportFault`).
extension FrontEndRoutes {
    /// The path no route answers (404 Not Found) that `redirect_404` sends the client to.
    static let missingTcTokenPath = "/tctoken-not-found"

    /// The redirect the tcToken URL answers with instead of a TcToken, if a redirect fault is
    /// named: `redirect` (303), `redirect_302` and `redirect_307` to the same URL without that
    /// fault, `redirect_http` (303) to it as http, `redirect_404` (303) to an address that answers 404.
    func redirectAnswer(_ transport: Set<TransportFault>, names: [String]) -> FrontEndResponse? {
        let status: Int
        let fault: TransportFault
        var base = origin
        if transport.contains(.redirect404) {
            var response = FrontEndResponse.text(303, "see \(origin + Self.missingTcTokenPath)")
            response.headers.append(("Location", origin + Self.missingTcTokenPath))
            return response
        } else if transport.contains(.redirect307) {
            (status, fault) = (307, .redirect307)
        } else if transport.contains(.redirect302) {
            (status, fault) = (302, .redirect302)
        } else if transport.contains(.redirectHTTP) {
            (status, fault) = (303, .redirectHTTP)
            if base.hasPrefix("https://") { base = "http://" + base.dropFirst("https://".count) }
        } else if transport.contains(.redirect) {
            (status, fault) = (303, .redirect)
        } else {
            return nil
        }
        // The names come decoded from the query: percent-encoded again, they cannot end the
        // Location header's line (CR, LF) nor add parameters.
        let rest = names.filter { $0 != fault.rawValue }.map(percentEncoded)
        let target = base + "/tctoken" + (rest.isEmpty ? "" : "?fault=" + rest.joined(separator: ","))
        var response = FrontEndResponse.text(status, "see \(target)")
        response.headers.append(("Location", target))
        return response
    }

    /// `empty_tctoken`: every element empty but the CommunicationErrorAddress (this server's
    /// refresh page for `id`, which never becomes a session); `empty_tctoken_http_error_address`
    /// (`plainErrorAddress`): that address as http.
    func emptyTcToken(id: String, plainErrorAddress: Bool) -> FrontEndResponse {
        var base = origin
        if plainErrorAddress, base.hasPrefix("https://") { base = "http://" + base.dropFirst("https://".count) }
        var token = TcToken(
            serverAddress: "", sessionIdentifier: "", refreshAddress: "",
            communicationErrorAddress: base + "/refresh?session=" + id + "&error=communication", binding: "")
        token.pathSecurityProtocol = ""
        return FrontEndResponse(status: 200, contentType: "text/xml; charset=utf-8", body: token.encoded())
    }

    /// `server_address_404` and `refresh_404_no_error_address`: addresses that answer 404.
    func applyAddressFaults(_ transport: Set<TransportFault>, to token: inout TcToken, id: String) {
        if transport.contains(.serverAddress404) {
            token.serverAddress = origin + "/paos-not-found/" + id
        }
        if transport.contains(.refreshRedirect) {
            token.refreshAddress = otherOrigin + Self.refreshHopPath + "?session=" + id
        }
        if transport.contains(.refreshRedirectHTTP) {
            token.refreshAddress = otherOrigin + Self.refreshHopPath + "?plain=1&session=" + id
        }
        if transport.contains(.refreshTLSNotInDescription) {
            token.refreshAddress = otherOrigin + Self.refreshHopPath + "?session=" + id
        }
        if transport.contains(.refreshNoRedirect) {
            token.refreshAddress = otherOrigin + "/refresh?session=" + id
        }
        if transport.contains(.refresh404NoErrorAddress) {
            token.communicationErrorAddress = nil
            token.refreshAddress = otherOrigin + "/refresh-not-found?session=" + id
        }
    }

    /// This server under its other name: 127.0.0.1 for localhost and the other way round (its
    /// TLS certificate names both), the same port: another origin, the same TLS certificate.
    /// (Another host in `--origin`: that origin, so the fault stages nothing.)
    var otherOrigin: String {
        let scheme = "https://"
        guard origin.hasPrefix(scheme) else { return origin }
        let rest = origin.dropFirst(scheme.count)
        let host = rest.prefix { $0 != ":" && $0 != "/" }
        let other = ["127.0.0.1": "localhost", "localhost": "127.0.0.1"][String(host)]
        return other.map { scheme + $0 + rest.dropFirst(host.count) } ?? origin
    }

    /// The RefreshAddress of `refresh_redirect` and `refresh_redirect_http`.
    static let refreshHopPath = "/refresh-hop"

    /// The refresh hops, each a 303 with the request's parameters: from the other origin to this
    /// origin's hop (`service=1`), and from there to this origin's refresh page; with `plain=1`
    /// straight to the refresh page as http.
    func refreshHop(_ request: FrontEndRequest) -> FrontEndResponse {
        var base = origin
        let plain = request.parameter("plain") != nil
        if plain, base.hasPrefix("https://") { base = "http://" + base.dropFirst("https://".count) }
        let toService = !plain && request.parameter("service") == nil
        var query = request.query.filter { $0.0 != "plain" && $0.0 != "service" }
        if toService { query.insert(("service", "1"), at: 0) }
        let encoded = query.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }
        let target =
            base + (toService ? Self.refreshHopPath : "/refresh")
            + (encoded.isEmpty ? "" : "?" + encoded.joined(separator: "&"))
        var response = FrontEndResponse.text(303, "see \(target)")
        response.headers.append(("Location", target))
        return response
    }
}
