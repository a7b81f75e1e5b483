import EAC
import EIDCrypto
import Online
import SmartCard

/// One online authentication on the server side (TR-03124; docs/protocol.md, "The eID server's side") as a
/// state machine without transport: it takes the client's PAOS messages and answers each with
/// the next server message.
///
///     StartPAOS → [InitializeFramework] → DIDAuthenticate EAC1 → DIDAuthenticate EAC2
///       → [EACAdditionalInput] → Transmit … → StartPAOSResponse
///
/// It is strict on message order (`PAOSMessage.mayFollow`), session identifier and RelatesTo;
/// it checks the effective CHAT, passive authentication of EF.CardSecurity against its CSCA (a
/// card of another CSCA is reported, not refused), the Chip Authentication token and the MAC of
/// every response under its own secure messaging. The first failure ends the session with a
/// StartPAOSResponse carrying its result; `result` then holds what `/result` serves. A session
/// that waits longer than its timeout for the client ends as timed out (`expireIfStalled`, or
/// the next message).
public struct EIDServerSession: Sendable {
    /// Where the exchange stands: what the server waits for.
    public enum State: String, Equatable, Sendable {
        case waitingForStartPAOS
        case waitingForInitializeFrameworkResponse
        case waitingForEAC1Output
        /// EAC2 went without a signature: the client's challenge-only answer comes next.
        case waitingForEAC2Challenge
        case waitingForEAC2Output
        case waitingForTransmitResponse
        /// StartPAOSResponse was sent (or the connection dropped); `result` is set.
        case finished
    }

    public let configuration: SessionConfiguration
    public internal(set) var state = State.waitingForStartPAOS
    /// Set once the session has finished.
    public internal(set) var result: SessionResult?

    let clock: any SessionClock
    let terminal: SessionTerminal
    let auxiliaryData: AuthenticatedAuxiliaryData?
    let requiredCHAT: CHAT
    let optionalCHAT: CHAT?
    var lastActivity: Double
    var lastSent: PAOSMessage?
    /// The MessageID of the last server message (RelatesTo of the next client message).
    public internal(set) var lastMessageID: String?
    // What EAC established.
    var effectiveCHAT: CHAT?
    var idPICC: [UInt8] = []
    var challenge: [UInt8] = []
    var ephemeralKey: ECKeyPair?
    var signature: [UInt8] = []
    var secureMessaging: ServerSecureMessaging?
    var pendingBatches: [[ServerCardCommand]] = []
    var sentBatch: [ServerCardCommand] = []
    var transmitResponses = 0
    var read: [SessionResult.Attribute] = []
    var verified: [SessionResult.Verification] = []
    var passiveAuthentication: SessionResult.PassiveAuthenticationStatus?
    /// The CARs the client's EAC1 output named (the card's trust points its chain did not reach).
    var certificationAuthorityReferences: [String] = []

    /// A new session, waiting for StartPAOS. Throws when the certificates its faults need
    /// cannot be issued.
    public init(configuration: SessionConfiguration, clock: any SessionClock = MonotonicSessionClock())
        throws(ServerPKIError)
    {
        self.configuration = configuration
        self.clock = clock
        lastActivity = clock.now()
        terminal = try SessionTerminal(
            pki: configuration.pki, faults: configuration.faults, date: configuration.date,
            cvcaChain: configuration.cvcaChain)
        var verifications = configuration.verifications
        if configuration.faults.contains(.auxAge), verifications.minimumAge == nil { verifications.minimumAge = 18 }
        if configuration.faults.first(of: [.transmitBatch, .transmitStatusPrefix]) != nil,
            verifications.minimumAge == nil
        {
            verifications.minimumAge = ServerFault.unreachedAge
        }
        if configuration.faults.contains(.oversizedAuxData) {
            if verifications.minimumAge == nil { verifications.minimumAge = 18 }
            verifications.communityID = [0x02, 0x76] + [UInt8](repeating: 0, count: ServerFault.oversizedLength - 2)
        }
        var elements: [AuthenticatedAuxiliaryData.Element] = []
        var required = configuration.requiredRights
        if let age = verifications.minimumAge {
            elements.append(.ageVerification(EIDServerSession.birthDate(yearsBefore: age, configuration.date)))
            required.insert(.ageVerification)
        }
        if let date = verifications.validOn { elements.append(.documentValidity(date)) }
        if let prefix = verifications.communityID {
            elements.append(.communityID(prefix))
            required.insert(.communityIDVerification)
        }
        auxiliaryData = elements.isEmpty ? nil : AuthenticatedAuxiliaryData(elements)
        let grantable = terminal.grantableRights
        requiredCHAT = CHAT(role: .terminal, rights: required.intersection(grantable))
        let optional = configuration.optionalRights.intersection(grantable).subtracting(required)
        optionalCHAT = optional.isEmpty ? nil : CHAT(role: .terminal, rights: optional)
    }

    /// Answers the HTTP body of a client's POST: parses it as a PAOS message and goes on with
    /// `respond(to:)`; a body that is not one ends the session.
    public mutating func respond(toBody body: [UInt8]) -> PAOSReply {
        let envelope: PAOSEnvelope
        do { envelope = try PAOSEnvelope.parse(body) } catch {
            guard state != .finished else { return afterEnd(relatesTo: nil) }
            return fail(.malformedMessage(error), relatesTo: nil)
        }
        return respond(to: envelope)
    }

    /// Answers a client's message with the next server message.
    public mutating func respond(to envelope: PAOSEnvelope) -> PAOSReply {
        let relatesTo = envelope.messageID
        guard state != .finished else { return afterEnd(relatesTo: relatesTo) }
        if expireIfStalled() {
            let failure = SessionFailure.timedOut
            return reply(
                .startPAOSResponse(StartPAOSResponse(result: DSSResult(failure.result, message: failure.description))),
                relatesTo: relatesTo)
        }
        lastActivity = clock.now()
        let message = envelope.message
        guard message.sender == .client, message.mayFollow(lastSent) else {
            return fail(.unexpectedMessage(message.kind), relatesTo: relatesTo)
        }
        if lastSent != nil, envelope.relatesTo != lastMessageID {
            return fail(.relatesToMismatch, relatesTo: relatesTo)
        }
        if let reported = message.responseResult, reported.major == .error {
            // A TransmitResponse that reports an error (an APDU's status not acceptable, TR-03112-7)
            // still carries the responses up to that APDU: the server takes them, so the result
            // names what the card refused (e.g. READ BINARY with 6982) and keeps what was read.
            // The planned refusal of `transmit_stop` is no failure: the session goes on.
            if state == .waitingForTransmitResponse, case .transmitResponse(let response) = message,
                !response.outputAPDUs.isEmpty
            {
                do {
                    if try take(response) { return try nextTransmit(relatesTo: relatesTo) }
                } catch {
                    switch error {
                    case .cardRefused, .transmitNotStopped: return fail(error, relatesTo: relatesTo)
                    default: break
                    }
                }
            }
            return fail(.clientReported(reported.ecardAPIResult), relatesTo: relatesTo)
        }
        do {
            return try step(message, relatesTo: relatesTo)
        } catch {
            return fail(error, relatesTo: relatesTo)
        }
    }

    /// Ends the session as timed out when the client has not answered within the timeout;
    /// returns whether it did (the front end calls it now and then, so `/result` tells).
    @discardableResult
    public mutating func expireIfStalled() -> Bool {
        guard state != .finished, secondsLeft(now: clock.now()) < 0 else { return false }
        finish(failure: .timedOut)
        return true
    }

    /// Seconds until the session times out unless the client sends its next message (negative:
    /// overdue): `startTimeout` for StartPAOS, which an eID client sends right after it has
    /// fetched the TcToken (before any user dialog), `timeout` for the other messages.
    func secondsLeft(now: Double) -> Double {
        let limit =
            state == .waitingForStartPAOS
            ? min(configuration.startTimeout, configuration.timeout) : configuration.timeout
        return lastActivity + limit - now
    }

    // MARK: steps

    private mutating func step(_ message: PAOSMessage, relatesTo: String?) throws(SessionFailure) -> PAOSReply {
        switch (state, message) {
        case (.waitingForStartPAOS, .startPAOS(let start)):
            guard start.sessionIdentifier == configuration.sessionIdentifier else { throw .unknownSession }
            if configuration.faults.contains(.brokenXML) {
                let whole = PAOSEnvelope(.didAuthenticate(eac1Request), relatesTo: relatesTo).encoded()
                finish(failure: .injected(.brokenXML))
                return .malformed(Array(whole.prefix(whole.count / 2)))
            }
            if configuration.faults.contains(.wrongOrder) {
                let key = try? ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
                let input = EAC2InputType(
                    ephemeralPublicKey: key?.publicKey.encoded ?? [0x04], signature: [UInt8](repeating: 0x55, count: 64)
                )
                let answer = reply(.didAuthenticate(DIDAuthenticate(.eac2(input))), relatesTo: relatesTo)
                finish(failure: .injected(.wrongOrder))
                return answer
            }
            if configuration.faults.contains(.initializeFramework) {
                state = .waitingForInitializeFrameworkResponse
                return reply(.initializeFramework(InitializeFramework()), relatesTo: relatesTo)
            }
            state = .waitingForEAC1Output
            return reply(.didAuthenticate(eac1Request), relatesTo: relatesTo)
        case (.waitingForInitializeFrameworkResponse, .initializeFrameworkResponse):
            state = .waitingForEAC1Output
            return reply(.didAuthenticate(eac1Request), relatesTo: relatesTo)
        case (.waitingForEAC1Output, .didAuthenticateResponse(let response)):
            guard case .eac1(let output) = response.data else { throw .unexpectedMessage(message.kind) }
            let input = try eac2Input(after: output)
            if let end = configuration.faults.first(of: [.endAfterEAC1]) {
                return fail(.injected(end), relatesTo: relatesTo)
            }
            state = input.signature == nil ? .waitingForEAC2Challenge : .waitingForEAC2Output
            return reply(.didAuthenticate(DIDAuthenticate(.eac2(input))), relatesTo: relatesTo)
        case (.waitingForEAC2Challenge, .didAuthenticateResponse(let response)):
            guard case .eac2(let output) = response.data, output.isChallengeOnly else {
                throw .unexpectedMessage(message.kind)
            }
            guard output.challenge == challenge else { throw .invalidEAC2Output("Challenge") }
            if let end = configuration.faults.first(of: [.endAfterEAC2Challenge]) {
                return fail(.injected(end), relatesTo: relatesTo)
            }
            state = .waitingForEAC2Output
            return reply(
                .didAuthenticate(DIDAuthenticate(.eacAdditional(EACAdditionalInputType(signature: signature)))),
                relatesTo: relatesTo)
        case (.waitingForEAC2Output, .didAuthenticateResponse(let response)):
            guard case .eac2(let output) = response.data, !output.isChallengeOnly else {
                throw .unexpectedMessage(message.kind)
            }
            try establishSecureMessaging(output)
            if let end = configuration.faults.first(of: [.endAfterEAC2, .endAfterEACAdditional]) {
                return fail(.injected(end), relatesTo: relatesTo)
            }
            return try nextTransmit(relatesTo: relatesTo)
        case (.waitingForTransmitResponse, .transmitResponse(let response)):
            try take(response)
            if configuration.faults.contains(.abortMidTransmit) {
                finish(failure: .injected(.abortMidTransmit))
                return .closeConnection
            }
            return try nextTransmit(relatesTo: relatesTo)
        default:
            throw .unexpectedMessage(message.kind)
        }
    }

    // MARK: replies

    /// The envelope of a server message answering the client's `relatesTo`; remembered as the
    /// last message sent.
    mutating func reply(_ message: PAOSMessage, relatesTo: String?, record: Bool = true) -> PAOSReply {
        let envelope = PAOSEnvelope(message, relatesTo: relatesTo)
        if record {
            lastSent = message
            lastMessageID = envelope.messageID
        }
        return elementFault(in: message, envelope) ?? .message(envelope)
    }

    /// Ends the session with `failure` and answers StartPAOSResponse with its result.
    mutating func fail(_ failure: SessionFailure, relatesTo: String?) -> PAOSReply {
        finish(failure: failure)
        return reply(
            .startPAOSResponse(StartPAOSResponse(result: DSSResult(failure.result, message: failure.description))),
            relatesTo: relatesTo)
    }

    /// A message after the end: StartPAOSResponse with an error, the result unchanged.
    private mutating func afterEnd(relatesTo: String?) -> PAOSReply {
        reply(
            .startPAOSResponse(
                StartPAOSResponse(result: DSSResult(.error(.internalError), message: "the session has ended"))),
            relatesTo: relatesTo, record: false)
    }

    mutating func finish(failure: SessionFailure) {
        finish(
            SessionResult(
                ok: false, read: read, verified: verified, passiveAuthentication: passiveAuthentication,
                error: failure))
    }

    mutating func finish(_ result: SessionResult) {
        var result = result
        result.certificationAuthorityReferences = certificationAuthorityReferences
        self.result = result
        state = .finished
        secureMessaging?.keys.wipe()
        secureMessaging = nil
    }

    /// The latest birth date that passes an age verification of `years` on `date` (29 February
    /// becomes the 28th in a year without it).
    static func birthDate(yearsBefore years: Int, _ date: CalendarDate) -> CalendarDate {
        CalendarDate(year: date.year - years, month: date.month, day: date.day)
            ?? CalendarDate(year: date.year - years, month: date.month, day: 28)!
    }
}
