import Online
import SmartCard
import TLS

/// `PAOSTransport` over HTTP and TLS (docs/protocol.md, "PAOS binding"): each PAOS message is POSTed to
/// the TcToken's ServerAddress over TLS-2 — TLS 1.2 RSA-PSK with the TcToken's PSK (identity:
/// its SessionIdentifier), or, without a PSK, a connection that must resume TLS-1's session —
/// and the server's next message is the response body. It keeps every server certificate seen
/// (the TcToken fetch's hops, then TLS-2's) for the CommCertificates check after EAC1.
public final class HTTPPAOSTransport: PAOSTransport {
    /// The PAOS request headers (docs/protocol.md, "PAOS binding"), as AusweisApp sends them.
    public static let headers = [
        HTTPHeader(name: "Content-Type", value: "application/vnd.paos+xml; charset=UTF-8"),
        HTTPHeader(name: "Accept", value: "text/html; application/vnd.paos+xml"),
        HTTPHeader(name: "PAOS", value: #"ver="urn:liberty:paos:2006-08""#),
        HTTPHeader(name: "Connection", value: "keep-alive"),
        HTTPHeader(name: "User-Agent", value: TcTokenFetch.userAgent),
    ]

    let session: HTTPSession
    private let serverAddress: String
    private let channel: HTTPSession.Channel
    private var certificates: [[UInt8]]

    /// - Parameters:
    ///   - session: the session the TcToken was fetched with (its TLS-1 sessions are the ones to resume).
    ///   - fetched: the TcToken and the certificates of its fetch.
    public init(session: HTTPSession, fetched: TcTokenFetch.Fetched) throws(PAOSTransportError) {
        self.session = session
        serverAddress = fetched.tcToken.serverAddress
        certificates = fetched.serverCertificates
        if let psk = fetched.tcToken.psk {
            do {
                // The key goes to locked memory of its own in PreSharedKey; withBytes wipes its copy.
                let key = try psk.withBytes { bytes in
                    try PreSharedKey(identity: fetched.tcToken.sessionIdentifier, key: bytes)
                }
                channel = .preSharedKey(key)
                // TLS-2 holds the key now: the TcToken's copy goes.
                psk.wipe()
            } catch let error as TLSError {
                throw .tlsRefused(reason: error.description)
            } catch {
                throw .tlsFailed
            }
        } else {
            channel = .resumingWeb
        }
    }

    public var serverCertificates: [[UInt8]] { certificates }

    /// Binds the whole HTTP session (TLS-2 and the refresh address's TLS-1 connections) to the certificates
    /// `accepts` takes, checked in each handshake (`HTTPSession.bind`).
    public func bindServerCertificates(_ accepts: @escaping @Sendable ([UInt8]) -> Bool) {
        session.bind(ServerCertificateBinding(accepts: accepts))
    }

    public func exchange(_ body: [UInt8]) throws(PAOSTransportError) -> [UInt8] {
        let response: HTTPResponse
        do {
            response = try session.send(
                HTTPRequest(url: serverAddress, method: .post(body: body), headers: Self.headers), over: channel)
        } catch {
            throw PAOSTransportError(error)
        }
        let certificate = response.tls.serverCertificate
        if !certificate.isEmpty && !certificates.contains(certificate) { certificates.append(certificate) }
        guard (200..<300).contains(response.status) else { throw .httpStatus(response.status) }
        return response.body
    }

    /// Closes the connections and wipes the pre-shared key.
    public func close() { session.close() }
}
