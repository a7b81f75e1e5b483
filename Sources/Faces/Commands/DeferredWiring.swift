import SDK
import SmartCard
import Workflows

/// The face session of an authentication, wired once the TcToken has come: the readers and the
/// terminal (or the pinentry) are opened only when the service has answered, so a URL that fails needs neither
/// and the face says only why. It stands in for the wired peer and readers from the start:
/// until it is wired, the JSON face's messages go straight out, and the terminal face holds
/// back AUTH's opening line and drops the AUTH of an authentication that ended before the
/// service answered (the face says why). When the wiring fails, the authentication ends with
/// the wiring's reason: the JSON face's messages still go straight out, so it ends, as every
/// authentication does, with AUTH carrying the result; the terminal face says nothing more.
final class DeferredWiring: SDKPeer, CardReaderProvider {
    private let session: FaceSession
    private let transportPIN: Bool
    private let title: String
    private let personPeer: (FacePeer, any SecretAsker) -> SDKPeer
    /// The session, once wired.
    private(set) var wired: FaceSession.Wired?
    private var failed = false
    private var opening: SDKMessage?

    init(
        session: FaceSession, transportPIN: Bool, title: String,
        personPeer: @escaping (FacePeer, any SecretAsker) -> SDKPeer
    ) {
        self.session = session
        self.transportPIN = transportPIN
        self.title = title
        self.personPeer = personPeer
    }

    /// Whether a stop signal arrived (only a wired session watches them).
    var isStopped: Bool { wired?.isStopped ?? false }

    /// `fetch`, then the wiring once it gave a connection.
    func wiring(after fetch: @escaping TcTokenFetcher) -> TcTokenFetcher {
        { [self] tcTokenURL in
            let fetched = fetch(tcTokenURL)
            guard case .success = fetched else { return fetched }
            let wired: FaceSession.Wired
            do throws(FaceSession.Failure) {
                wired = try session.wire(transportPIN: transportPIN, title: title, personPeer: personPeer)
            } catch {
                failed = true
                return .failure(AuthConnection.Failure(error.reason))
            }
            self.wired = wired
            if let opening { wired.peer.send(opening) }
            wired.startInput()
            return fetched
        }
    }

    /// Drops a command still held: the workflow has ended.
    func end() { wired?.end() }

    func send(_ message: SDKMessage) {
        if let wired {
            wired.peer.send(message)
        } else if session.json {
            session.context.console.json(message)
        } else if failed {
            return
        } else if case .auth(nil, _) = message {
            opening = message
        }
    }

    func nextCommand(timeout: Double) -> PeerInput { wired?.peer.nextCommand(timeout: timeout) ?? .endOfInput }

    var isCancelled: Bool { wired?.peer.isCancelled ?? false }

    private func provider() throws -> any CardReaderProvider {
        guard let wired else { throw CardError.transportFailed("the readers are not open") }
        return wired.provider
    }

    func readers() throws -> [ReaderSnapshot] { try provider().readers() }

    func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        try provider().connect(reader: reader, exclusive: exclusive)
    }

    func waitForChange(timeout: Double) throws { try provider().waitForChange(timeout: timeout) }

    func cancelWait() { wired?.provider.cancelWait() }
}
