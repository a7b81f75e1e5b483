import CardSimulator
import EAC
import EIDCrypto
import EIDTestServer
import Online
import SmartCard
import TestPKI

/// A minimal eID client for these tests (the real one is `eid auth`'s): it plays AusweisApp's
/// part against an `EIDServerSession` with the in-process software card, using EAC's terminal
/// code. It checks EAC1 as a client must (one DV and one AT, the chain to the trusted CVCA, the
/// description's hash, same origin, the TLS certificate in CommCertificates), runs PACE with the
/// asked-for CHAT, TA with the server's signature, CA with the server's key, and then forwards
/// the Transmit APDUs to the card unchanged. Every message goes through XML both ways.
struct TestEIDClient {
    /// How the exchange ended for the client.
    struct Outcome {
        /// The Result of the server's StartPAOSResponse, if one came.
        var serverResult: DSSResult?
        /// The error the client found itself, if any.
        var localError: ECardAPIResult?
        /// The server dropped the connection instead of answering.
        var connectionClosed = false
        /// How many Transmit messages came.
        var transmits = 0
        /// How many response APDUs each TransmitResponse carried.
        var transmitResponseCounts: [Int] = []
        /// The certificates each EAC2InputType carried.
        var eac2Certificates: [[UInt8]] = []
        /// What the client reports: the server's error when it sent one, else its own (AusweisApp's rule).
        var result: ECardAPIResult {
            if let serverResult, serverResult.major == .error { return serverResult.ecardAPIResult }
            if let localError { return localError }
            if connectionClosed { return .error(.communicationError) }
            return serverResult?.ecardAPIResult ?? .error(.internalError)
        }
    }

    static let tcTokenURL = "https://127.0.0.1:18443/tctoken"
    /// Where the client got its TcToken (the subject URL must have its origin).
    var tcTokenURL = Self.tcTokenURL
    let card: SimulatedEIDCard
    let channel: SimulatedCardChannel
    /// The TLS certificate the client saw (its SHA-256 must be in CommCertificates).
    let tlsCertificate: [UInt8]
    /// The CVCAs the client trusts (`eid auth --trust-cvca`).
    var trustAnchors = [TestCertificateAuthority.project.certificate]
    /// Flips a bit in the MAC of the first response of the first Transmit (a card response altered on the way).
    var tamperFirstResponse = false
    /// Changes the EAC1 output before it is sent (a client that lies or breaks).
    var alterEAC1: (@Sendable (inout EAC1OutputType) -> Void)?
    /// Changes the EAC2 output before it is sent.
    var alterEAC2: (@Sendable (inout EAC2OutputType) -> Void)?

    /// Reports an APDU whose status is not acceptable as AusweisApp2 does: a TransmitResponse with
    /// Result error (al/common#unknownError) and the responses up to it.
    var reportUnacceptableStatus = false
    /// A broken client: sends every APDU of a Transmit whatever the card answers.
    var ignoreAcceptableStatusCodes = false
    /// A broken client: takes each AcceptableStatusCode as a whole status word (a one-byte code
    /// never matches), not as the start of one (TR-03112-6).
    var wholeStatusCodesOnly = false
    private var secure: SecureMessaging?
    private var pace: PACEResult?
    private var at: CVCertificate?
    private var dv: CVCertificate?
    /// CVCA link certificates from EAC1 (the fault cvca_link), sent to the card before the DV.
    private var links: [CVCertificate] = []
    private var auxiliaryData: [UInt8]?
    private var ephemeralKey: ECPoint?
    private var challenge: [UInt8] = []
    private var lastMessageID: String?
    private var lastReceived: PAOSMessage?
    private var outcome = Outcome()

    init(card: SimulatedEIDCard = SimulatedEIDCard(), tlsCertificate: [UInt8]) {
        self.card = card
        channel = SimulatedCardChannel(card: card)
        self.tlsCertificate = tlsCertificate
    }

    /// Runs the whole exchange for `sessionIdentifier`.
    mutating func run(_ session: inout EIDServerSession, sessionIdentifier: String) -> Outcome {
        run(sessionIdentifier: sessionIdentifier) { session.respond(toBody: $0).body }
    }

    /// Runs the whole exchange for `sessionIdentifier`, each message sent with `send`, which
    /// returns the server's answer (nil: the connection was closed without one).
    mutating func run(sessionIdentifier: String, send: ([UInt8]) -> [UInt8]?) -> Outcome {
        var next: PAOSMessage? = .startPAOS(
            StartPAOS(sessionIdentifier: sessionIdentifier, connectionHandles: [.eID], userAgent: nil))
        var rounds = 0
        while let message = next, rounds < 64 {
            rounds += 1
            let envelope = PAOSEnvelope(message, relatesTo: lastMessageID)
            guard let body = send(envelope.encoded()) else {
                outcome.connectionClosed = true
                break
            }
            guard let received = try? PAOSEnvelope.parse(body) else {
                outcome.localError = .error(.trustedChannelEstablishmentFailed)
                break
            }
            guard received.message.mayFollow(message), received.answers(messageID: envelope.messageID) else {
                outcome.localError = .error(.internalError)
                lastMessageID = received.messageID
                next = errorResponse(to: received.message, .error(.internalError))
                continue
            }
            lastMessageID = received.messageID
            next = answer(received.message)
        }
        return outcome
    }

    /// The response the server waits for, reporting `error` (docs/protocol.md, "Reporting a local failure").
    private mutating func errorResponse(to request: PAOSMessage, _ error: ECardAPIResult) -> PAOSMessage? {
        outcome.localError = outcome.localError ?? error
        let result = DSSResult(error)
        switch request {
        case .initializeFramework: return .initializeFrameworkResponse(InitializeFrameworkResponse(result: result))
        case .didAuthenticate: return .didAuthenticateResponse(DIDAuthenticateResponse(result: result, nil))
        case .transmit: return .transmitResponse(TransmitResponse(result: result, outputAPDUs: []))
        default: return nil
        }
    }

    private mutating func answer(_ message: PAOSMessage) -> PAOSMessage? {
        switch message {
        case .initializeFramework: return .initializeFrameworkResponse(InitializeFrameworkResponse())
        case .didAuthenticate(let request):
            switch request.data {
            case .eac1(let input):
                do {
                    var output = try eac1(input)
                    alterEAC1?(&output)
                    return .didAuthenticateResponse(DIDAuthenticateResponse(.eac1(output)))
                } catch {
                    return errorResponse(to: message, error)
                }
            case .eac2(let input):
                outcome.eac2Certificates += input.certificates
                do {
                    guard
                        let key = try? ECPoint(group: try ECGroup(.brainpoolP256r1), encoded: input.ephemeralPublicKey)
                    else { throw ECardAPIResult.error(.parameterError) }
                    ephemeralKey = key
                    guard let signature = input.signature else {
                        return .didAuthenticateResponse(
                            DIDAuthenticateResponse(.eac2(EAC2OutputType(challenge: challenge))))
                    }
                    var output = try eac2(signature: signature)
                    alterEAC2?(&output)
                    return .didAuthenticateResponse(DIDAuthenticateResponse(.eac2(output)))
                } catch let error as ECardAPIResult { return errorResponse(to: message, error) } catch {
                    return errorResponse(to: message, .error(.internalError))
                }
            case .eacAdditional(let input):
                do {
                    return .didAuthenticateResponse(
                        DIDAuthenticateResponse(.eac2(try eac2(signature: input.signature))))
                } catch { return errorResponse(to: message, error) }
            }
        case .transmit(let transmit):
            outcome.transmits += 1
            var outputs: [[UInt8]] = []
            for info in transmit.inputAPDUs {
                // After CA the server's APDUs go to the card as they are.
                guard let command = try? CommandAPDU(bytes: info.inputAPDU),
                    var response = try? channel.transmit(command).bytes
                else { return errorResponse(to: message, .error(.unknownError)) }
                if tamperFirstResponse, outcome.transmits == 1, outputs.isEmpty, response.count > 2 {
                    response[response.count - 3] ^= 0x01
                }
                outputs.append(response)
                if !ignoreAcceptableStatusCodes, !accepts(info, response) {
                    if reportUnacceptableStatus {
                        outcome.transmitResponseCounts.append(outputs.count)
                        return .transmitResponse(
                            TransmitResponse(result: DSSResult(.error(.unknownError)), outputAPDUs: outputs))
                    }
                    break
                }
            }
            outcome.transmitResponseCounts.append(outputs.count)
            return .transmitResponse(TransmitResponse(outputAPDUs: outputs))
        case .startPAOSResponse(let response):
            outcome.serverResult = response.result
            return nil
        default:
            return errorResponse(to: message, .error(.internalError))
        }
    }

    /// Whether the batch goes on after `response`: as a conforming client decides, or as the
    /// broken one of `wholeStatusCodesOnly` does.
    private func accepts(_ info: Transmit.InputAPDUInfo, _ response: [UInt8]) -> Bool {
        guard wholeStatusCodesOnly, !info.acceptableStatusCodes.isEmpty else { return info.accepts(response: response) }
        return info.acceptableStatusCodes.contains(Array(response.suffix(2)))
    }

    /// The client's checks of EAC1, then PACE with the CHAT and GET CHALLENGE.
    private mutating func eac1(_ input: EAC1InputType) throws(ECardAPIResult) -> EAC1OutputType {
        let certificates = input.certificates.compactMap { try? CVCertificate(encoded: $0) }
        let dvs = certificates.filter { $0.role.isDocumentVerifier }
        let ats = certificates.filter { $0.role == .terminal }
        guard certificates.count == input.certificates.count, dvs.count == 1, ats.count == 1, let dv = dvs.first,
            let at = ats.first
        else { throw .error(.invalidCertificatePath) }
        guard
            (try? CVCertificateChain(
                target: at, pool: [dv] + certificates.filter { $0.role == .cvca }, trustAnchors: trustAnchors,
                date: .todayUTC())) != nil
        else { throw .error(.invalidCertificatePath) }
        guard let bytes = input.certificateDescription, let description = try? CertificateDescription(encoded: bytes),
            (try? description.matches(at)) == true, let subjectURL = description.subjectURL,
            WebOrigin.isSameOrigin(subjectURL, tcTokenURL)
        else { throw .error(.parameterError) }
        guard let hash = try? Digest.sha256.hash(tlsCertificate), description.commCertificates?.contains(hash) == true
        else { throw .error(.trustedChannelEstablishmentFailed) }
        var rights = Set<AccessRight>()
        for chat in [input.requiredCHAT, input.optionalCHAT].compactMap({ $0 }) {
            guard let decoded = try? CHAT(encoded: chat) else { throw .error(.parameterError) }
            rights.formUnion(decoded.accessRights)
        }
        // Without CHATs the AT certificate's rights are offered (TR-03124-2 D_19).
        if input.requiredCHAT == nil && input.optionalCHAT == nil { rights = at.body.chat.accessRights }
        let chat = CHAT(role: .terminal, rights: rights.intersection(at.body.chat.accessRights))
        // eid's bound on authenticated auxiliary data (TerminalCheck): parameterError before the card.
        if let aux = input.authenticatedAuxiliaryData, aux.count > AuthenticatedAuxiliaryData.maximumLength {
            throw .error(.parameterError)
        }
        do {
            let cardAccess = try channel.readFile(shortFileID: 0x1C)
            let infos = try SecurityInfos(efCardAccess: cardAccess)
            let (result, secure) = try PACE(
                channel: channel, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"),
                chat: chat.encoded
            ).establishSecureMessaging()
            challenge = try TerminalAuthentication(channel: secure).getChallenge()
            self.secure = secure
            pace = result
            self.at = at
            self.dv = dv
            links = certificates.filter { $0.role == .cvca }
            auxiliaryData = input.authenticatedAuxiliaryData
            return EAC1OutputType(
                chat: chat.encoded, efCardAccess: cardAccess, idPICC: result.idPICC, challenge: challenge)
        } catch { throw .error(.unknownError) }
    }

    /// TA with the server's signature, EF.CardSecurity, CA with the server's ephemeral key; the
    /// client's secure messaging ends with CA.
    private mutating func eac2(signature: [UInt8]) throws(ECardAPIResult) -> EAC2OutputType {
        guard let secure, let pace, let at, let dv, let ephemeralKey else { throw .error(.internalError) }
        // eid's check: a plain r ‖ s on brainpoolP256r1 is 64 bytes; another length is a malformed
        // message (internalError), refused before the card.
        guard signature.count == 64 else { throw .error(.internalError) }
        let ta = TerminalAuthentication(channel: secure)
        do {
            try ta.importCertificates(
                links + [dv, at], cardTrustPoints: [pace.mostRecentCAR, pace.previousCAR].compactMap { $0 })
            try ta.authenticate(
                terminal: at, idPICC: pace.idPICC, challenge: challenge, ephemeralKey: ephemeralKey,
                auxiliaryData: auxiliaryData, signer: ClosureTerminalSigner { _ in signature })
        } catch { throw .error(.noPermission) }
        do {
            let cardSecurity = try PassiveAuthentication.readCardSecurity(secure)
            let selection = try ChipAuthentication.select(from: try SecurityInfos(efCardSecurity: cardSecurity))
            guard
                try secure.transmit(.mseSetAT(chipAuthentication: selection.protocol, keyID: selection.keyID))
                    .statusWord == .success
            else { throw ECardAPIResult.error(.noPermission) }
            let response = try secure.transmit(.generalAuthenticate(chipAuthentication: ephemeralKey))
            let data = try DynamicAuthenticationData(bytes: response.data)
            guard response.statusWord == .success, let nonce = data[0x81], let token = data[0x82] else {
                throw ECardAPIResult.error(.noPermission)
            }
            secure.close()
            self.secure = nil
            return EAC2OutputType(efCardSecurity: cardSecurity, authenticationToken: token, nonce: nonce)
        } catch { throw .error(.noPermission) }
    }
}

extension ECardAPIResult: Error {}
