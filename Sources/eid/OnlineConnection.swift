import Faces
import Online
import OnlineClient
import TLS
import Workflows

/// The network of `eid auth` (the workflow's `TcTokenFetcher`): the TcToken over TLS-1, then the PAOS transport over TLS-2 on the
/// same HTTP session (whose TLS-1 sessions TLS-2 resumes when the TcToken has no PSK), each request through the
/// proxy the environment names as curl reads it (`HTTPProxy`: https_proxy, no_proxy), for `eid auth` and
/// `eid serve` alike.
enum OnlineConnection {
    static func connect(_ tcTokenURL: String) -> Result<AuthConnection, AuthConnection.Failure> {
        do {
            let session = HTTPSession(configuration: HTTPConfiguration(proxy: try HTTPProxy.fromEnvironment()))
            let fetched = try TcTokenFetch(session: session).fetch(tcTokenURL)
            let transport = try HTTPPAOSTransport(session: session, fetched: fetched)
            return .success(AuthConnection(tcToken: fetched.tcToken, transport: transport, refreshClient: transport))
        } catch let failure as TcTokenFetch.Failure {
            return .failure(AuthConnection.Failure(failure.reason, url: failure.url))
        } catch let error as PAOSTransportError {
            return .failure(AuthConnection.Failure(.authConnectionFailed(error)))
        } catch let error as HTTPError {
            return .failure(AuthConnection.Failure(.authTcTokenUnavailable(PAOSTransportError(error))))
        } catch {
            return .failure(AuthConnection.Failure(.authTcTokenUnavailable(.connectionFailed)))
        }
    }
}
