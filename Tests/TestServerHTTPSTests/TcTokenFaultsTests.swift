import Foundation
import Online
import TestServerHTTPS
import Testing

/// The front end's faults that stage TR-03124-2 test cases of the TcToken fetch and of the
/// refresh address (`TransportFault`), seen by curl: what the client gets at each step. The
/// display names give the case without the `EID_CLIENT_` prefix: these check the server, not a
/// client (`make conformance` counts eid's runs: ConformanceA2Tests).
@Suite(.serialized)
struct TcTokenFaultsTests {
    /// curl's options that put the answer's header before its body (`location`).
    static let written = ["-D", "-"]

    /// The Location header of an answer fetched with `written`.
    static func location(_ answer: String) -> String {
        for line in answer.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("location: ") {
            return String(line.dropFirst("location: ".count))
        }
        return ""
    }

    @Test(
        """
        A2_05 (TR-03124-2): empty_tctoken serves a TcToken that is empty but for its https CommunicationErrorAddress
        """
    )
    func emptyTcToken() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=empty_tctoken")
        #expect(code == 200)
        for name in ["ServerAddress", "SessionIdentifier", "RefreshAddress", "Binding", "PathSecurity-Protocol"] {
            #expect(body.contains("<\(name)/>"), "\(name) is not empty: \(body)")
        }
        #expect(!body.contains("<PSK"))
        #expect(body.contains("<CommunicationErrorAddress>\(server.origin)/refresh?session="))
        #expect(throws: TcTokenError.self) { try TcToken.parse(Array(body.utf8)) }
        let address = TcToken.communicationErrorAddress(ofRefused: Array(body.utf8))
        #expect(address?.hasPrefix(server.origin + "/refresh?session=") == true)
        #expect(address?.hasSuffix("&error=communication") == true)
    }

    @Test("A2_08 (TR-03124-2): redirect_307 answers 307 to the tcToken URL without that fault")
    func redirect307() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=redirect_307,psk", Self.written)
        #expect(code == 307)
        #expect(Self.location(body) == server.origin + "/tctoken?fault=psk")
        // Followed, it is a TcToken.
        let (followed, token) = try server.curl("/tctoken?fault=redirect_307", ["-L"])
        #expect(followed == 200)
        #expect(try TcToken.parse(Array(token.utf8)).serverAddress.hasPrefix(server.origin + "/paos/"))
    }

    @Test("A2_06, A2_10 (TR-03124-2): redirect_302 answers 302, redirect_http 303 to the tcToken URL as http")
    func redirect302AndHTTP() throws {
        let server = try TestServerFixture()
        let (found, foundAnswer) = try server.curl("/tctoken?fault=redirect_302", Self.written)
        #expect(found == 302)
        #expect(Self.location(foundAnswer) == server.origin + "/tctoken")
        let (http, httpAnswer) = try server.curl("/tctoken?fault=psk,redirect_http", Self.written)
        #expect(http == 303)
        #expect(Self.location(httpAnswer) == "http://127.0.0.1:\(server.port)/tctoken?fault=psk")
    }

    @Test("A2_12 (TR-03124-2): blank_tctoken answers 200 with a blank")
    func blankTcToken() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=blank_tctoken")
        #expect(code == 200)
        #expect(body == " ")
    }

    @Test("A2_09 (TR-03124-2): redirect_404 answers 303 to an address that answers 404")
    func redirect404() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=redirect_404", Self.written)
        #expect(code == 303)
        let target = Self.location(body)
        #expect(target.hasPrefix(server.origin + "/"))
        let (followed, _) = try server.curl(String(target.dropFirst(server.origin.count)))
        #expect(followed == 404)
    }

    @Test("A2_15 (TR-03124-2): server_address_404 serves a TcToken whose ServerAddress answers 404")
    func serverAddress404() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=server_address_404")
        #expect(token.serverAddress.hasPrefix(server.origin + "/"))
        #expect(!token.serverAddress.hasPrefix(server.origin + "/paos/"))
        #expect(token.refreshAddress.hasPrefix(server.origin + "/refresh?session="))
        let path = String(token.serverAddress.dropFirst(server.origin.count))
        let (code, _) = try server.curl(path, ["-X", "POST", "-H", #"PAOS: ver="urn:liberty:paos:2006-08""#])
        #expect(code == 404)
    }

    @Test(
        """
        A4_09 (TR-03124-2): refresh_404_no_error_address serves no CommunicationErrorAddress and a RefreshAddress of \
        another origin that answers 404
        """
    )
    func refresh404NoErrorAddress() throws {
        let server = try TestServerFixture()
        let token = try server.tcToken("?fault=refresh_404_no_error_address")
        #expect(token.communicationErrorAddress == nil)
        let other = "https://localhost:\(server.port)"
        #expect(token.refreshAddress.hasPrefix(other + "/"))
        #expect(!WebOrigin.isSameOrigin(token.refreshAddress, server.origin))
        #expect(token.serverAddress.hasPrefix(server.origin + "/paos/"))
        // The same server under its other name: the path answers 404 there as here.
        let (code, _) = try server.curl(String(token.refreshAddress.dropFirst(other.count)))
        #expect(code == 404)
    }

    @Test(
        "A2_27 (TR-03124-2): empty_tctoken_http_error_address serves the empty TcToken with an http CommunicationErrorAddress"
    )
    func emptyTcTokenHTTPErrorAddress() throws {
        let server = try TestServerFixture()
        let (code, body) = try server.curl("/tctoken?fault=empty_tctoken_http_error_address")
        #expect(code == 200)
        #expect(body.contains("<CommunicationErrorAddress>http://127.0.0.1:\(server.port)/refresh?session="))
        #expect(TcToken.communicationErrorAddress(ofRefused: Array(body.utf8)) == nil)
    }

    @Test(
        """
        A4_05, A4_07 (TR-03124-2): refresh_redirect's RefreshAddress redirects to this origin, which redirects to \
        the refresh page; refresh_redirect_http's straight to it as http
        """
    )
    func refreshRedirects() throws {
        let server = try TestServerFixture()
        let other = "https://localhost:\(server.port)"
        let token = try server.tcToken("?fault=refresh_redirect")
        #expect(token.refreshAddress.hasPrefix(other + "/refresh-hop?session="))
        let session = String(token.refreshAddress.split(separator: "=").last ?? "")
        let (first, firstAnswer) = try server.curl(
            String(token.refreshAddress.dropFirst(other.count)) + "&ResultMajor=ok", Self.written)
        #expect(first == 303)
        let hop = Self.location(firstAnswer)
        #expect(hop == server.origin + "/refresh-hop?service=1&session=\(session)&ResultMajor=ok")
        let (second, secondAnswer) = try server.curl(String(hop.dropFirst(server.origin.count)), Self.written)
        #expect(second == 303)
        #expect(Self.location(secondAnswer) == server.origin + "/refresh?session=\(session)&ResultMajor=ok")
        let plain = try server.tcToken("?fault=refresh_redirect_http")
        let (code, answer) = try server.curl(String(plain.refreshAddress.dropFirst(other.count)), Self.written)
        #expect(code == 303)
        #expect(Self.location(answer).hasPrefix("http://127.0.0.1:\(server.port)/refresh?session="))
    }
}
