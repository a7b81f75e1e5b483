import EAC
import EIDCrypto

/// A CVCA → DV → terminal PKI issued by the library on brainpoolP256r1, for tests.
struct TestPKI {
    let cvcaKey: ECKeyPair
    let dvKey: ECKeyPair
    let terminalKey: ECKeyPair
    let cvca: CVCertificate
    let dv: CVCertificate
    let terminal: CVCertificate
    static let today = CalendarDate(year: 2026, month: 11, day: 23)!

    static let dvRights: Set<AccessRight> = [
        .readDG1, .readDG2, .readDG3, .readDG4, .readDG5, .readDG8, .readDG17, .ageVerification,
        .communityIDVerification, .restrictedIdentification, .canAllowed,
    ]

    init(
        curve: ECCurve = .brainpoolP256r1, terminalRights: Set<AccessRight> = [.readDG4, .readDG5, .readDG8],
        descriptionHash: [UInt8]? = nil
    ) throws {
        let group = try ECGroup(curve)
        cvcaKey = try ECKeyPair.generate(group: group)
        dvKey = try ECKeyPair.generate(group: group)
        terminalKey = try ECKeyPair.generate(group: group)
        cvca = try CVCertificateBody(
            authorityReference: "DETESTCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: cvcaKey.publicKey, includingDomainParameters: true),
            holderReference: "DETESTCVCA00001", chat: CHAT(role: .cvca, rights: Set(AccessRight.allCases)),
            effectiveDate: CalendarDate(year: 2026, month: 1, day: 1)!,
            expirationDate: CalendarDate(year: 2029, month: 1, day: 1)!
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        dv = try CVCertificateBody(
            authorityReference: "DETESTCVCA00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: dvKey.publicKey, includingDomainParameters: false),
            holderReference: "DEDVTEST00001", chat: CHAT(role: .dvOfficialDomestic, rights: TestPKI.dvRights),
            effectiveDate: CalendarDate(year: 2026, month: 11, day: 1)!,
            expirationDate: CalendarDate(year: 2027, month: 2, day: 1)!
        ).signed(by: cvcaKey.privateKey, algorithm: .ecdsaSHA256)
        terminal = try CVCertificateBody(
            authorityReference: "DEDVTEST00001",
            publicKey: try CVPublicKey(
                algorithm: .ecdsaSHA256, point: terminalKey.publicKey, includingDomainParameters: false),
            holderReference: "DEATTEST00001", chat: CHAT(role: .terminal, rights: terminalRights),
            effectiveDate: CalendarDate(year: 2026, month: 11, day: 20)!,
            expirationDate: CalendarDate(year: 2026, month: 12, day: 20)!,
            extensions: descriptionHash.map { [CertificateExtension.description(hash: $0)] }
        ).signed(by: dvKey.privateKey, algorithm: .ecdsaSHA256)
    }
}
