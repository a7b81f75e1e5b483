import CardSimulator
import EAC
import EIDCrypto
import Foundation
import PCSC
import SmartCard
import TestPKI

/// `eid-bench eac READER [RUNS]`: against the card in READER (eid-sim in the test pcscd), each run
/// connects, runs PACE with the PIN and a CHAT (timed apart), then times Terminal Authentication
/// (DV and terminal certificate from the test PKI), Chip Authentication (EF.CardSecurity, passive
/// authentication, MSE:Set AT, GENERAL AUTHENTICATE), SELECT of the eID application and READ
/// BINARY of five data groups, counting the APDUs. Measured, never asserted.
enum EACBench {
    static let dataGroups: [UInt8] = [4, 5, 8, 9, 17]

    static func wallSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func run(reader: String, runs: Int) throws {
        let terminal = try TestCertificateAuthority.project.issueTerminal()
        let chat = CHAT(role: .terminal, rights: Set(dataGroups.compactMap { AccessRight(rawValue: 7 + Int($0)) }))
        let signer = KeyTerminalSigner(privateKey: terminal.terminal.keyPair.privateKey, algorithm: .ecdsaSHA256)
        let provider = try PCSCReaderProvider()
        var paceTimes: [Double] = []
        var eacTimes: [Double] = []
        var apdus: [Int] = []
        for _ in 0..<runs {
            let connection = try provider.connect(reader: reader, exclusive: true)
            defer { connection.disconnect(resetCard: true) }
            guard let card = connection as? PCSCCard else { throw BenchError.notPCSCCard }
            let paceStart = wallSeconds()
            let infos = try SecurityInfos(efCardAccess: try card.readFile(shortFileID: EIDFile.cardAccessShortID))
            let pace = try PACE(
                channel: card, paceInfo: try infos.runnablePACEInfo(), password: .pin("123456"), chat: chat.encoded)
            let (result, secure) = try pace.establishSecureMessaging()
            paceTimes.append(wallSeconds() - paceStart)

            let before = card.transmitCount
            let start = wallSeconds()
            let ephemeral = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
            try TerminalAuthentication(channel: secure).run(
                chain: terminal.chain, cardTrustPoints: [result.mostRecentCAR, result.previousCAR].compactMap { $0 },
                idPICC: result.idPICC, ephemeralKey: ephemeral.publicKey, signer: signer)
            let cardSecurity = try PassiveAuthentication.readCardSecurity(secure)
            let selection = try ChipAuthentication.select(
                from: try PassiveAuthentication.verify(cardSecurity, csca: SimulatorTestPKI.csca))
            _ = try ChipAuthentication(channel: secure).run(selection: selection, ephemeralKey: ephemeral)
            guard try secure.transmit(.selectApplication(EIDFile.eIDApplicationID)).isSuccess else {
                throw BenchError.refused("SELECT of the eID application")
            }
            for number in dataGroups { _ = try secure.readFile(shortFileID: number) }
            eacTimes.append(wallSeconds() - start)
            apdus.append(card.transmitCount - before)
        }
        paceTimes.sort()
        eacTimes.sort()
        let ms = { (t: Double) in t * 1000 }
        print(
            String(
                format: "%-34@ wall median %6.1f ms  (min %.1f, max %.1f, n=%d)",
                "PACE with a CHAT, through pcscd" as NSString, ms(paceTimes[runs / 2]), ms(paceTimes[0]),
                ms(paceTimes[runs - 1]), runs))
        print(
            String(
                format: "%-34@ wall median %6.1f ms  (min %.1f, max %.1f, n=%d)  APDUs %d",
                "TA + CA + read 5 DGs, after PACE" as NSString, ms(eacTimes[runs / 2]), ms(eacTimes[0]),
                ms(eacTimes[runs - 1]), runs, apdus.max() ?? 0))
        print("  (TA with DV and terminal certificate, EF.CardSecurity with passive authentication, CA, SELECT eID,")
        print("   READ BINARY of DG\(dataGroups.map(String.init).joined(separator: ", DG")))")
    }
}
