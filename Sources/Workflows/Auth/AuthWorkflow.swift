import EAC
import EIDCrypto
import Online
import SDK
import SmartCard

/// RUN_AUTH without the network parts: given the TcToken and a `PAOSTransport` to its eID
/// server, the PAOS exchange of TR-03124 (AUTH-PROTOCOL.md §2, §9) with the card and the user.
/// The states and their transitions are `AuthState`; this class performs the effects:
///
/// - StartPAOS, InitializeFrameworkResponse; the TR-03124 checks of EAC1 (`TerminalCheck`);
/// - ACCESS_RIGHTS until ACCEPT (SET_ACCESS_RIGHTS, GET_ACCESS_RIGHTS, GET_CERTIFICATE answered);
/// - the card (INSERT_CARD, READER) and PACE with the effective CHAT (ENTER_PIN, ENTER_CAN,
///   ENTER_PUK as the PIN state needs: the PACE sub-machine change PIN runs too);
/// - EAC1 and EAC2 on the card, the server's Transmit APDUs forwarded unchanged;
/// - a local failure reported in the response the server waits for; the final AUTH message
///   with the result as AusweisApp gives it and the refresh URL (§1.7, §8).
///
/// Every secret is checked before it reaches the card and wiped as soon as it is used; the card
/// is reset at the end.
public final class AuthWorkflow {
    /// What the workflow works with besides the card and the user.
    public struct Configuration: Sendable {
        /// The tcTokenURL as the user gave it (before redirects): subjectURL must be its origin.
        public var tcTokenURL: String
        public var tcToken: TcToken
        /// The CVCAs the service's chain must lead to.
        public var trustAnchors: [CVCertificate]
        /// CVCA link certificates the chain may pass through (besides those the server sends).
        public var linkCertificates: [CVCertificate]
        /// Today, for the certificates' validity.
        public var date: CalendarDate
        /// The CSCA EF.CardSecurity must chain to (nil: the signature inside the file only).
        public var csca: X509Certificate?

        public init(
            tcTokenURL: String, tcToken: TcToken, trustAnchors: [CVCertificate],
            linkCertificates: [CVCertificate] = [], date: CalendarDate, csca: X509Certificate? = nil
        ) {
            self.tcTokenURL = tcTokenURL
            self.tcToken = tcToken
            self.trustAnchors = trustAnchors
            self.linkCertificates = linkCertificates
            self.date = date
            self.csca = csca
        }
    }

    /// How it ended, and where the browser goes.
    public struct Result: Equatable, Sendable {
        public var outcome: AuthOutcome
        /// The refresh address with the result parameters, or the communication-error address.
        public var url: String?
    }

    let configuration: Configuration
    let provider: CardReaderProvider
    let peer: SDKPeer
    let transport: PAOSTransport
    /// The network of the refresh address's check (§1.6); nil: the address is taken unchecked.
    let refreshClient: RefreshAddressClient?
    let readerName: String?
    let timeouts: WorkflowTimeouts
    let openSession: (CardConnection, PACEInfo) -> AuthCard

    /// Called with every state the workflow enters.
    public var onState: (AuthState) -> Void = { _ in }
    /// Called when the progress changes (the JSON face sends STATUS); the workflow starts at
    /// `AuthProgress.start`, which the caller reports before fetching the TcToken.
    public var onProgress: (AuthProgress) -> Void = { _ in }

    public init(
        configuration: Configuration, provider: CardReaderProvider, peer: SDKPeer, transport: PAOSTransport,
        refreshClient: RefreshAddressClient? = nil, readerName: String? = nil,
        timeouts: WorkflowTimeouts = .init(), openSession: @escaping (CardConnection, PACEInfo) -> AuthCard
    ) {
        self.configuration = configuration
        self.provider = provider
        self.peer = peer
        self.transport = transport
        self.refreshClient = refreshClient
        self.readerName = readerName
        self.timeouts = timeouts
        self.openSession = openSession
    }

    /// Runs the authentication to its end: the first message is AUTH, the last AUTH with the result.
    public func run() -> Result {
        peer.send(.auth(result: nil, url: nil))
        var run = Run(
            pace: PACEPerformer(
                provider: provider, peer: peer, readerName: readerName, timeouts: timeouts,
                transportPINAllowed: false, openSession: openSession))
        // The card is reset at the end.
        defer { run.pace.end() }
        var progress = AuthProgress.start
        let entered = { [onState, onProgress] (state: AuthState) in
            onState(state)
            if let next = progress.entering(state) {
                progress = next
                onProgress(next)
            }
        }
        let outcome = AuthState.start.run(
            onState: entered, perform: { perform($0, &run) },
            finished: { state in
                if case .finished(let outcome) = state { return outcome }
                return nil
            },
            stalled: { state in
                let reason = FailureReason.cardFailed(
                    .transportFailed("the authentication stopped in \(state.name)"), during: .authentication)
                let outcome = AuthOutcome(result: reason.result, reason: reason, fromServer: false)
                entered(.finished(outcome))
                return outcome
            },
            transition: AuthState.transition)
        peer.send(.auth(result: AuthResult(outcome), url: run.url))
        return Result(outcome: outcome, url: run.url)
    }

    /// What the effects share.
    struct Run {
        /// The card search, PACE and the card session.
        let pace: PACEPerformer
        var lastReceived: PAOSEnvelope?
        var terminal: TerminalCheck?
        var rights: AccessRightsRequest?
        var eac2: EAC2InputType?
        var eac1: EAC1CardData?
        var url: String?
        /// The refresh address check from a refused EAC1's description (nil: none, or accepted).
        var refusedEAC1Check: RefreshAddressCheck?

        /// The card session, once PACE found a card.
        var card: AuthCard? { pace.card as? AuthCard }
    }

    private func perform(_ effect: AuthEffect, _ run: inout Run) -> AuthEvent? {
        do {
            switch effect {
            case .sendStartPAOS:
                let start = StartPAOS(
                    sessionIdentifier: configuration.tcToken.sessionIdentifier,
                    userAgent: StartPAOS.UserAgent(name: "eid", versionMajor: 0, versionMinor: 1, versionSubminor: 0))
                return exchange(.startPAOS(start), &run)
            case .sendInitializeFrameworkResponse:
                return exchange(.initializeFrameworkResponse(InitializeFrameworkResponse()), &run)
            case .checkTerminal:
                return checkTerminal(&run)
            case .editAccessRights:
                return editAccessRights(&run)
            case .pace(let effect):
                return run.pace.perform(effect).map(Self.event)
            case .didAuthenticateEAC1:
                return try didAuthenticateEAC1(&run)
            case .sendChallenge:
                guard let challenge = run.eac1?.challenge else {
                    return .failed(.cardFailed(Self.noCard, during: .authentication))
                }
                return exchange(
                    .didAuthenticateResponse(DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: challenge)))),
                    &run)
            case .didAuthenticateEAC2:
                return try didAuthenticateEAC2(&run)
            case .transmit:
                return try transmit(&run)
            case .sendError(let reason):
                return sendError(reason, &run)
            case .determineRefreshAddress(let outcome):
                return determineRefreshAddress(outcome, &run)
            }
        } catch {
            return .failed(Self.cardFailure(error))
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

    static let noCard = CardError.transportFailed("no card session")
}
