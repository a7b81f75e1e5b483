import EAC
import SmartCard

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

    /// A stand-in for EF.CardSecurity until Chip Authentication exists: a CMS ContentInfo of
    /// type signedData with an empty SEQUENCE as content. Not signed.
    public static let cardSecurityPlaceholder: [UInt8] = TLV(
        tag: 0x30,
        children: [
            OID.signedData.tlv,
            TLV(tag: 0xA0, children: [TLV(tag: 0x30, value: [])]),
        ]
    ).bytes
}
