import Faces
import Online
import OnlineClient
import TLS
import Workflows

/// The network of `eid auth`: the TcToken over TLS-1, then the PAOS transport over TLS-2 on the
/// same HTTP session (whose TLS-1 sessions TLS-2 resumes when the TcToken has no PSK).
enum OnlineConnection {
    static func connect(_ tcTokenURL: String) -> Result<(TcToken, PAOSTransport), AuthFace.ConnectFailure> {
        let session = HTTPSession()
        do {
            let fetched = try TcTokenFetch(session: session).fetch(tcTokenURL)
            let transport = try HTTPPAOSTransport(session: session, fetched: fetched)
            return .success((fetched.tcToken, transport))
        } catch let failure as TcTokenFetch.Failure {
            return .failure(AuthFace.ConnectFailure(failure.reason, url: failure.url))
        } catch let error as PAOSTransportError {
            return .failure(AuthFace.ConnectFailure(.authConnectionFailed(error)))
        } catch {
            return .failure(AuthFace.ConnectFailure(.authTcTokenUnavailable(.connectionFailed)))
        }
    }
}
