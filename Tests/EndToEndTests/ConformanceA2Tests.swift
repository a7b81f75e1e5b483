import Foundation
import Testing

/// TR-03124-2 test cases of the TcToken fetch (module A2) and of the end of an authentication
/// without a refresh URL (A4_09, D_14) that had no test (issue 18): each an `eid auth --json
/// --open` run against the shared eid-testserver with the front-end fault that stages it, checked
/// as `AuthFaultsTests` checks its faults (the AUTH result, its url, the address handed to
/// xdg-open, the exit status, the server's /result). What AusweisApp2 1.26.2 gives for the same
/// faults: ausweisapp2_auth_peer_tests.py (and man/eid-testserver.1).
extension ThroughPCSCD {
    @Suite(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path),
            "needs the built eid-testserver binary: run `make test`"),
        .sharedTestServer)
    struct ConformanceA2Tests {
        typealias Faults = AuthFaultsTests
        typealias Expected = AuthFaultsTests.Expected

        static func run(_ fault: String, _ expected: Expected, withCard: Bool) throws {
            let server = try Faults.server
            try Faults.run(
                [
                    Faults.Case(
                        name: fault, query: "?fault=" + fault, commands: [Faults.accept, Faults.pin], expected: expected
                    )
                ],
                server: server, withCard: withCard)
        }

        /// An eService that failed to make a TcToken sends one whose elements are empty but for
        /// its CommunicationErrorAddress: the token is refused before the card, and the browser
        /// goes to that address with communicationError (eid serve's 303: serve_peer_tests.py).
        @Test("EID_CLIENT_A2_05: a TcToken empty but for its CommunicationErrorAddress ends there")
        func anEmptyTcTokenEndsAtItsCommunicationErrorAddress() throws {
            try Self.run(
                "empty_tctoken",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Server_Format_Error",
                    status: 6, messages: Faults.beforeTheCard, urlPath: "/refresh+error", urlResult: nil, serverOK: nil),
                withCard: false)
        }

        /// 302 Found on the way to the TcToken is followed.
        @Test("EID_CLIENT_A2_06: a 302 redirect to the TcToken is followed and the authentication succeeds")
        func a302RedirectToTheTcTokenIsFollowed() throws {
            try Faults.run(
                [Faults.success("redirect_302", "?fault=redirect_302")], server: try Faults.server, withCard: true)
        }

        /// A redirect to http on the way to the TcToken is not followed: no TcToken, no address.
        @Test("EID_CLIENT_A2_10: a redirect to http on the way to the TcToken is refused")
        func aRedirectToHTTPIsRefused() throws {
            try Self.run(
                "redirect_http",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Establishment_Error",
                    status: 7, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil,
                    stderrContains: ["is not an https address; only https is allowed"]),
                withCard: false)
        }

        /// A blank instead of the TcToken: no TcToken, no address; nothing asked, nothing opened.
        @Test("EID_CLIENT_A2_12: a blank instead of the TcToken ends the fetch without a TcToken")
        func aBlankInsteadOfTheTcTokenEndsTheFetch() throws {
            try Self.run(
                "blank_tctoken",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Server_Format_Error",
                    status: 6, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                withCard: false)
        }

        /// A TcToken empty but for an http CommunicationErrorAddress: refused before the card, and
        /// that address is not used (neither the url nor the browser gets it).
        @Test(
            "EID_CLIENT_A2_27: a failed TcToken whose CommunicationErrorAddress is http does not send the browser there"
        )
        func anHTTPCommunicationErrorAddressIsNotUsed() throws {
            try Self.run(
                "empty_tctoken_http_error_address",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Server_Format_Error",
                    status: 6, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil),
                withCard: false)
        }

        /// 307 Temporary Redirect on the way to the TcToken is followed like 302 and 303.
        @Test("EID_CLIENT_A2_08: a 307 redirect to the TcToken is followed and the authentication succeeds")
        func a307RedirectToTheTcTokenIsFollowed() throws {
            try Faults.run(
                [Faults.success("redirect_307", "?fault=redirect_307")], server: try Faults.server, withCard: true)
        }

        /// The redirect on the way to the TcToken leads to 404: no TcToken, so no address to go
        /// to; nothing asked, nothing opened (eid serve answers the browser 404: serve_peer_tests.py).
        @Test("EID_CLIENT_A2_09: a redirect to an address that answers 404 ends the fetch without a TcToken")
        func aRedirectTo404EndsTheFetch() throws {
            try Self.run(
                "redirect_404",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed",
                    reason: "Workflow_TrustedChannel_Establishment_Error",
                    status: 7, messages: Faults.beforeTheCard, urlPath: nil, urlResult: nil, serverOK: nil,
                    stderrContains: ["eid: the TcToken could not be fetched: the server answered with HTTP status 404"]),
                withCard: false)
        }

        /// The ServerAddress answers StartPAOS with 404: the authentication ends before the card
        /// with an error, and the browser goes to the refresh address with that error; the user
        /// reads why on standard error (D_07: a failed connection is shown).
        @Test(
            "EID_CLIENT_A2_15, EID_CLIENT_D_07: a ServerAddress answering 404 ends with an error at the refresh address"
        )
        func aServerAddressAnswering404EndsWithAnError() throws {
            try Self.run(
                "server_address_404",
                Expected(
                    minor: "/dp#trustedChannelEstablishmentFailed", reason: "Workflow_TrustedChannel_Error_From_Server",
                    status: 7, messages: Faults.beforeTheCard, urlPath: "/refresh",
                    urlResult: "ResultMajor=error&ResultMinor=trustedChannelEstablishmentFailed", serverOK: nil,
                    stderrContains: ["eid: the server answered with HTTP status 404"]),
                withCard: false)
        }

        /// CANCEL right after the PIN, while eid waits for the server (`slow`: each PAOS answer 1 s
        /// late): the user's cancel, at the refresh address with cancellationByUser.
        @Test("EID_CLIENT_A4_11: CANCEL right after the PIN ends at the refresh address with cancellationByUser")
        func cancelRightAfterThePIN() throws {
            try Faults.run(
                [
                    Faults.Case(
                        name: "cancel after the PIN", query: "?fault=slow",
                        commands: [Faults.accept, Faults.pin, #"{"cmd":"CANCEL"}"#],
                        expected: Expected(
                            minor: "/sal#cancellationByUser", reason: "User_Cancelled", status: 5,
                            messages: Faults.succeeded, urlPath: "/refresh",
                            urlResult: "ResultMajor=error&ResultMinor=cancellationByUser", serverOK: false))
                ], server: try Faults.server, withCard: true)
        }

        /// The card refuses the server's terminal signature after the PIN: the authentication fails
        /// with the server told, and the user reads why on standard error.
        @Test("EID_CLIENT_D_08: a failed authentication says why")
        func aFailedAuthenticationSaysWhy() throws {
            try Self.run(
                "wrong_ta_signature",
                Expected(
                    minor: "/al/common#noPermission", reason: "Workflow_No_Permission_Error", status: 6,
                    messages: Faults.succeeded, urlPath: "/refresh",
                    urlResult: "ResultMajor=error&ResultMinor=serverError", serverOK: false,
                    stderrContains: ["eid: the card refused the service's terminal authentication"]),
                withCard: true)
        }

        /// The data were read (the server's session ends ok), then the refresh address, of another
        /// origin, answers 404 instead of a redirect, and the TcToken has no CommunicationErrorAddress:
        /// an error that says so (D_14: the sentence on standard error; eid serve's 400 page says it
        /// too, serve_peer_tests.py), no url, and `--open` hands nothing to the opener: the fake
        /// xdg-open received no URL (`Faults.check`, `urlResult` nil), and eid says why.
        @Test(
            """
            EID_CLIENT_A4_09, EID_CLIENT_D_14: no refresh URL and no CommunicationErrorAddress end with an error and \
            no address
            """
        )
        func noRefreshURLAndNoCommunicationErrorAddress() throws {
            try Self.run(
                "refresh_404_no_error_address",
                Expected(
                    minor: "/al/common#communicationError", reason: "Check_Refresh_Address_Invalid_Http_Response",
                    status: 7, messages: Faults.succeeded, urlPath: nil, urlResult: nil, serverOK: nil,
                    stderrContains: [
                        "eid: the service's refresh address answered with HTTP status 404 instead of a redirect",
                        "eid: --open: the service gave no address to continue at",
                    ]),
                withCard: true)
        }
    }
}
