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
///   ENTER_PUK as the PIN state needs, the change PIN rules);
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
    let timeouts: ChangePINWorkflow.Timeouts
    let openSession: (CardConnection, PACEInfo) -> AuthCard

    /// Called with every state the workflow enters.
    public var onState: (AuthState) -> Void = { _ in }
    /// Called when the progress changes (the JSON face sends STATUS); the workflow starts at
    /// `AuthProgress.start`, which the caller reports before fetching the TcToken.
    public var onProgress: (AuthProgress) -> Void = { _ in }

    public init(
        configuration: Configuration, provider: CardReaderProvider, peer: SDKPeer, transport: PAOSTransport,
        refreshClient: RefreshAddressClient? = nil, readerName: String? = nil,
        timeouts: ChangePINWorkflow.Timeouts = .init(), openSession: @escaping (CardConnection, PACEInfo) -> AuthCard
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
        var run = Run()
        defer {
            run.answer?.wipe()
            run.found?.connection.disconnect(resetCard: true)
        }
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
                let reason = FailureReason.authCardError(
                    .transportFailed("the authentication stopped in \(state.name)"))
                let outcome = AuthOutcome(result: reason.result, reason: reason, fromServer: false)
                entered(.finished(outcome))
                return outcome
            },
            transition: AuthState.transition)
        peer.send(.auth(result: Self.sdkResult(outcome), url: run.url))
        return Result(outcome: outcome, url: run.url)
    }

    /// What the effects share.
    private struct Run {
        var lastSent: PAOSMessage?
        var lastReceived: PAOSEnvelope?
        var terminal: TerminalCheck?
        var rights: AccessRightsRequest?
        var eac2: EAC2InputType?
        var eac1: EAC1CardData?
        var found: CardSearch.Found?
        var reader = ReaderInfo(name: "", card: .none)
        var card: AuthCard?
        var answer: Secret?
        var url: String?
        /// The refresh address check from a refused EAC1's description (nil: none, or accepted).
        var refusedEAC1Check: RefreshAddressCheck?
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
                guard case .didAuthenticate(let request)? = run.lastReceived?.message,
                    case .eac1(let input) = request.data
                else { return .failed(.authUnexpectedServerMessage) }
                do {
                    let check = try TerminalCheck(
                        input, tcTokenURL: configuration.tcTokenURL, trustAnchors: configuration.trustAnchors,
                        linkCertificates: configuration.linkCertificates, date: configuration.date,
                        tlsCertificates: transport.serverCertificates)
                    run.terminal = check
                    run.rights = check.accessRights
                    transport.bindServerCertificates(check.acceptsServerCertificate)
                    return .terminalAccepted
                } catch {
                    run.refusedEAC1Check = RefreshAddressCheck(refusedEAC1: input)
                    return .failed(.authCheckFailed(error))
                }
            case .editAccessRights:
                return editAccessRights(&run)
            case .waitForCard:
                let search = CardSearch(provider: provider, peer: peer, readerName: readerName)
                switch search.waitForCard(timeout: timeouts.card) {
                case .found(let found):
                    run.found = found
                    run.reader = found.reader
                    run.card = openSession(found.connection, found.paceInfo)
                    return .cardFound(retryCounter: found.info.retryCounter)
                case .ended(.cancelled): return .cancelled
                case .ended(.timedOut): return .timedOut
                case .ended(.failed(let error)): return .failed(Self.cardFailure(error))
                case .ended: return .failed(.authCardError(.transportFailed("the card search ended unexpectedly")))
                }
            case .sendReader:
                peer.send(.reader(run.reader))
                return nil
            case .noteCard(let info):
                run.reader.card = .eID(info)
                return nil
            case .sendEnterPUK:
                peer.send(.enterPUK(reader: run.reader))
                return nil
            case .checkCancelled:
                return peer.isCancelled ? .cancelled : .proceed
            case .ask(let kind):
                return ask(kind, &run)
            case .establishPace(let password):
                guard let card = run.card, let secret = run.answer, let rights = run.rights else {
                    return .failed(.authCardError(Self.noCard))
                }
                defer {
                    secret.wipe()
                    run.answer = nil
                }
                switch try card.establishPACE(password, secret: secret, chat: rights.effectiveCHAT) {
                case .established: return .paceEstablished
                case .wrongPassword(let sw): return .paceRefused(sw)
                }
            case .readRetryCounter:
                guard let card = run.card else { return .failed(.authCardError(Self.noCard)) }
                return .retryCounterRead(try card.pinRetryCounter())
            case .unblockPIN:
                guard let card = run.card else { return .failed(.authCardError(Self.noCard)) }
                return .unblocked(ResetRetryCounterOutcome(unblockStatus: try card.unblockPIN()))
            case .didAuthenticateEAC1:
                guard let card = run.card, let rights = run.rights, let terminal = run.terminal else {
                    return .failed(.authCardError(Self.noCard))
                }
                let data = try card.didAuthenticateEAC1()
                run.eac1 = data
                // The CARs go to the server only when the chain does not reach the card's trust point.
                let known = terminal.chain.certificates.contains {
                    data.certificationAuthorityReferences.contains($0.body.holderReference)
                        || data.certificationAuthorityReferences.contains($0.body.authorityReference)
                }
                let output = EAC1OutputType(
                    chat: rights.effectiveCHAT.encoded,
                    certificationAuthorityReferences: known ? [] : data.certificationAuthorityReferences,
                    efCardAccess: data.efCardAccess, idPICC: data.idPICC, challenge: data.challenge)
                return exchange(.didAuthenticateResponse(DIDAuthenticateResponse(.eac1(output))), &run)
            case .sendChallenge:
                guard let challenge = run.eac1?.challenge else { return .failed(.authCardError(Self.noCard)) }
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
                do {
                    run.url = try refreshURL(for: outcome, terminal: run.terminal, refusedEAC1: run.refusedEAC1Check)
                    return .proceed
                } catch {
                    // No refresh URL: the communication-error address, with communicationError.
                    run.url = configuration.tcToken.usableCommunicationErrorAddress.map {
                        RefreshResult.error(.communicationError).appended(to: $0)
                    }
                    return .failed(.authRefreshAddressFailed(error))
                }
            }
        } catch {
            return .failed(Self.cardFailure(error))
        }
    }

    /// Sends one client message and reads the server's answer, which must be one the order of
    /// §2.4 allows after it.
    private func exchange(_ message: PAOSMessage, _ run: inout Run) -> AuthEvent {
        let envelope = PAOSEnvelope(message, relatesTo: run.lastReceived?.messageID)
        let answer: [UInt8]
        do { answer = try transport.exchange(envelope.encoded()) } catch {
            return .failed(.authConnectionFailed(error))
        }
        run.lastSent = message
        let received: PAOSEnvelope
        do { received = try PAOSEnvelope.parse(answer) } catch { return .failed(.authMalformedServerMessage(error)) }
        run.lastReceived = received
        guard received.message.mayFollow(message) else { return .failed(.authUnexpectedServerMessage) }
        switch received.message {
        case .initializeFramework: return .received(.initializeFramework)
        case .didAuthenticate(let request):
            switch request.data {
            case .eac1: return .received(.eac1)
            case .eac2(let input):
                run.eac2 = input
                return .received(.eac2(signed: input.signature != nil))
            case .eacAdditional: return .received(.eacAdditional)
            }
        case .transmit: return .received(.transmit)
        case .startPAOSResponse(let response): return .received(.startPAOSResponse(response.result))
        case .startPAOS, .initializeFrameworkResponse, .didAuthenticateResponse, .transmitResponse:
            return .failed(.authUnexpectedServerMessage)
        }
    }

    private func didAuthenticateEAC2(_ run: inout Run) throws -> AuthEvent {
        guard let card = run.card, let terminal = run.terminal, let input = run.eac2 else {
            return .failed(.authCardError(Self.noCard))
        }
        var signature = input.signature
        if case .didAuthenticate(let request)? = run.lastReceived?.message,
            case .eacAdditional(let additional) =
                request.data
        {
            signature = additional.signature
        }
        guard let signature else { return .failed(.authUnexpectedServerMessage) }
        // Only a signature of the AT key's size goes to the card (TR-03111 plain r ‖ s): any other
        // is refused here, as a malformed EphemeralPublicKey is, before it reaches the card.
        guard signature.count == terminal.signatureLength else {
            return .failed(.authMalformedServerMessage(.invalidValue(message: "DIDAuthenticate", element: "Signature")))
        }
        let data = try card.didAuthenticateEAC2(
            chain: terminal.chain.certificates, ephemeralKey: input.ephemeralPublicKey,
            auxiliaryData: terminal.auxiliaryData?.encoded, signature: signature)
        let output = EAC2OutputType(
            efCardSecurity: data.efCardSecurity, authenticationToken: data.token, nonce: data.nonce)
        return exchange(.didAuthenticateResponse(DIDAuthenticateResponse(.eac2(output))), &run)
    }

    /// Sends the server's APDUs in order, unchanged, up to the first response whose status word
    /// the server does not accept (§2.5).
    private func transmit(_ run: inout Run) throws -> AuthEvent {
        guard let card = run.card, case .transmit(let request)? = run.lastReceived?.message else {
            return .failed(.authCardError(Self.noCard))
        }
        var outputs: [[UInt8]] = []
        var accepted = true
        for info in request.inputAPDUs {
            let response = try card.transmit(info.inputAPDU)
            outputs.append(response)
            if !info.accepts(response: response) {
                accepted = false
                break
            }
        }
        let result = accepted ? DSSResult.ok : DSSResult(.error(.unknownError))
        return exchange(.transmitResponse(TransmitResponse(result: result, outputAPDUs: outputs)), &run)
    }

    /// The response the server waits for, reporting `reason`.
    private func sendError(_ reason: FailureReason, _ run: inout Run) -> AuthEvent {
        let result = DSSResult(reason.result)
        let response: PAOSMessage
        switch run.lastReceived?.message.kind {
        case .initializeFramework?:
            response = .initializeFrameworkResponse(InitializeFrameworkResponse(result: result, version: nil))
        case .didAuthenticateEAC1?, .didAuthenticateEAC2?, .didAuthenticateEACAdditional?:
            response = .didAuthenticateResponse(DIDAuthenticateResponse(result: result, nil))
        case .transmit?:
            response = .transmitResponse(TransmitResponse(result: result, outputAPDUs: []))
        default:
            return .failed(reason)
        }
        return exchange(response, &run)
    }

    /// StateEditAccessRights: ACCESS_RIGHTS, then the user's commands until ACCEPT.
    private func editAccessRights(_ run: inout Run) -> AuthEvent {
        guard let terminal = run.terminal, var rights = run.rights else {
            return .failed(.authUnexpectedServerMessage)
        }
        peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput, .command(.cancel): return .cancelled
            case .timedOut: return .timedOut
            case .command(.accept):
                run.rights = rights
                return .accepted
            case .command(.getAccessRights):
                peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
            case .command(.getCertificate):
                peer.send(.certificate(terminal.certificateInfo))
            case .command(.setAccessRights(let names)):
                let error: String?
                if let names {
                    error = rights.select(sdkNames: names)
                } else {
                    error = "chat must be a list of access right names"
                }
                peer.send(.accessRights(terminal.accessRightsInfo(rights, error: error, today: configuration.date)))
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }

    /// Sends the ENTER_* message for `kind` and takes the first valid answer (6 digits for the
    /// PIN: no transport PIN in an authentication). GET_CERTIFICATE is answered meanwhile.
    private func ask(_ kind: SecretKind, _ run: inout Run) -> AuthEvent {
        peer.send(ChangePINWorkflow.request(kind, error: nil, reader: run.reader))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput, .command(.cancel): return .cancelled
            case .timedOut: return .timedOut
            case .command(.setSecret(let k, let value)) where k == kind:
                if let error = PasswordRules.check(value, as: kind, transportPINAllowed: false) {
                    value?.wipe()
                    peer.send(ChangePINWorkflow.request(kind, error: error, reader: run.reader))
                    continue
                }
                run.answer?.wipe()
                run.answer = value
                return .answered
            case .command(.getCertificate) where run.terminal != nil:
                peer.send(.certificate(run.terminal!.certificateInfo))
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }

    /// StateCheckRefreshAddress and the result parameters: the https RefreshAddress, checked with
    /// `refreshClient` (§1.6: redirects followed to the service's origin, every hop's TLS
    /// certificate in CommCertificates), with the result parameters (§1.7); without an https
    /// RefreshAddress, the CommunicationErrorAddress with communicationError. Throws when the
    /// check finds no refresh URL.
    func refreshURL(
        for outcome: AuthOutcome, terminal: TerminalCheck?, refusedEAC1: RefreshAddressCheck? = nil
    ) throws(RefreshAddressError) -> String? {
        let token = configuration.tcToken
        guard WebOrigin(url: token.refreshAddress)?.isHTTPS == true else {
            return token.usableCommunicationErrorAddress.map {
                RefreshResult.error(.communicationError).appended(to: $0)
            }
        }
        var address = token.refreshAddress
        if let refreshClient {
            let check =
                terminal == nil && refusedEAC1 != nil
                ? refusedEAC1!
                : RefreshAddressCheck(
                    subjectURL: terminal?.description.subjectURL ?? configuration.tcTokenURL,
                    commCertificates: terminal.map {
                        ($0.description.commCertificates ?? [], $0.documentVerifier.body.publicKey.algorithm.digest)
                    })
            address = try check.resolve(address, client: refreshClient)
        }
        return RefreshResult(outcome.result, fromServer: outcome.fromServer).appended(to: address)
    }

    private static let noCard = CardError.transportFailed("no card session")

    /// A card step's failure as the reason AusweisApp gives.
    static func cardFailure(_ error: Error) -> FailureReason {
        switch error {
        case CardError.cardRemoved: return .authCardRemoved
        case let error as CardError: return .authCardError(error)
        case EACStepError.refused: return .authEACRefused
        case EACStepError.cardNotGenuine: return .authCardNotGenuine
        case EACStepError.cardSecurityUnusable: return .authCardSecurityUnusable
        case EACStepError.invalidEphemeralKey:
            return .authMalformedServerMessage(.invalidValue(message: "DIDAuthenticate", element: "EphemeralPublicKey"))
        default: return .authCardError(CardError(error))
        }
    }

    /// The AUTH message's result.
    public static func sdkResult(_ outcome: AuthOutcome) -> AuthResult {
        guard outcome.result.major != .ok else { return AuthResult(major: outcome.result.major.rawValue) }
        return AuthResult(
            major: outcome.result.major.rawValue, minor: outcome.result.minor?.rawValue, language: "en",
            description: outcome.result.minor.map(Self.minorDescription), message: outcome.reason?.sentence,
            reason: outcome.reason?.name)
    }

    /// A short description of a ResultMinor, for the AUTH message.
    static func minorDescription(_ minor: ECardAPIResult.Minor) -> String {
        switch minor {
        case .cancellationByUser, .readerCancellationByUser: return "The process has been cancelled."
        case .internalError: return "An internal error has occurred during processing."
        case .parameterError: return "There was some problem with a provided or omitted parameter."
        case .noPermission: return "Use of the function by the client application is not permitted."
        case .communicationError: return "A communication error occurred."
        case .trustedChannelEstablishmentFailed: return "The trusted channel could not be established."
        case .invalidCertificatePath: return "The certificate path is invalid."
        case .unknownAPIFunction: return "The API function is unknown."
        default: return "An error occurred."
        }
    }
}
