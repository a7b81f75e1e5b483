import EAC
import EIDCrypto

/// The card side of a server's own test PKI (`ServerPKIDirectory`): SecurityInfos shaped like a
/// real nPA's (TerminalAuthenticationInfo, ChipAuthenticationInfo, PACEInfo and
/// ChipAuthenticationDomainParameterInfo, all brainpoolP256r1, AES-128) with a fresh static
/// Chip Authentication key, whose public half goes into EF.CardSecurity. An emulated card given
/// these files (and the CVCA) passes the server's passive authentication.
struct MatchingCard {
    static let brainpoolP256r1ParameterID = 13
    static let keyID = 65

    let chipAuthentication: ChipAuthenticationCard

    static func generate() throws -> MatchingCard {
        let key = try ECKeyPair.generate(group: try ECGroup(.brainpoolP256r1))
        return MatchingCard(
            chipAuthentication: ChipAuthenticationCard(protocol: .ecdhAES128, keyID: keyID, staticKey: key))
    }

    /// The SecurityInfos of EF.CardAccess.
    var cardAccessInfos: SecurityInfos {
        SecurityInfos([
            .terminalAuthentication(TerminalAuthenticationInfo(protocol: .idTA, version: 2)),
            .chipAuthentication(
                ChipAuthenticationInfo(
                    protocol: ChipAuthenticationProtocol.ecdhAES128.oid, version: 2, keyID: Self.keyID)),
            .pace(
                PACEInfo(protocol: OID.idPACE.appending(2, 2), version: 2, parameterID: Self.brainpoolP256r1ParameterID)
            ),
            .chipAuthenticationDomainParameter(
                ChipAuthenticationDomainParameterInfo(
                    protocol: OID.idCA.appending(2), domainParameter: .standardized(Self.brainpoolP256r1ParameterID),
                    keyID: Self.keyID)),
        ])
    }

    var cardAccess: [UInt8] { cardAccessInfos.der }

    /// EF.CardAccess's SecurityInfos and the ChipAuthenticationPublicKeyInfo: what the document
    /// signer signs as EF.CardSecurity.
    var cardSecurityInfos: SecurityInfos {
        let publicKey = chipAuthentication.securityInfos(domainParameterID: Self.brainpoolP256r1ParameterID).filter {
            if case .chipAuthenticationPublicKey = $0 { return true } else { return false }
        }
        return SecurityInfos(cardAccessInfos.infos + publicKey)
    }
}
