import CardAccess

/// The SecurityInfos of the simulated card (BSI TR-03110-3, appendix A.1.1), shaped like a
/// real nPA's EF.CardAccess: TerminalAuthenticationInfo, ChipAuthenticationInfo,
/// PACEInfo and ChipAuthenticationDomainParameterInfo, a DER SET OF SEQUENCEs.
public enum SimulatorSecurityInfos {
    public static let terminalAuthentication = "0.4.0.127.0.7.2.2.2"
    public static let chipAuthenticationECDHAES128 = "0.4.0.127.0.7.2.2.3.2.2"
    public static let chipAuthenticationECDH = "0.4.0.127.0.7.2.2.3.2"
    public static let paceECDHGMAES128 = "0.4.0.127.0.7.2.2.4.2.2"
    /// id-ecc (standardized domain parameters, TR-03110-3 A.2.1.1).
    public static let standardizedDomainParameters = "0.4.0.127.0.7.1.2"
    /// brainpoolP256r1.
    public static let brainpoolP256r1ParameterID = 13
    /// The Chip Authentication key id (65 = 0x41, as on real cards).
    public static let chipAuthenticationKeyID = 65

    /// The PACE protocols the card implements, as OID content bytes (what MSE:Set AT accepts).
    public static let supportedPACEProtocols: [[UInt8]] = [DER.objectIdentifierContent(paceECDHGMAES128)]

    /// The default content of EF.CardAccess.
    public static let cardAccess: [UInt8] = {
        let ta = DER.sequence([DER.objectIdentifier(terminalAuthentication), DER.integer(2)])
        let ca = DER.sequence([
            DER.objectIdentifier(chipAuthenticationECDHAES128), DER.integer(2), DER.integer(chipAuthenticationKeyID),
        ])
        let pace = DER.sequence([
            DER.objectIdentifier(paceECDHGMAES128), DER.integer(2), DER.integer(brainpoolP256r1ParameterID),
        ])
        let caDomain = DER.sequence([
            DER.objectIdentifier(chipAuthenticationECDH),
            DER.sequence([
                DER.objectIdentifier(standardizedDomainParameters), DER.integer(brainpoolP256r1ParameterID),
            ]),
            DER.integer(chipAuthenticationKeyID),
        ])
        return DER.setOf([ta, ca, pace, caDomain]).bytes
    }()

    /// A stand-in for EF.CardSecurity until Chip Authentication exists: a CMS ContentInfo of
    /// type signedData (1.2.840.113549.1.7.2) with an empty SEQUENCE as content. Not signed.
    public static let cardSecurityPlaceholder: [UInt8] = DER.sequence([
        DER.objectIdentifier("1.2.840.113549.1.7.2"),
        TLV(tag: 0xA0, children: [DER.sequence([])]),
    ]).bytes
}
