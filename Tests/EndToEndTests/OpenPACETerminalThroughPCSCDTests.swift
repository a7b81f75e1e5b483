import COpenPACE
import EAC
import Foundation
import OpenPACEPeer
import PCSC
import SmartCard
import TestPKI
import Testing

/// Issue 8's acceptance: with `eid-sim --cvca X` in the test pcscd, an independent terminal
/// (OpenPACE's terminal computations: PACE, secure messaging, TA signature, CA key agreement and
/// token check; its APDUs through pcscd) holding a DV and AT certificate issued under X
/// authenticates and reads the sample data; the same terminal with certificates under another
/// CVCA is refused at PSO:Verify Certificate.
extension ThroughPCSCD {
    @Suite struct OpenPACETerminalThroughPCSCDTests {
        /// A fresh test CVCA X (not the project's), written to a file for `eid-sim --cvca`.
        static func cvca(named holderReference: String) throws -> TestCertificateAuthority {
            let today = CalendarDate.todayUTC()
            return try TestCertificateAuthority.generate(
                holderReference: holderReference, effectiveDate: today, expirationDate: try today.adding(days: 365))
        }

        static func write(_ cvca: TestCertificateAuthority) throws -> URL {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("eid-e2e-cvca-\(getpid())-\(cvca.holderReference).cvcert")
            try Data(try cvca.certificate.encoded).write(to: file)
            return file
        }

        /// OpenPACE's terminal after PACE with the PIN and a CHAT for DG4, DG5, DG8, through pcscd.
        static func openPACETerminal(reader: String) throws -> (OpenPACETerminal, CardConnection) {
            let connection = try PCSCReaderProvider().connect(reader: reader, exclusive: true)
            let cardAccess = try connection.readFile(shortFileID: EIDFile.cardAccessShortID)
            let terminal = try OpenPACETerminal(channel: connection, cardAccess: cardAccess, password: "123456")
            terminal.chat = CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG8]).encoded
            try terminal.establish()
            return (terminal, connection)
        }

        /// TA and CA by OpenPACE with `terminal`'s certificates and key.
        static func authenticate(_ openPACE: OpenPACETerminal, as terminal: TestTerminal) throws {
            try openPACE.runTerminalAndChipAuthentication(
                cvca: try terminal.cvca.encoded, chain: try terminal.chain.map { try $0.encoded },
                terminalKey: OpenPACE.brainpoolP256r1PrivateKeyDER(
                    scalar: try terminal.terminal.keyPair.privateKey.rawScalar()))
        }

        /// SELECT eID, then READ BINARY of DG`number` by short file ID, protected by OpenPACE.
        static func read(_ number: UInt8, with openPACE: OpenPACETerminal) throws -> ResponseAPDU {
            try openPACE.transmitProtected(CommandAPDU(ins: 0xB0, p1: 0x80 | number, p2: 0, ne: 256))
        }

        static func selectEID(_ openPACE: OpenPACETerminal) throws {
            let response = try openPACE.transmitProtected(
                CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: EIDFile.eIDApplicationID))
            #expect(response.statusWord == .success)
        }

        @Test func aTerminalUnderTheCardsCVCAReadsTheSampleAndOneUnderAnotherIsRefusedAtPSOVerify() throws {
            let x = try Self.cvca(named: "DEEIDCVCAX00001")
            let file = try Self.write(x)
            defer { try? FileManager.default.removeItem(at: file) }
            // Another CVCA with the same name (so the card looks up its own X for the DV's CAR and
            // the signature is what fails), and the project's CVCA, which the card does not know.
            let impostor = try Self.cvca(named: "DEEIDCVCAX00001")
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--cvca", file.path])
                defer { card.stop() }

                let (openPACE, connection) = try Self.openPACETerminal(reader: reader)
                try Self.authenticate(openPACE, as: try x.issueTerminal())
                try Self.selectEID(openPACE)
                let expected: [UInt8: [UInt8]] = [
                    4: [0x64, 0x07, 0x0C, 0x05] + Array("ERIKA".utf8),
                    5: [0x65, 0x0C, 0x0C, 0x0A] + Array("MUSTERMANN".utf8),
                    8: [0x68, 0x0A, 0x12, 0x08] + Array("19840812".utf8),
                ]
                for (number, content) in expected {
                    let response = try Self.read(number, with: openPACE)
                    #expect(response.statusWord == .success && response.data == content, "DG\(number)")
                }
                connection.disconnect(resetCard: true)

                let (refused, again) = try Self.openPACETerminal(reader: reader)
                defer { again.disconnect(resetCard: true) }
                #expect(
                    throws: OpenPACETerminal.EACRefusal(step: .verifyCertificate, statusWord: .authenticationFailed)
                ) {
                    try Self.authenticate(refused, as: try impostor.issueTerminal())
                }
                try Self.selectEID(refused)
                #expect(try Self.read(4, with: refused).statusWord == .securityStatusNotSatisfied)
            }
        }

        @Test func aTerminalUnderACVCATheCardDoesNotKnowIsRefusedAtSetDST() throws {
            let x = try Self.cvca(named: "DEEIDCVCAX00002")
            let file = try Self.write(x)
            defer { try? FileManager.default.removeItem(at: file) }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: ["--cvca", file.path])
                defer { card.stop() }
                let (openPACE, connection) = try Self.openPACETerminal(reader: reader)
                defer { connection.disconnect(resetCard: true) }
                // The project's test CVCA is eid-sim's default anchor, but not this card's.
                let stranger = try TestCertificateAuthority.project.issueTerminal()
                #expect(throws: OpenPACETerminal.EACRefusal(step: .setDST, statusWord: .referenceDataNotFound)) {
                    try Self.authenticate(openPACE, as: stranger)
                }
                try Self.selectEID(openPACE)
                #expect(try Self.read(4, with: openPACE).statusWord == .securityStatusNotSatisfied)
            }
        }
    }
}
