import EAC
import EIDCrypto
import Online
import TestPKI
import Testing

@testable import Workflows

/// The chain for the card (TR-03124-2 module C3): eid's verified chain starts at the CVCA it trusts; a card with an
/// older trust point gets the link certificates from it on, from EAC1, EAC2 or the built-in ones, and only those
/// after its newest trust point. Over the test CVCA series (`TestCVCAGenerations`), the AT under generation 4.
@Suite struct TerminalCardChainTests {
    static let tls: [UInt8] = Array("TLS certificate".utf8)
    let description: CertificateDescription
    let terminal: TestTerminal

    init() throws {
        description = try CertificateDescription(
            issuerName: "DV", subjectName: "Service", subjectURL: "https://service.example",
            termsOfUsage: .plainText("terms"), commCertificates: [try Digest.sha256.hash(Self.tls)])
        terminal = try TestCVCAGenerations.authority(4).issueTerminal(description: description)
    }

    static func chr(_ generation: Int) -> String { TestCVCAGenerations.holderReference(generation) }
    static func link(_ generation: Int) throws -> CVCertificate { try TestCVCAGenerations.link(to: generation) }

    /// EAC1 with `links`, DV and AT; eid trusting generation `trusted`.
    func check(links: [CVCertificate], trusted: Int) throws -> TerminalCheck {
        let input = EAC1InputType(
            certificates: try ([terminal.terminal.certificate, terminal.documentVerifier.certificate] + links).map {
                try $0.encoded
            }, certificateDescription: description.encoded, requiredCHAT: nil, optionalCHAT: nil)
        return try TerminalCheck(
            input, tcTokenURL: "https://service.example/tctoken",
            trustAnchors: [try TestCVCAGenerations.authority(trusted).certificate], date: .todayUTC(),
            tlsCertificates: [Self.tls])
    }

    func holders(_ chain: [CVCertificate]) -> [String] { chain.map(\.body.holderReference) }

    @Test func aChainThatReachesTheCardIsSentFromTheCardsTrustPoint() throws {
        let checked = try check(links: [try Self.link(4), try Self.link(3), try Self.link(2)], trusted: 1)
        let chain = checked.cardChain()
        #expect(holders(chain) == [1, 2, 3, 4].map(Self.chr) + ["DEEIDTESTDV00001", "DEEIDTESTAT00001"])
        #expect(checked.reachesCard([Self.chr(3)]))
        let sent = try TerminalAuthentication.certificatesToSend(chain: chain, cardTrustPoints: [Self.chr(3)])
        #expect(holders(sent) == [Self.chr(4), "DEEIDTESTDV00001", "DEEIDTESTAT00001"])
        // Two trust points: the newer one counts.
        let newest = try TerminalAuthentication.certificatesToSend(
            chain: chain, cardTrustPoints: [Self.chr(4), Self.chr(3)])
        #expect(holders(newest) == ["DEEIDTESTDV00001", "DEEIDTESTAT00001"])
    }

    @Test func eac2sLinksLeadBackToAnOlderTrustPointThanEIDs() throws {
        // eid trusts 3; EAC1 brings the link to 4; the card trusts 1: not reached, so eid names CAR 1.
        let checked = try check(links: [try Self.link(4)], trusted: 3)
        #expect(holders(checked.cardChain()) == [3, 4].map(Self.chr) + ["DEEIDTESTDV00001", "DEEIDTESTAT00001"])
        #expect(!checked.reachesCard([Self.chr(1)]))
        #expect(throws: TerminalAuthenticationError.self) {
            try TerminalAuthentication.certificatesToSend(chain: checked.cardChain(), cardTrustPoints: [Self.chr(1)])
        }
        // EAC2 brings the links to 3 and 2 (newest first), and another eService's DV and AT, which are ignored.
        let other = try TestCVCAGenerations.authority(4).issueTerminal(holderReference: "DEOTHERAT00001")
        let extra = [
            try Self.link(3), try Self.link(2), other.documentVerifier.certificate, other.terminal.certificate,
        ]
        let chain = checked.cardChain(additionalLinks: extra)
        #expect(holders(chain) == [2, 3, 4].map(Self.chr) + ["DEEIDTESTDV00001", "DEEIDTESTAT00001"])
        #expect(chain.last == terminal.terminal.certificate)
        #expect(checked.reachesCard([Self.chr(1)], additionalLinks: extra))
        let sent = try TerminalAuthentication.certificatesToSend(chain: chain, cardTrustPoints: [Self.chr(1)])
        #expect(holders(sent) == holders(chain))
    }

    @Test func withoutOlderLinksTheVerifiedChainIsUnchanged() throws {
        let checked = try check(links: [], trusted: 4)
        #expect(checked.cardChain() == checked.chain.certificates)
        #expect(
            checked.cardChain(additionalLinks: [terminal.documentVerifier.certificate]) == checked.chain.certificates)
    }
}
