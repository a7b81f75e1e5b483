import EAC
import EIDCrypto
import SmartCard
import TestPKI

extension CardProfile {
    /// The static Chip Authentication key pair of a profile's private scalar, on brainpoolP256r1
    /// (the curve of the card's ChipAuthenticationDomainParameterInfo).
    static func chipAuthenticationKeyPair(_ scalar: [UInt8]) throws -> ECKeyPair {
        try ECKeyPair(group: try ECGroup(.brainpoolP256r1), privateScalar: scalar)
    }

    /// The card's Chip Authentication: the profile's key, or the TEST ONLY key of
    /// `DocumentTestPKI`.
    func chipAuthentication() throws -> ChipAuthenticationCard {
        guard let chipAuthenticationKey else { return SimulatorSecurityInfos.chipAuthentication }
        return ChipAuthenticationCard(
            protocol: .ecdhAES128, keyID: SimulatorSecurityInfos.chipAuthenticationKeyID,
            staticKey: try CardProfile.chipAuthenticationKeyPair(chipAuthenticationKey))
    }

    /// EF.CardSecurity for this profile: the default one, or one carrying the profile's Chip
    /// Authentication public key, signed by the TEST ONLY document signer.
    func cardSecurity(chipAuthentication: ChipAuthenticationCard) throws -> [UInt8] {
        guard chipAuthenticationKey != nil else { return SimulatorSecurityInfos.defaultCardSecurity }
        return try SimulatorSecurityInfos.cardSecurity(chipAuthentication: chipAuthentication)
    }
}
