import EAC
import EIDCrypto
import SmartCard
import TestPKI

/// The terminal of the card-simulator fuzz target: a DV and an authentication terminal under the
/// project's test CVCA (TEST ONLY) with fixed keys, so that seeds written once carry certificates
/// whose keys the harness still holds (for EXTERNAL AUTHENTICATE and Chip Authentication).
public enum CardSimulatorTerminal {
    static func key(_ byte: UInt8) -> ECKeyPair {
        do {
            return try ECKeyPair(
                group: try TestCertificateAuthority.project.certificate.body.publicKey.group(inheriting: nil),
                privateScalar: [UInt8](repeating: byte, count: 32))
        } catch { preconditionFailure("the fuzz terminal's fixed key: \(error)") }
    }

    static let documentVerifierKey = key(0x11)
    static let terminalKey = key(0x22)
    static let ephemeralKey = key(0x33)

    /// The DV and terminal certificates (valid around `CardSimulatorFuzzing.date`), and the TA and
    /// CA commands of eid's terminal with them, then the reads of three data groups: the EAC seed.
    public static func eacSeed() throws -> [UInt8] {
        let cvca = TestCertificateAuthority.project
        let algorithm = cvca.certificate.body.publicKey.algorithm
        let from = CalendarDate(year: 2026, month: 11, day: 1)!
        let until = CalendarDate(year: 2027, month: 1, day: 31)!
        let dv = try CVCertificateBody(
            authorityReference: cvca.certificate.body.holderReference,
            publicKey: try CVPublicKey(
                algorithm: algorithm, point: documentVerifierKey.publicKey, includingDomainParameters: false),
            holderReference: "DEFUZZDV00001", chat: CHAT(role: .dvOfficialDomestic, rights: Set(AccessRight.allCases)),
            effectiveDate: from, expirationDate: until
        ).signed(by: cvca.keyPair.privateKey, algorithm: algorithm)
        let terminal = try CVCertificateBody(
            authorityReference: dv.body.holderReference,
            publicKey: try CVPublicKey(
                algorithm: algorithm, point: terminalKey.publicKey, includingDomainParameters: false),
            holderReference: "DEFUZZAT00001", chat: CardSimulatorFuzzing.chat, effectiveDate: from,
            expirationDate: until
        ).signed(by: documentVerifierKey.privateKey, algorithm: algorithm)
        let template = TerminalAuthenticationTemplate(
            algorithm: algorithm, holderReference: terminal.body.holderReference, auxiliaryData: nil,
            compressedEphemeralKey: TerminalAuthenticationSignatureInput.compress(ephemeralKey.publicKey))
        let ta: [CommandAPDU] = [
            try .mseSetDST(authorityReference: cvca.certificate.body.holderReference), try .psoVerifyCertificate(dv),
            try .mseSetDST(authorityReference: dv.body.holderReference), try .psoVerifyCertificate(terminal),
            try .mseSetAT(terminalAuthentication: template), try .getChallenge(),
        ]
        let reads: [CommandAPDU] = [
            try .selectApplication(EIDFile.eIDApplicationID), try .readBinary(shortFileID: 0x01, ne: 256),
            try .readBinary(shortFileID: 0x04, ne: 256), try .readBinary(shortFileID: 0x09, ne: 256),
        ]
        return CardSimulatorFuzzing.seed(ta)
            + FuzzFields.join([
                [CardSimulatorFuzzing.signedExternalAuthenticate], [CardSimulatorFuzzing.chipAuthentication],
            ])
            + CardSimulatorFuzzing.seed(reads)
    }
}
