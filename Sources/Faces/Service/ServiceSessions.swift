import LocalService
import Online
import SDK
import SmartCard
import Workflows

/// The sessions behind `eid serve`'s port (the local service's delegate): one workflow at a
/// time in the whole service, one SDK client at a time. A browser activation goes to the SDK
/// client when one is connected and idle (it receives AUTH and answers), else to the answerer
/// (the terminal, else a pinentry program), else it is refused (503).
// Unchecked: `running` and `client` are guarded by `lock`; the rest is immutable.
public final class ServiceSessions: LocalServiceDelegate, @unchecked Sendable {
    /// What every workflow of the service uses: `eid auth`'s and `eid change-pin`'s options.
    public struct Options: Sendable {
        public var reader: String?
        public var timeout: Double
        public var trust: AuthFace.Trust
        /// The network (`eid auth`'s TcToken fetch and PAOS transport).
        public var connect: @Sendable (String) -> Result<AuthConnection, AuthConnection.Failure>

        public init(
            reader: String?, timeout: Double, trust: AuthFace.Trust,
            connect: @escaping @Sendable (String) -> Result<AuthConnection, AuthConnection.Failure>
        ) {
            self.reader = reader
            self.timeout = timeout
            self.trust = trust
            self.connect = connect
        }
    }

    /// Chooses who answers a browser activation without an SDK client, at the moment it comes;
    /// nil: no one (the activation is refused).
    public typealias AnswererChoice = @Sendable () -> (any ActivationAnswerer)?

    /// The process's context: the readers, the clock, the version, and the terminal (for the
    /// terminal answerer).
    let context: FaceContext
    let options: Options
    private let answerer: AnswererChoice
    private let lock = Lock()
    private var running = false
    /// The running workflow asks the answerer (the terminal), not an SDK client.
    private var answering = false
    private var client: SDKConnection?

    public init(context: FaceContext, options: Options, answerer: @escaping AnswererChoice) {
        self.context = context
        self.options = options
        self.answerer = answerer
    }

    public func status(json: Bool) -> String {
        ServiceStatus(version: context.version).render(json: json)
    }

    public func activate(tcTokenURL: String, finish: @escaping @Sendable (ActivationAnswer) -> Void)
        -> ActivationStart
    {
        // Checked before anything runs (AusweisApp: 400): an https URL with a host.
        guard let origin = WebOrigin(url: tcTokenURL), origin.isHTTPS else {
            let error = WebOrigin(url: tcTokenURL) == nil ? ActivationURLError.invalidTcTokenURL : .tcTokenURLNotHTTPS
            return .refused(.failure(.badRequest("The tcTokenURL is unusable: \(error).")))
        }
        lock.lock()
        guard !running else {
            lock.unlock()
            return .busy
        }
        running = true
        let sdk = client
        lock.unlock()
        let done: @Sendable (AuthFace.Ending) -> Void = { finish(ActivationAnswer(ending: $0)) }
        if let sdk {
            sdk.start(.auth(url: tcTokenURL, finish: done))
            return .started
        }
        guard let answerer = answerer() else {
            release()
            return .refused(
                .failure(
                    .noAnswerer(
                        "No one can confirm this authentication: connect an SDK client to /eID-Kernel on this port, "
                            + "or run eid serve in a terminal.")))
        }
        lock.withLock { answering = true }
        let sessions = self
        let started = DetachedThread.start {
            let ending = answerer.authenticate(tcTokenURL: tcTokenURL)
            // Ended before the browser hears of it: the next activation finds the service free.
            sessions.lock.withLock { sessions.answering = false }
            sessions.release()
            done(ending)
        }
        if !started {
            lock.withLock { answering = false }
            release()
            return .refused(.failure(.internalError("eid could not start the authentication.")))
        }
        return .started
    }

    public var acceptsSDKClient: Bool { lock.withLock { client == nil } }

    /// Whether a workflow is asking the answerer (the terminal) now: Ctrl-C is then its cancel,
    /// not the service's end.
    public var isAnswering: Bool { lock.withLock { answering } }

    public func openSDKClient(send: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void)
        -> (any SDKClient)?
    {
        let connection = SDKConnection(sessions: self, send: send)
        let taken = lock.withLock {
            guard client == nil else { return false }
            client = connection
            return true
        }
        return taken ? connection : nil
    }

    /// Claims the one workflow slot; false while a workflow runs.
    func claim() -> Bool {
        lock.withLock {
            guard !running else { return false }
            running = true
            return true
        }
    }

    /// Frees the workflow slot.
    func release() {
        lock.withLock { running = false }
    }

    /// The SDK client has gone.
    func clientGone(_ connection: SDKConnection) {
        lock.withLock { if client === connection { client = nil } }
    }
}
