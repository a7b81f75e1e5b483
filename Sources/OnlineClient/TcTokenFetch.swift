import Online
import SmartCard
import TLS

/// The TcToken fetch over TLS-1 (docs/protocol.md, "TcToken fetch"): GET the tcTokenURL, redirects followed
/// one hop at a time (each https, each server certificate kept), then the TcToken parsed and
/// validated ("TcToken validation"), including the attached-server rule without a PSK.
public struct TcTokenFetch {
    /// What eid says it is on every request (docs/protocol.md, "Activation URL").
    public static let userAgent = "eid/\(EIDVersion.current) (TR-03124-1/1.4)"

    /// The TcToken and what its fetch saw.
    public struct Fetched {
        public var tcToken: TcToken
        /// Every hop's server certificate (DER), in order.
        public var serverCertificates: [[UInt8]]

        public init(tcToken: TcToken, serverCertificates: [[UInt8]]) {
            self.tcToken = tcToken
            self.serverCertificates = serverCertificates
        }
    }

    /// Why no usable TcToken came back.
    public typealias Failure = TcTokenFetchFailure

    let session: HTTPSession

    public init(session: HTTPSession) { self.session = session }

    ///
    /// The body, which holds the PSK in hex, is zeroed once parsed (the transfer kept no other
    /// reference to it, and its buffer never regrew unzeroed: `HTTPSession`).
    public func fetch(_ tcTokenURL: String) throws(Failure) -> Fetched {
        var chain: RedirectChain
        do {
            chain = try session.fetch(tcTokenURL, headers: [HTTPHeader(name: "User-Agent", value: Self.userAgent)])
        } catch {
            throw .unavailable(PAOSTransportError(error))
        }
        let last = chain.hops.count - 1
        let status = chain.hops[last].status
        guard status == 200 else {
            Secret.zero(&chain.hops[last].body)
            throw .unavailable(.httpStatus(status))
        }
        let token: TcToken
        switch TcToken.parse(wiping: &chain.hops[last].body) {
        case .success(let parsed): token = parsed
        case .failure(let refused):
            throw .invalid(refused.error, communicationErrorAddress: refused.communicationErrorAddress)
        }
        do {
            try token.checkAttachedServer(tcTokenURL: tcTokenURL)
        } catch {
            throw .invalid(error, communicationErrorAddress: token.usableCommunicationErrorAddress)
        }
        return Fetched(tcToken: token, serverCertificates: chain.serverCertificates)
    }
}
