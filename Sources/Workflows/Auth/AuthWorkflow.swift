import EAC
import EIDCrypto
import Online
import SDK
import SmartCard

/// RUN_AUTH: from the tcTokenURL to the refresh address, the TR-03124 authentication
/// (docs/protocol.md, "The whole exchange") with the card and the user. The states and their transitions
/// are `AuthState`; this class performs the effects:
///
/// - the TcToken fetch and the transport to the eID server, by the injected `TcTokenFetcher`
///   (StateGetTcToken); a URL without a tcTokenURL or a failed fetch ends the workflow at once;
/// - StartPAOS, InitializeFrameworkResponse; the TR-03124 checks of EAC1 (`TerminalCheck`);
/// - ACCESS_RIGHTS until ACCEPT (SET_ACCESS_RIGHTS, GET_ACCESS_RIGHTS, GET_CERTIFICATE answered);
/// - the card (INSERT_CARD, READER) and PACE with the effective CHAT (ENTER_PIN, ENTER_CAN,
///   ENTER_PUK as the PIN state needs: the PACE sub-machine change PIN runs too);
/// - EAC1 and EAC2 on the card, the server's Transmit APDUs forwarded unchanged;
/// - a local failure reported in the response the server waits for; the final AUTH message
///   with the result as AusweisApp gives it and the refresh URL (docs/protocol.md, "Result on the
///   refresh address" and "How AusweisApp reports each failure").
///
/// Every secret is checked before it reaches the card and wiped as soon as it is used; the card
/// is reset at the end.
public final class AuthWorkflow {
    /// What the workflow works with besides the network, the card and the user.
    public struct Configuration: Sendable {
        /// The tcTokenURL, or an activation URL holding it, as the user or the browser gave it
        /// (before redirects): subjectURL must be the tcTokenURL's origin.
        public var url: String
        /// The CVCAs the service's chain must lead to.
        public var trustAnchors: [CVCertificate]
        /// CVCA link certificates the chain may pass through (besides those the server sends).
        public var linkCertificates: [CVCertificate]
        /// Today, for the certificates' validity.
        public var date: CalendarDate
        /// The CSCA EF.CardSecurity must chain to (nil: the signature inside the file only).
        public var csca: X509Certificate?

        public init(
            url: String, trustAnchors: [CVCertificate], linkCertificates: [CVCertificate] = [], date: CalendarDate,
            csca: X509Certificate? = nil
        ) {
            self.url = url
            self.trustAnchors = trustAnchors
            self.linkCertificates = linkCertificates
            self.date = date
            self.csca = csca
        }
    }

    /// How it ended, and where the browser goes.
    public struct Result: Equatable, Sendable {
        public var outcome: AuthOutcome
        /// The refresh address or the communication-error address, and the result for it.
        public var target: RefreshTarget?

        /// The address with the result parameters: where the browser goes.
        public var url: String? { target?.url }
    }

    let configuration: Configuration
    let fetch: TcTokenFetcher
    let paceConfiguration: PACEConfiguration<AuthCard>
    var peer: SDKPeer { paceConfiguration.peer }
    var timeouts: WorkflowTimeouts { paceConfiguration.timeouts }

    /// Called with every state the workflow enters.
    public var onState: (AuthState) -> Void = { _ in }
    /// Called when the progress changes (the JSON face sends STATUS): first on StateGetTcToken
    /// (`AuthProgress.start`).
    public var onProgress: (AuthProgress) -> Void = { _ in }

    /// - Parameters:
    ///   - fetch: the TcToken fetch and the transport to the eID server (StateGetTcToken).
    ///   - pace: the card side; its `openSession` makes the card's authentication operations.
    public init(configuration: Configuration, fetch: @escaping TcTokenFetcher, pace: PACEConfiguration<AuthCard>) {
        self.configuration = configuration
        self.fetch = fetch
        self.paceConfiguration = pace
    }

    /// Runs the authentication to its end: the first message is AUTH, the last AUTH with the result.
    public func run() -> Result {
        peer.send(.auth(result: nil, url: nil))
        var run = Run(
            pace: PACEPerformer(paceConfiguration.map { $0 as PINManagementCard }, transportPINAllowed: false))
        // The card is reset at the end.
        defer { run.pace.end() }
        var progress: AuthProgress?
        let entered = { [onState, onProgress] (state: AuthState) in
            onState(state)
            if let next = AuthProgress.after(progress, entering: state) {
                // The first report is always 0 %: also when the URL is refused before the TcToken
                // is fetched (AusweisApp2 1.26.2 reports 0 %, then 80 %, for an http tcTokenURL).
                if progress == nil && next.percent != AuthProgress.start.percent { onProgress(.start) }
                progress = next
                onProgress(next)
            }
        }
        let result = AuthState.start(url: configuration.url).run(
            onState: entered, perform: { perform($0, &run) },
            finished: { state in
                if case .finished(let outcome, let url) = state { return Result(outcome: outcome, target: url) }
                return nil
            },
            stalled: { state in
                let outcome = AuthOutcome(
                    failure: .cardFailed(
                        .transportFailed("the authentication stopped in \(state.name)"), during: .authentication))
                entered(.finished(outcome, url: nil))
                return Result(outcome: outcome, target: nil)
            },
            transition: AuthState.transition)
        // The address as the TcToken had it, without the result parameters, as AusweisApp's SDK gives it.
        peer.send(.auth(result: AuthResult(result.outcome), url: result.target?.address))
        return result
    }

    /// What the effects share: the resources of one run, not the data of its steps (that is
    /// in the states).
    struct Run {
        /// The card search, PACE and the card session.
        let pace: PACEPerformer
        /// The PAOS conversation with the eID server, once the TcToken is fetched.
        var paos: PAOSConversation?

        /// The card session, once PACE found a card.
        var card: AuthCard? { pace.card as? AuthCard }
    }

    private func perform(_ effect: AuthEffect, _ run: inout Run) -> AuthEvent? {
        // A CANCEL after the PIN (TR-03124-2 EID_CLIENT_A4_11): the next step with the card or
        // the server is not taken, and the cancel is reported to the server, as AusweisApp does.
        if Self.continuesWithTheCard(effect) && peer.isCancelled { return .cancelled }
        do {
            switch effect {
            case .fetchTcToken(let tcTokenURL):
                switch fetch(tcTokenURL) {
                case .success(let connection):
                    run.paos = PAOSConversation(tcTokenURL: tcTokenURL, connection: connection)
                    return .tcTokenFetched
                case .failure(let failure):
                    return .tcTokenFailed(failure.reason, url: failure.url)
                }
            case .sendStartPAOS:
                guard let paos = run.paos else { return .failed(Self.noConnection) }
                let start = StartPAOS(
                    sessionIdentifier: paos.connection.tcToken.sessionIdentifier,
                    userAgent: StartPAOS.UserAgent(name: "eid", versionMajor: 0, versionMinor: 1, versionSubminor: 0))
                return exchange(.startPAOS(start), &run)
            case .sendInitializeFrameworkResponse:
                return exchange(.initializeFrameworkResponse(InitializeFrameworkResponse()), &run)
            case .checkTerminal(let input):
                return checkTerminal(input, &run)
            case .editAccessRights(let terminal):
                return editAccessRights(terminal, &run)
            case .pace(let effect):
                return run.pace.perform(effect).map(Self.event)
            case .didAuthenticateEAC1:
                guard let card = run.card else { return .failed(.cardFailed(Self.noCard, during: .authentication)) }
                return .cardEAC1(try card.didAuthenticateEAC1())
            case .sendEAC1Output(let accepted, let data):
                return sendEAC1Output(accepted, data, &run)
            case .sendChallenge(let challenge):
                return exchange(
                    .didAuthenticateResponse(DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: challenge)))),
                    &run)
            case .didAuthenticateEAC2(let terminal, let input, let signature):
                return try didAuthenticateEAC2(terminal, input, signature: signature, &run)
            case .transmit(let request):
                return try transmit(request, &run)
            case .sendTransmitResponse(let response):
                return exchange(.transmitResponse(response), &run)
            case .sendError(let reason):
                return sendError(reason, &run)
            case .determineRefreshAddress(let outcome, let basis):
                return determineRefreshAddress(outcome, basis, run.paos)
            }
        } catch {
            return .failed(Self.cardFailure(error))
        }
    }

    /// The steps after the PIN that carry the session on with the card and the server.
    static func continuesWithTheCard(_ effect: AuthEffect) -> Bool {
        switch effect {
        case .didAuthenticateEAC1, .sendEAC1Output, .sendChallenge, .didAuthenticateEAC2, .transmit: return true
        default: return false
        }
    }

    /// An event of the PACE sub-machine as the workflow's: its cancellation, timeout and card
    /// failure are the authentication's.
    static func event(_ event: PACEEvent) -> AuthEvent {
        switch event {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .failed(let error): return .failed(cardFailure(error))
        default: return .pace(event)
        }
    }

    /// A card step before PACE found a card, a PAOS message before the TcToken came: bugs in
    /// the transition function, ended as failures rather than crashes.
    static let noCard = CardError.transportFailed("no card session")
    static let noConnection = FailureReason.authConnectionFailed(.connectionFailed)
}
