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
}
