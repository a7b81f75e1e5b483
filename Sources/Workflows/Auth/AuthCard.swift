import EAC
import SmartCard

/// What the authentication workflow needs of an eID card in one card session (docs/protocol.md, "PACE",
/// "Terminal Authentication", "Chip Authentication"): the PIN card's PACE (with the effective CHAT), the EAC1
/// and EAC2 steps, and the server's APDUs after Chip Authentication. Failures are `CardError`s, or
/// `EACStepError` for a refused EAC step.
public protocol AuthCard: PINManagementCard {
    /// EAC1 on the card: GET CHALLENGE, with what PACE gave (ID_PICC, the card's CARs) and EF.CardAccess.
    func didAuthenticateEAC1() throws -> EAC1CardData
    /// EAC2 on the card: EF.CardSecurity (passive authentication), Terminal Authentication of
    /// `chain` with the server's `signature`, Chip Authentication with `ephemeralKey`. After it
    /// the client's own secure messaging ends: the server's APDUs come protected.
    func didAuthenticateEAC2(
        chain: [CVCertificate], ephemeralKey: [UInt8], auxiliaryData: [UInt8]?, signature: [UInt8]
    ) throws -> EAC2CardData
    /// Sends one APDU of the server unchanged and returns the card's response (data and status word).
    func transmit(_ apdu: [UInt8]) throws -> [UInt8]
}

/// What EAC1 takes from the card.
public struct EAC1CardData: Equatable, Sendable {
    public var challenge: [UInt8]
    public var idPICC: [UInt8]
    public var efCardAccess: [UInt8]
    /// CAR 1 and CAR 2 from PACE: the CVCAs the card trusts.
    public var certificationAuthorityReferences: [String]

    public init(challenge: [UInt8], idPICC: [UInt8], efCardAccess: [UInt8], certificationAuthorityReferences: [String])
    {
        self.challenge = challenge
        self.idPICC = idPICC
        self.efCardAccess = efCardAccess
        self.certificationAuthorityReferences = certificationAuthorityReferences
    }
}

/// What EAC2 takes from the card.
public struct EAC2CardData: Equatable, Sendable {
    public var efCardSecurity: [UInt8]
    public var nonce: [UInt8]
    public var token: [UInt8]

    public init(efCardSecurity: [UInt8], nonce: [UInt8], token: [UInt8]) {
        self.efCardSecurity = efCardSecurity
        self.nonce = nonce
        self.token = token
    }
}

/// Why an EAC step on the card failed without the card or reader failing.
public enum EACStepError: Error, Equatable, Sendable {
    /// The card refused Terminal or Chip Authentication (AusweisApp: Workflow_No_Permission_Error).
    case refused
    /// EF.CardSecurity does not verify under the configured CSCA (`eid auth --csca`).
    case cardNotGenuine
    /// EF.CardSecurity is not SignedData over SecurityInfos, or offers no Chip Authentication
    /// eid runs (AusweisApp: a protocol error of its EAC2 command, Workflow_No_Permission_Error).
    case cardSecurityUnusable
    /// The server's ephemeral key is not a point on the card's Chip Authentication curve.
    case invalidEphemeralKey
}
