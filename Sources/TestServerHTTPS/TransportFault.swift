/// The faults of `/tctoken?fault=NAME[,NAME]` that the HTTPS front end itself injects (issue 9
/// item 3); every other name goes to the session handler.
public enum TransportFault: String, Sendable, CaseIterable {
    /// The PAOS answers of this session come after a delay (`--slow-delay`).
    case slow
    /// The TcToken's RefreshAddress is a plain http URL (a client must not use it).
    case httpRefresh = "http_refresh"
    /// The tcToken URL answers 303 to the real one (the same URL without this fault).
    case redirect
    /// This session uses the PSK channel (TcToken with PathSecurity-Protocol and a PSK).
    case psk
    /// The TcToken names PathSecurity-Protocol TLS-PSK with empty PathSecurity-Parameters (no PSK):
    /// the attached model (TR-03124-2 EID_CLIENT_A2_19): TLS-2 without PSK, whatever `psk`, `psk_wrong_key` or
    /// `--psk` say.
    case pskProtocolNoParameters = "psk_protocol_no_parameters"
    /// Like `psk`, but the TcToken's PSK is not the key the server expects: TLS-2 must fail.
    case pskWrongKey = "psk_wrong_key"
    /// The answer carrying DIDAuthenticate EAC1 closes its connection, and the next TLS connection the server
    /// accepts gets another certificate (`NextConnectionCertificate`): a client must refuse it.
    case tlsChangedAfterEAC1 = "tls_changed_after_eac1"
    // TR-03124-2 test cases of the TcToken fetch and the refresh address (issue 18).
    /// The TcToken's elements are all empty but for an https CommunicationErrorAddress, as an
    /// eService that failed to make a token sends it (EID_CLIENT_A2_05); no session is opened.
    case emptyTcToken = "empty_tctoken"
    /// Like `redirect`, with 307 Temporary Redirect (EID_CLIENT_A2_08).
    case redirect307 = "redirect_307"
    /// The tcToken URL answers 303 to an address that answers 404 Not Found (EID_CLIENT_A2_09).
    case redirect404 = "redirect_404"
    /// The TcToken's ServerAddress is an address of this server that answers 404 Not Found
    /// (EID_CLIENT_A2_15).
    case serverAddress404 = "server_address_404"
    /// The TcToken has no CommunicationErrorAddress, and its RefreshAddress is on another origin
    /// (the other of 127.0.0.1 and localhost, same port) that answers 404 Not Found: after the
    /// authentication the client finds no refresh URL and has nowhere to send the browser
    /// (EID_CLIENT_A4_09, EID_CLIENT_D_14).
    case refresh404NoErrorAddress = "refresh_404_no_error_address"
    /// Like `redirect`, with 302 Found (EID_CLIENT_A2_06).
    case redirect302 = "redirect_302"
    /// The tcToken URL answers 303 to the same URL without this fault as http (EID_CLIENT_A2_10):
    /// a client must not follow it.
    case redirectHTTP = "redirect_http"
    /// The tcToken URL answers 200 with a blank (one space) instead of a TcToken (EID_CLIENT_A2_12).
    case blankTcToken = "blank_tctoken"
    /// Like `empty_tctoken`, with the CommunicationErrorAddress as http (EID_CLIENT_A2_27): a client
    /// must not send the browser there.
    case emptyTcTokenHTTPErrorAddress = "empty_tctoken_http_error_address"
    /// The TcToken's RefreshAddress is on the other origin (see `refresh_404_no_error_address`),
    /// where it answers 303 to an address of this origin, which answers 303 to this origin's refresh
    /// page, each with the same query (EID_CLIENT_A4_05): the client follows both (the service's
    /// origin redirecting names the refresh URL) and succeeds.
    case refreshRedirect = "refresh_redirect"
    /// The TcToken's RefreshAddress is this server's refresh page on the other origin, which
    /// answers 200 and no redirect (EID_CLIENT_A4_06): the client finds no refresh URL.
    case refreshNoRedirect = "refresh_no_redirect"
    /// Like `refresh_redirect`, with the 303 to this origin's refresh page as http
    /// (EID_CLIENT_A4_07): the client must not follow it.
    case refreshRedirectHTTP = "refresh_redirect_http"
    /// The TLS connection after the TcToken's (TLS-2 of the attached model) gets a session context of
    /// its own, so it cannot resume TLS-1's session (EID_CLIENT_A2_29): a client must refuse the new
    /// session. The next connection the server accepts, whichever client makes it.
    case tls2NotResumed = "tls2_not_resumed"
    /// The RefreshAddress is on the other origin (as for `refresh_redirect`), and once the session has
    /// finished the next TLS connection gets the other certificate of `tls_changed_after_eac1`, which
    /// is not in CommCertificates (EID_CLIENT_A4_08): a client must not use that refresh address.
    case refreshTLSNotInDescription = "refresh_tls_not_in_description"
}
