import EAC
import EIDCrypto
import Foundation
import SmartCard
import TestPKI
import Testing

/// eid's library as a terminal through the real pcscd and vpcd to eid-sim (issue 8's end-to-end
/// proof): PACE with a CHAT → TA with a terminal certificate the test PKI issues now →
/// passive authentication of EF.CardSecurity → CA → READ BINARY of DG4, DG5, DG8.
extension ThroughPCSCD {
    @Suite struct EACThroughPCSCDTests {
        static let chat = CHAT(role: .terminal, rights: [.readDG4, .readDG5, .readDG8])

        /// The sample's values (docs/protocol.md, "Sample data") of the data groups a test reads.
        static let sample: [UInt8: String] = [4: "ERIKA", 5: "MUSTERMANN", 8: "19840812"]

        @Test func paceTAPassiveAuthenticationCAThenTheDataGroupsAreRead() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TestCertificateAuthority.project.issueTerminal()
                let eac = try LibraryTerminal(reader: reader)
                try eac.runPACE(chat: Self.chat)
                #expect(eac.pace?.mostRecentCAR == TestCertificateAuthority.project.holderReference)
                try eac.runTerminalAuthentication(terminal)
                try eac.runChipAuthentication()
                try eac.selectEIDApplication()
                for (number, text) in Self.sample {
                    let content = try eac.readDataGroup(number).get()
                    #expect(dataGroupText(content) == text, "DG\(number)")
                }
                // DG1 is not in the CHAT: 6982, and the channel stays usable.
                #expect(
                    try eac.readDataGroup(1) == .failure(StatusWordFailure(statusWord: .securityStatusNotSatisfied)))
                #expect(dataGroupText(try eac.readDataGroup(5).get()) == "MUSTERMANN")
            }
        }

        /// A CVCA rollover through pcscd (issue 15): TA with the link certificate from the card's
        /// CVCA to the next one before the DV; after a reset the card names the new CVCA as
        /// CAR_curr (the old as CAR_prev) and takes a chain under it without the link.
        @Test func aLinkCertificateMovesEidSimsTrustPointOn() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let today = CalendarDate.todayUTC()
                let old = TestCertificateAuthority.project
                let rollover = try old.link(
                    to: "DEEIDTESTCA00002", effectiveDate: today, expirationDate: try today.adding(days: 1000))
                let terminal = try rollover.successor.issueTerminal(rights: Self.chat.accessRights)
                do {
                    let eac = try LibraryTerminal(reader: reader)
                    try eac.runPACE(chat: Self.chat)
                    #expect(eac.pace?.mostRecentCAR == old.holderReference)
                    #expect(eac.pace?.previousCAR == nil)
                    try eac.runTerminalAuthentication(terminal, links: [rollover.link])
                    try eac.runChipAuthentication()
                    try eac.selectEIDApplication()
                    #expect(dataGroupText(try eac.readDataGroup(4).get()) == "ERIKA")
                }
                let eac = try LibraryTerminal(reader: reader)
                try eac.runPACE(chat: Self.chat)
                #expect(eac.pace?.mostRecentCAR == "DEEIDTESTCA00002")
                #expect(eac.pace?.previousCAR == old.holderReference)
                try eac.runTerminalAuthentication(terminal)
                try eac.runChipAuthentication()
                try eac.selectEIDApplication()
                #expect(dataGroupText(try eac.readDataGroup(5).get()) == "MUSTERMANN")
            }
        }

        @Test func aCHATWithoutDG4Gets6982ForDG4Only() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TestCertificateAuthority.project.issueTerminal()
                let eac = try LibraryTerminal(reader: reader)
                try eac.runPACE(chat: CHAT(role: .terminal, rights: [.readDG5, .readDG8]))
                try eac.runTerminalAuthentication(terminal)
                try eac.runChipAuthentication()
                try eac.selectEIDApplication()
                #expect(
                    try eac.readDataGroup(4) == .failure(StatusWordFailure(statusWord: .securityStatusNotSatisfied)))
                #expect(dataGroupText(try eac.readDataGroup(5).get()) == "MUSTERMANN")
                #expect(dataGroupText(try eac.readDataGroup(8).get()) == "19840812")
            }
        }

        @Test func aWrongTASignatureLeavesNothingReadable() throws {
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                let terminal = try TestCertificateAuthority.project.issueTerminal()
                let eac = try LibraryTerminal(reader: reader)
                try eac.runPACE(chat: Self.chat)
                // Signed with the DV's key instead of the terminal's.
                let wrong = KeyTerminalSigner(
                    privateKey: terminal.documentVerifier.keyPair.privateKey, algorithm: .ecdsaSHA256)
                #expect(throws: TerminalAuthenticationError.refused(step: .externalAuthenticate, .verificationFailed)) {
                    try eac.runTerminalAuthentication(terminal, signer: wrong)
                }
                #expect(throws: ChipAuthenticationError.refused(step: .generalAuthenticate, .conditionsNotSatisfied)) {
                    try eac.runChipAuthentication()
                }
                try eac.selectEIDApplication()
                for number in Self.sample.keys {
                    #expect(
                        try eac.readDataGroup(number)
                            == .failure(StatusWordFailure(statusWord: .securityStatusNotSatisfied)), "DG\(number)")
                }
            }
        }

        /// A terminal certificate that expired before the card's current date: issued 40 days
        /// ago for 30 days against today's card, and a fresh one against a card whose
        /// `--date` is 60 days ahead. The card refuses it at PSO:Verify Certificate (6A80).
        @Test func anExpiredTerminalCertificateFailsTA() throws {
            let today = CalendarDate.todayUTC()
            let issuedLongAgo = try TestCertificateAuthority.project.issueTerminal(
                effectiveDate: try today.adding(days: -40), validForDays: 30)
            let fresh = try TestCertificateAuthority.project.issueTerminal()
            let later = try today.adding(days: 60)
            let laterText = String(format: "%04d-%02d-%02d", later.year, later.month, later.day)
            for (terminal, arguments) in [(issuedLongAgo, [String]()), (fresh, ["--date", laterText])] {
                try E2E.pool.withReader { reader, port in
                    let card = try SimulatedCard(reader: reader, port: port, arguments: arguments)
                    defer { card.stop() }
                    let eac = try LibraryTerminal(reader: reader)
                    try eac.runPACE(chat: Self.chat)
                    #expect(
                        throws: TerminalAuthenticationError.refused(step: .verifyCertificate, .wrongData),
                        "\(arguments)"
                    ) { try eac.runTerminalAuthentication(terminal) }
                    try eac.selectEIDApplication()
                    #expect(
                        try eac.readDataGroup(4) == .failure(StatusWordFailure(statusWord: .securityStatusNotSatisfied))
                    )
                }
            }
        }
    }
}
