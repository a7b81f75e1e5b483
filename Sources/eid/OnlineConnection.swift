import Faces
import Online
import OnlineClient
import TLS
import Workflows

/// The network of `eid auth` (the workflow's `TcTokenFetcher`): the TcToken over TLS-1, then the PAOS transport over TLS-2 on the
/// same HTTP session (whose TLS-1 sessions TLS-2 resumes when the TcToken has no PSK).
enum OnlineConnection {
    static func connect(_ tcTokenURL: String) -> Result<AuthConnection, AuthConnection.Failure> {
        let session = HTTPSession()
        do {
            let fetched = try TcTokenFetch(session: session).fetch(tcTokenURL)
            let transport = try HTTPPAOSTransport(session: session, fetched: fetched)
            return .success(AuthConnection(tcToken: fetched.tcToken, transport: transport, refreshClient: transport))
        } catch let failure as TcTokenFetch.Failure {
            return .failure(AuthConnection.Failure(failure.reason, url: failure.url))
        } catch let error as PAOSTransportError {
            return .failure(AuthConnection.Failure(.authConnectionFailed(error)))
        } catch {
            return .failure(AuthConnection.Failure(.authTcTokenUnavailable(.connectionFailed)))
        }
    }
}
