/// The transport faults that change what a later TLS connection gets: `tls_changed_after_eac1` and
/// `refresh_tls_not_in_description` (another certificate), `tls2_not_resumed` (no resumption, armed
/// with the TcToken).
extension FrontEndRoutes {
    /// After a PAOS answer of `session`: with `tls_changed_after_eac1` the answer carrying EAC1 closes its
    /// connection and the next one gets the other certificate; with `refresh_tls_not_in_description` the
    /// session's last answer arms it for the client's refresh address check.
    func applyConnectionFaults(
        _ session: Session, sessionID: String, reply: PAOSHTTPReply, to response: inout FrontEndResponse
    ) {
        if session.changesCertificate, reply.status == 200, Self.carriesEAC1(reply.body) {
            // The client's next message (after PACE) must come on a new connection, with another certificate.
            sessions.withLock { $0[sessionID]?.changesCertificate = false }
            response.close = true
            nextConnection?.arm()
        }
        if session.changesRefreshCertificate, !handler.isRunning(sessionID: sessionID) {
            sessions.withLock { $0[sessionID]?.changesRefreshCertificate = false }
            response.close = true
            nextConnection?.arm()
        }
    }
}
