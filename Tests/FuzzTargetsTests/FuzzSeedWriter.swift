import CardSimulator
import EAC
import EIDCrypto
import EIDTestServer
import Foundation
import FuzzTargets
import Online
import SmartCard
import TestPKI
import Testing

/// The seeds that come from runs rather than fixtures (the rest of the corpus is copied from the
/// fixtures and vectors, Tests/Fuzz/README.md). Every run makes them again and replays each through
/// its target within the corpus bound (BoundedReplay), and checks that a seed of that name is
/// committed in Tests/Fuzz/Corpus; `EID_FUZZ_WRITE_SEEDS=1 swift test --filter FuzzSeedWriter`
/// writes them there.
@Suite struct FuzzSeedWriter {
    static let writes = ProcessInfo.processInfo.environment["EID_FUZZ_WRITE_SEEDS"] == "1"

    static let pki: ServerPKI = {
        do {
            return try ServerPKI.testPKI(
                origin: ServerSessionFuzzing.origin, tlsCertificates: [ServerSessionFuzzing.tlsCertificate],
                date: CardSimulatorFuzzing.date)
        } catch { preconditionFailure("test PKI: \(error)") }
    }()

    func write(_ bytes: [UInt8], _ target: FuzzTarget, _ name: String) throws {
        let outcome = BoundedReplay.run(target, bytes)
        guard case .ran = outcome else {
            Issue.record("the seed \(target.rawValue)/\(name): \(outcome)")
            return
        }
        let folder = FuzzCorpusTests.corpus.appendingPathComponent(target.rawValue)
        if Self.writes {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        } else {
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path),
                "the seed \(target.rawValue)/\(name) is committed")
        }
    }

    @Test func terminalCheck() throws {
        let pki = Self.pki
        let chain = [pki.documentVerifier.certificate, pki.terminal.certificate]
        let input = EAC1InputType(
            certificates: try chain.map { try $0.encoded }, certificateDescription: pki.description.encoded,
            requiredCHAT: CHAT(role: .terminal, rights: [.readDG4, .readDG5]).encoded,
            optionalCHAT: CHAT(role: .terminal, rights: [.readDG8, .ageVerification]).encoded,
            authenticatedAuxiliaryData: AuthenticatedAuxiliaryData([
                .ageVerification(CalendarDate(year: 2008, month: 11, day: 25)!),
                .documentValidity(CardSimulatorFuzzing.date), .communityID([0x02, 0x76, 0x11]),
            ]).encoded)
        try write(TerminalCheckFuzzing.seed(input), .terminalCheck, "testpki-eac1")
        try write(TLV.parseAll(try chain[1].encoded).flatMap(\.bytes), .tlv, "testpki-terminal-certificate")
    }

    /// Records the plain commands of eid's terminal after PACE: reading EF.CardSecurity, TA with
    /// the test PKI, CA, and reading data groups.
    @Test func cardSimulator() throws {
        let card = SimulatedEIDCard()
        card.withContext {
            $0.trustAnchors = [TestCertificateAuthority.project.certificate]
            $0.currentDate = CardSimulatorFuzzing.date
        }
        card.powerOn()
        let channel = SimulatedCardChannel(card: card)
        let cardAccess = try channel.readFile(shortFileID: EIDFile.cardAccessShortID)
        let (pace, secure) = try PACE(
            channel: channel, paceInfo: try SecurityInfos(efCardAccess: cardAccess).runnablePACEInfo(),
            password: .pin("123456"), chat: CardSimulatorFuzzing.chat.encoded
        ).establishSecureMessaging()
        let recorder = RecordingChannel(secure)
        let cardSecurity = try PassiveAuthentication.readCardSecurity(recorder)
        try write(cardSecurity, .securityInfos, "simulator-ef-cardsecurity")
        try write(cardAccess, .securityInfos, "simulator-ef-cardaccess")
        let selection = try ChipAuthentication.select(from: try SecurityInfos(efCardSecurity: cardSecurity))
        let ephemeral = try ECKeyPair.generate(group: selection.publicKey.group)
        let ta = TerminalAuthentication(channel: recorder)
        let pki = Self.pki
        _ = try ta.importCertificates(
            [pki.documentVerifier.certificate, pki.terminal.certificate],
            cardTrustPoints: [pace.mostRecentCAR, pace.previousCAR].compactMap { $0 })
        try ta.authenticate(
            terminal: pki.terminal.certificate, idPICC: pace.idPICC, challenge: try ta.getChallenge(),
            ephemeralKey: ephemeral.publicKey, auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: pki.terminal.keyPair.privateKey, algorithm: pki.terminalAlgorithm))
        try write(CardSimulatorFuzzing.seed(recorder.commands), .cardSimulator, "transcript-ta")
        let taCommands = recorder.commands
        // CA through the recorder (it restarts secure messaging only on a SecureMessaging
        // channel): what the card receives is recorded either way.
        _ = try? ChipAuthentication(channel: recorder).run(selection: selection, ephemeralKey: ephemeral)
        let reads: [CommandAPDU] = [
            try .selectApplication(EIDFile.eIDApplicationID), try .readBinary(shortFileID: 0x01, ne: 256),
            try .readBinary(shortFileID: 0x04, ne: 256), try .readBinary(shortFileID: 0x09, ne: 256),
        ]
        try write(CardSimulatorFuzzing.seed(recorder.commands + reads), .cardSimulator, "transcript-ta-ca-read")
        try write(CardSimulatorFuzzing.seed(Array(taCommands.prefix(1)) + reads), .cardSimulator, "transcript-read")
        try write(try CardSimulatorTerminal.eacSeed(), .cardSimulator, "harness-ta-ca-read")
    }

    /// A client's messages to a session (with no fault and some session faults): StartPAOS,
    /// InitializeFrameworkResponse, the EAC1 and EAC2 answers, a TransmitResponse (their RelatesTo
    /// the placeholder for the server's last MessageID).
    @Test func serverSession() throws {
        let placeholder = String(decoding: ServerSessionFuzzing.lastMessageIDPlaceholder, as: UTF8.self)
        let start = PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: "fuzz")), messageID: "urn:uuid:1")
        let eac1 = PAOSEnvelope(
            .didAuthenticateResponse(
                DIDAuthenticateResponse(
                    .eac1(
                        EAC1OutputType(
                            retryCounter: 3,
                            chat: CHAT(role: .terminal, rights: SessionConfiguration.defaultRequiredRights).encoded,
                            certificationAuthorityReferences: [TestCertificateAuthority.projectHolderReference],
                            efCardAccess: SimulatorSecurityInfos.cardAccess,
                            idPICC: [UInt8](repeating: 0x11, count: 32),
                            challenge: [UInt8](repeating: 0x22, count: 8))))),
            messageID: "urn:uuid:2", relatesTo: placeholder)
        let eac2 = PAOSEnvelope(
            .didAuthenticateResponse(
                DIDAuthenticateResponse(
                    .eac2(
                        EAC2OutputType(
                            efCardSecurity: try SimulatorSecurityInfos.cardSecurity(),
                            authenticationToken: [UInt8](repeating: 0x33, count: 8),
                            nonce: [UInt8](repeating: 0x44, count: 8))))),
            messageID: "urn:uuid:3", relatesTo: placeholder)
        let transmit = PAOSEnvelope(
            .transmitResponse(TransmitResponse(outputAPDUs: [[0x90, 0x00]])), messageID: "urn:uuid:4",
            relatesTo: placeholder)
        let initialize = PAOSEnvelope(
            .initializeFrameworkResponse(InitializeFrameworkResponse()), messageID: "urn:uuid:5",
            relatesTo: placeholder)
        let bodies = [start, eac1, eac2, transmit].map { $0.encoded() }
        let seeds: [(ServerFault?, [[UInt8]], String)] = [
            (nil, bodies, "client-start-eac1-eac2-transmit"),
            (nil, Array(bodies.prefix(2)), "client-start-eac1"),
            (.initializeFramework, [bodies[0], initialize.encoded()] + bodies[1...], "initframework-client-all"),
            (.eacAdditional, bodies, "eac-additional-client-all"),
            (.auxAge, bodies, "aux-age-client-all"),
            (.wrongOrder, Array(bodies.prefix(2)), "wrong-order-client-start-eac1"),
        ]
        for (fault, parts, name) in seeds {
            try write(ServerSessionFuzzing.seed(fault: fault, bodies: parts), .serverSession, name)
        }
        for (body, name) in zip(bodies, ["startpaos", "eac1-response", "eac2-response", "transmit-response"]) {
            try write(body, .paos, "client-\(name).xml")
        }
    }
}

/// Passes commands to `underlying` and keeps them.
final class RecordingChannel: CardChannel, @unchecked Sendable {
    let underlying: CardChannel
    private(set) var commands: [CommandAPDU] = []
    init(_ underlying: CardChannel) { self.underlying = underlying }
    var supportsExtendedLength: Bool { underlying.supportsExtendedLength }
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        commands.append(command)
        return try underlying.transmit(command)
    }
}
