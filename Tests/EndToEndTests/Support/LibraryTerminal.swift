import CardSimulator
import EAC
import EIDCrypto
import PCSC
import SmartCard
import TestPKI

/// A test terminal built from eid's library, speaking to a card through pcscd (`PCSCReaderProvider`,
/// `PCSCCard`): PACE with a CHAT, Terminal Authentication with a test PKI terminal's key,
/// passive authentication of EF.CardSecurity against the simulator's test CSCA, Chip
/// Authentication, then commands under the CA keys.
final class LibraryTerminal {
    let connection: CardConnection
    private(set) var pace: PACEResult?
    private(set) var secure: SecureMessaging?
    private var ephemeral: ECKeyPair?

    /// Opens the card in `reader` exclusively (no other program's command can end its secure
    /// messaging while the test runs).
    init(reader: String) throws {
        connection = try PCSCReaderProvider().connect(reader: reader, exclusive: true)
    }

    deinit { connection.disconnect(resetCard: true) }

    /// APDUs sent to the card so far.
    var apduCount: Int { (connection as? PCSCCard)?.transmitCount ?? 0 }

    /// PACE with the PIN and, for TA, `chat`.
    func runPACE(chat: CHAT?, pin: String = "123456") throws {
        let infos = try SecurityInfos(efCardAccess: try connection.readFile(shortFileID: EIDFile.cardAccessShortID))
        let run = try PACE(
            channel: connection, paceInfo: try infos.runnablePACEInfo(), password: .pin(pin), chat: chat?.encoded)
        let (result, channel) = try run.establishSecureMessaging()
        pace = result
        secure = channel
    }

    /// TA with `terminal`'s chain, after the CVCA link certificates `links` (sent from the card's
    /// CAR on), and a signer (by default its own key).
    func runTerminalAuthentication(
        _ terminal: TestTerminal, links: [CVCertificate] = [], signer: TerminalSigner? = nil
    ) throws {
        guard let pace, let secure else { throw E2EError.unexpected("TA before PACE") }
        let key = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        ephemeral = key
        try TerminalAuthentication(channel: secure).run(
            chain: links + terminal.chain, cardTrustPoints: [pace.mostRecentCAR, pace.previousCAR].compactMap { $0 },
            idPICC: pace.idPICC, ephemeralKey: key.publicKey,
            signer: signer
                ?? KeyTerminalSigner(
                    privateKey: terminal.terminal.keyPair.privateKey,
                    algorithm: terminal.terminal.certificate.body.publicKey.algorithm))
    }

    /// Reads EF.CardSecurity, verifies it against the test CSCA (passive authentication) and runs
    /// CA with the key TA announced; secure messaging goes on under the CA keys.
    func runChipAuthentication() throws {
        guard let secure else { throw E2EError.unexpected("CA before PACE") }
        let infos = try PassiveAuthentication.verify(
            try PassiveAuthentication.readCardSecurity(secure), csca: SimulatorTestPKI.csca)
        let selection = try ChipAuthentication.select(from: infos)
        let key = try ephemeral ?? ECKeyPair.generate(group: selection.publicKey.group)
        _ = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: key)
    }

    /// SELECT of the eID application (under secure messaging).
    func selectEIDApplication() throws {
        guard let secure else { throw E2EError.unexpected("no secure messaging") }
        let response = try secure.transmit(.selectApplication(EIDFile.eIDApplicationID))
        guard response.isSuccess else { throw CardError.statusWord(response.statusWord) }
    }

    /// READ BINARY of data group `number` by short file ID: its content, or the status word.
    func readDataGroup(_ number: UInt8) throws -> Result<[UInt8], StatusWordFailure> {
        guard let secure else { throw E2EError.unexpected("no secure messaging") }
        do {
            return .success(try secure.readFile(shortFileID: number))
        } catch CardError.statusWord(let sw) {
            return .failure(StatusWordFailure(statusWord: sw))
        }
    }
}

/// A status word other than 9000, as a value a test can compare.
struct StatusWordFailure: Error, Equatable {
    let statusWord: StatusWord
}

/// The text of a data group holding one string (DG4 `64 { 0C "ERIKA" }`, DG8 `68 { 12 "19840812" }`).
func dataGroupText(_ content: [UInt8]) -> String? {
    guard let group = try? TLV.parse(content), let value = try? group.children().first else { return nil }
    return String(decoding: value.value, as: UTF8.self)
}
