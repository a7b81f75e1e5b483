import CardSimulator
import EAC
import ECardAPISchema
import EIDCrypto
import Online
import SmartCard
import TestPKI
import Testing

@testable import Workflows

/// A small eID server in process, for the authentication workflow's tests (the real server
/// session library is another piece of work): EAC1 with a DV and terminal certificate of the
/// project's test PKI, EAC2 with the TA signature made by the terminal's key, then Transmit
/// reading DG4 under the Chip Authentication keys, one APDU per round, and StartPAOSResponse.
final class FakeEIDServer: PAOSTransport {
    /// What the server does wrong, if anything.
    enum Fault: Equatable {
        case none
        /// The description's hash is not the one in the terminal certificate.
        case descriptionHashMismatch
        /// The chain leads to a CVCA the client does not trust.
        case untrustedChain
        /// StartPAOSResponse with an error after the data were read.
        case resultError(ECardAPIResult.Minor)
        /// InitializeFramework first, and EAC2 without the signature (the EACAdditionalInputType round).
        case initializeFrameworkAndAdditionalInput
        /// The TA signature is made by another key than the terminal certificate's.
        case wrongSignature
        /// EAC2's EphemeralPublicKey as x ‖ y, without the 04 (as AGETO's and mtG's servers send it).
        case ephemeralKeyWithoutPrefix
        /// Authenticated auxiliary data (age verification) in EAC1, signed with TA and verified
        /// through Transmit before DG4 is read.
        case ageVerification
        /// The TA signature is the terminal key's r ‖ s cut or padded with zeros to this length.
        case signatureLength(Int)
        /// Round 2 reads DG9, which the CHAT does not grant: the card refuses it (6982), which its
        /// AcceptableStatusCode does not accept; the server goes on and reads DG4 in round 3
        /// (TR-03124-2 EID_CLIENT_B_07).
        case refusedRead
    }

    /// Born on or before 2008-01-01 (ERIKA, 1984, passes).
    static let auxiliaryData = AuthenticatedAuxiliaryData([
        .ageVerification(CalendarDate(year: 2008, month: 1, day: 1)!)
    ])
    /// The card's answer to VERIFY of the age (9000: passed), when asked.
    private(set) var ageVerified: StatusWord?

    static let tcTokenURL = "https://service.example/tctoken?session=1"
    static let tlsCertificate: [UInt8] = Array("the service's TLS certificate (DER in real life)".utf8)

    let fault: Fault
    let terminal: TestTerminal
    let description: CertificateDescription
    let requiredCHAT: CHAT
    let optionalCHAT: CHAT
    var serverCertificates: [[UInt8]] = [FakeEIDServer.tlsCertificate]
    /// The certificate every connection after the first EAC1 answer presents (a reconnect to another
    /// certificate); nil: the same as before.
    var certificateAfterEAC1: [UInt8]?
    /// What the client bound its connections to after EAC1 (nil: not bound).
    private(set) var binding: (@Sendable ([UInt8]) -> Bool)?
    private var eac1Sent = false

    /// Every client message, in order.
    private(set) var received: [PAOSMessage] = []
    /// DG4 as read through the CA keys (nil until read).
    private(set) var dataGroup4: [UInt8]?
    private var eac1Output: EAC1OutputType?
    private var ephemeral: ECKeyPair?
    private var secure: SecureMessagingSession?
    private var transmitRound = 0

    init(
        fault: Fault = .none, rights: Set<AccessRight> = [.readDG4, .readDG5, .readDG8, .ageVerification],
        required: Set<AccessRight> = [.readDG4], optional: Set<AccessRight> = [.readDG5]
    ) throws {
        self.fault = fault
        let hash = try Digest.sha256.hash(FakeEIDServer.tlsCertificate)
        let description = try CertificateDescription(
            issuerName: "eid test DV", issuerURL: "https://dv.example", subjectName: "eid test service",
            subjectURL: "https://service.example", termsOfUsage: .plainText("Zweck des Auslesevorgangs:\tTests"),
            commCertificates: [hash])
        self.description = description
        let ca: TestCertificateAuthority
        if fault == .untrustedChain {
            ca = try TestCertificateAuthority.generate(
                holderReference: "DEOTHERCVCA00001", effectiveDate: .todayUTC(),
                expirationDate: try CalendarDate.todayUTC().adding(days: 365))
        } else {
            ca = TestCertificateAuthority.project
        }
        let described =
            fault == .descriptionHashMismatch
            ? try CertificateDescription(
                issuerName: "eid test DV", subjectName: "another service", subjectURL: "https://service.example",
                termsOfUsage: .plainText("other"), commCertificates: [hash])
            : description
        terminal = try ca.issueTerminal(rights: rights, description: described)
        requiredCHAT = CHAT(role: .terminal, rights: required)
        optionalCHAT = CHAT(role: .terminal, rights: optional)
    }

    var tcToken: TcToken {
        TcToken(
            serverAddress: "https://eid-server.example/paos", sessionIdentifier: "session-1",
            refreshAddress: "https://service.example/done?ref=1",
            communicationErrorAddress: "https://service.example/error")
    }

    /// The workflow's TcToken fetch: this server's TcToken and this server as the transport.
    func fetch(refreshClient: RefreshAddressClient? = nil) -> TcTokenFetcher {
        { _ in .success(AuthConnection(tcToken: self.tcToken, transport: self, refreshClient: refreshClient)) }
    }

    var eac1Input: EAC1InputType {
        EAC1InputType(
            certificates: [
                try! terminal.terminal.certificate.encoded, try! terminal.documentVerifier.certificate.encoded,
            ],
            certificateDescription: description.encoded, requiredCHAT: requiredCHAT.encoded,
            optionalCHAT: optionalCHAT.encoded,
            authenticatedAuxiliaryData: fault == .ageVerification ? FakeEIDServer.auxiliaryData.encoded : nil,
            transactionInfo: "order 42")
    }

    func bindServerCertificates(_ accepts: @escaping @Sendable ([UInt8]) -> Bool) { binding = accepts }

    func exchange(_ body: [UInt8]) throws(PAOSTransportError) -> [UInt8] {
        // The connection's certificate, checked as a client's TLS handshake would before the request goes out.
        if eac1Sent, let certificate = certificateAfterEAC1 {
            if let binding, !binding(certificate) { throw .certificateNotInDescription }
            if !serverCertificates.contains(certificate) { serverCertificates.append(certificate) }
        }
        guard let envelope = try? PAOSEnvelope.parse(body) else { throw .connectionFailed }
        received.append(envelope.message)
        checkAgainstTheSchemas(body, envelope.message)
        let reply =
            (try? respond(to: envelope.message))
            ?? .startPAOSResponse(
                StartPAOSResponse(result: DSSResult(.error(.internalError))))
        return PAOSEnvelope(reply, relatesTo: envelope.messageID).encoded()
    }

    /// Every message the workflow sends, in every test that plays this server, validates against
    /// the eCard-API schemas (Tests/ECardAPISchema), read by libxml2. The one known exception: a
    /// TransmitResponse reporting an error before the card answered any APDU has no OutputAPDU.
    private func checkAgainstTheSchemas(_ body: [UInt8], _ message: PAOSMessage) {
        if case .transmitResponse(let response) = message, response.result.major == .error,
            response.outputAPDUs.isEmpty
        {
            return
        }
        do {
            let problems = try ECardAPISchema.shared.get().problems(inEnvelope: body)
            if !problems.isEmpty { Issue.record("\(message.kind) does not validate: \(problems)") }
        } catch {
            Issue.record(error)
        }
    }

    private func respond(to message: PAOSMessage) throws -> PAOSMessage {
        // A TransmitResponse that stopped at the refused read of `refusedRead` reports an error too.
        if let result = message.responseResult, result.major == .error,
            !(fault == .refusedRead && message.kind == .transmitResponse && transmitRound == 2)
        {
            return .startPAOSResponse(StartPAOSResponse(result: result))
        }
        switch message {
        case .startPAOS:
            if fault == .initializeFrameworkAndAdditionalInput { return .initializeFramework(InitializeFramework()) }
            eac1Sent = true
            return .didAuthenticate(DIDAuthenticate(.eac1(eac1Input)))
        case .initializeFrameworkResponse:
            eac1Sent = true
            return .didAuthenticate(DIDAuthenticate(.eac1(eac1Input)))
        case .didAuthenticateResponse(let response):
            switch response.data {
            case .eac1(let output):
                eac1Output = output
                let key = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
                ephemeral = key
                var signature = fault == .initializeFrameworkAndAdditionalInput ? nil : try sign(output, key)
                if case .signatureLength(let length) = fault, let right = signature {
                    signature = Array(
                        (right + [UInt8](repeating: 0, count: max(0, length - right.count))).prefix(length))
                }
                return .didAuthenticate(
                    DIDAuthenticate(
                        .eac2(
                            EAC2InputType(
                                ephemeralPublicKey: fault == .ephemeralKeyWithoutPrefix
                                    ? Array(key.publicKey.encoded.dropFirst()) : key.publicKey.encoded,
                                signature: signature))))
            case .eac2(let output) where output.isChallengeOnly:
                guard let eac1Output, let ephemeral else { throw PAOSTransportError.connectionFailed }
                return .didAuthenticate(
                    DIDAuthenticate(.eacAdditional(EACAdditionalInputType(signature: try sign(eac1Output, ephemeral)))))
            case .eac2(let output):
                guard let ephemeral, let cardSecurity = output.efCardSecurity, let nonce = output.nonce,
                    let token = output.authenticationToken
                else { throw PAOSTransportError.connectionFailed }
                // Passive authentication is the server's: a file that does not verify under the
                // CSCA ends the authentication, as eid-testserver ends it.
                guard let infos = try? PassiveAuthentication.verify(cardSecurity, csca: SimulatorTestPKI.csca) else {
                    return .startPAOSResponse(
                        StartPAOSResponse(result: DSSResult(.error(.securityConditionNotSatisfied))))
                }
                let selection = try ChipAuthentication.select(from: infos)
                let result = try ChipAuthentication.terminalKeys(
                    protocol: selection.protocol, chipKey: selection.publicKey, ephemeralKey: ephemeral, nonce: nonce,
                    token: token)
                secure = SecureMessagingSession(keys: result.sessionKeys)
                return try nextTransmit()
            case nil:
                throw PAOSTransportError.connectionFailed
            }
        case .transmitResponse(let response):
            guard var session = secure, let output = response.outputAPDUs.first else {
                throw PAOSTransportError.connectionFailed
            }
            let plain = try session.unprotect(try ResponseAPDU(bytes: output))
            secure = session
            guard plain.statusWord == .success || (fault == .refusedRead && transmitRound == 2) else {
                return .startPAOSResponse(StartPAOSResponse(result: DSSResult(.error(.unknownError))))
            }
            if fault == .ageVerification && transmitRound == 2 && ageVerified == nil {
                ageVerified = plain.statusWord
            }
            if transmitRound == finalRound {
                dataGroup4 = plain.data
                if case .resultError(let minor) = fault {
                    return .startPAOSResponse(StartPAOSResponse(result: DSSResult(.error(minor))))
                }
                return .startPAOSResponse(StartPAOSResponse(result: .ok))
            }
            return try nextTransmit()
        default:
            throw PAOSTransportError.connectionFailed
        }
    }

    /// Round 1 selects the eID application, round 2 reads DG4, each protected with the CA keys.
    private func nextTransmit() throws -> PAOSMessage {
        transmitRound += 1
        let command: CommandAPDU
        switch (transmitRound, fault) {
        case (1, _): command = try CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: ConnectionHandle.eIDApplication)
        case (2, .refusedRead): command = try CommandAPDU.readBinary(shortFileID: 0x09, ne: 256)
        case (2, .ageVerification):
            // VERIFY of authenticated auxiliary data: 80 20 80 00, the OID.
            command = try CommandAPDU(
                cla: 0x80, ins: 0x20, p1: 0x80, p2: 0x00,
                data: AuthenticatedAuxiliaryData.Element.idDateOfBirth.tlv.bytes)
        default: command = try CommandAPDU.readBinary(shortFileID: 0x04, ne: 256)
        }
        guard var session = secure else { throw PAOSTransportError.connectionFailed }
        let protected = try session.protect(command)
        secure = session
        return .transmit(Transmit(inputAPDUs: [.init(protected.bytes, acceptableStatusCodes: [[0x90, 0x00]])]))
    }

    private var finalRound: Int { fault == .ageVerification || fault == .refusedRead ? 3 : 2 }

    private func sign(_ output: EAC1OutputType, _ key: ECKeyPair) throws -> [UInt8] {
        let input = TerminalAuthenticationSignatureInput(
            idPICC: output.idPICC ?? [], challenge: output.challenge ?? [],
            compressedEphemeralKey: TerminalAuthenticationSignatureInput.compress(key.publicKey),
            auxiliaryData: fault == .ageVerification ? FakeEIDServer.auxiliaryData.encoded : nil)
        let signer = fault == .wrongSignature ? terminal.documentVerifier.keyPair : terminal.terminal.keyPair
        return try input.sign(with: signer.privateKey, algorithm: .ecdsaSHA256)
    }
}
