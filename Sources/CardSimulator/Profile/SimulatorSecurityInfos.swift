import EAC
import SmartCard
import TestPKI

/// The SecurityInfos of the simulated card (BSI TR-03110-3, appendix A.1.1), shaped like a
/// real nPA's EF.CardAccess: TerminalAuthenticationInfo, ChipAuthenticationInfo, PACEInfo and
/// ChipAuthenticationDomainParameterInfo, encoded by the EAC layer's SecurityInfos.
public enum SimulatorSecurityInfos {
    /// id-PACE-ECDH-GM-AES-CBC-CMAC-128.
    public static let paceECDHGMAES128 = OID.idPACE.appending(2, 2)
    /// id-CA-ECDH-AES-CBC-CMAC-128, and its key agreement id-CA-ECDH.
    public static let chipAuthenticationECDHAES128 = OID.idCA.appending(2, 2)
    public static let chipAuthenticationECDH = OID.idCA.appending(2)
    /// brainpoolP256r1.
    public static let brainpoolP256r1ParameterID = 13
    /// The Chip Authentication key id (65 = 0x41, as on real cards).
    public static let chipAuthenticationKeyID = 65

    /// The PACE protocols the card implements, as OID content bytes (what MSE:Set AT accepts).
    public static let supportedPACEProtocols: [[UInt8]] = [paceECDHGMAES128.derValue]

    /// The default SecurityInfos of EF.CardAccess.
    public static let securityInfos = SecurityInfos([
        .terminalAuthentication(TerminalAuthenticationInfo(protocol: .idTA, version: 2)),
        .chipAuthentication(
            ChipAuthenticationInfo(protocol: chipAuthenticationECDHAES128, version: 2, keyID: chipAuthenticationKeyID)),
        .pace(PACEInfo(protocol: paceECDHGMAES128, version: 2, parameterID: brainpoolP256r1ParameterID)),
        .chipAuthenticationDomainParameter(
            ChipAuthenticationDomainParameterInfo(
                protocol: chipAuthenticationECDH, domainParameter: .standardized(brainpoolP256r1ParameterID),
                keyID: chipAuthenticationKeyID)),
    ])

    /// The default content of EF.CardAccess.
    public static let cardAccess: [UInt8] = securityInfos.der

    /// The card's Chip Authentication: id-CA-ECDH-AES-CBC-CMAC-128, key id 65, the TEST ONLY
    /// static key of `DocumentTestPKI`.
    public static let chipAuthentication = ChipAuthenticationCard(
        protocol: .ecdhAES128, keyID: chipAuthenticationKeyID, staticKey: DocumentTestPKI.chipAuthenticationKey)

    /// The SecurityInfos of EF.CardSecurity: those of EF.CardAccess and the
    /// ChipAuthenticationPublicKeyInfo of `chipAuthentication`.
    public static func cardSecurityInfos(
        cardAccess: SecurityInfos = securityInfos, chipAuthentication: ChipAuthenticationCard = chipAuthentication
    ) -> SecurityInfos {
        let keyInfos = chipAuthentication.securityInfos(domainParameterID: brainpoolP256r1ParameterID).filter {
            if case .chipAuthenticationPublicKey = $0 { return true } else { return false }
        }
        return SecurityInfos(cardAccess.infos + keyInfos)
    }

    /// EF.CardSecurity: `cardSecurityInfos()` as CMS SignedData by the TEST ONLY document signer.
    public static func cardSecurity(
        cardAccess: SecurityInfos = securityInfos, chipAuthentication: ChipAuthenticationCard = chipAuthentication
    ) throws -> [UInt8] {
        try PassiveAuthentication.sign(
            cardSecurityInfos(cardAccess: cardAccess, chipAuthentication: chipAuthentication),
            signer: DocumentTestPKI.documentSigner, key: DocumentTestPKI.documentSignerKey)
    }

    /// The default EF.CardSecurity, signed once per process.
    public static let defaultCardSecurity: [UInt8] = (try? cardSecurity()) ?? []
}
