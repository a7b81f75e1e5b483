/// EAC2OutputType (client, in DIDAuthenticateResponse; docs/protocol.md, "PAOS messages"): after TA and
/// CA, EF.CardSecurity, the CA token and nonce; or, when EAC2 came without a signature, only
/// the challenge (then the server sends EACAdditionalInputType).
public struct EAC2OutputType: Equatable, Sendable {
    public static let typeName = "EAC2OutputType"

    public var efCardSecurity: [UInt8]?
    /// T_PICC.
    public var authenticationToken: [UInt8]?
    /// r_PICC.
    public var nonce: [UInt8]?
    /// Only in the "signature missing" variant: the 8-byte challenge of EAC1.
    public var challenge: [UInt8]?

    public init(efCardSecurity: [UInt8], authenticationToken: [UInt8], nonce: [UInt8]) {
        self.efCardSecurity = efCardSecurity
        self.authenticationToken = authenticationToken
        self.nonce = nonce
    }

    /// The answer to an EAC2InputType without a signature.
    public init(challenge: [UInt8]) { self.challenge = challenge }

    init(efCardSecurity: [UInt8]?, authenticationToken: [UInt8]?, nonce: [UInt8]?, challenge: [UInt8]?) {
        self.efCardSecurity = efCardSecurity
        self.authenticationToken = authenticationToken
        self.nonce = nonce
        self.challenge = challenge
    }

    /// Whether this is the challenge-only answer that asks for EACAdditionalInputType.
    public var isChallengeOnly: Bool {
        challenge != nil && efCardSecurity == nil && authenticationToken == nil && nonce == nil
    }

    init(fields: PAOSFields) throws(PAOSError) {
        let challenge = try fields.hex("Challenge")
        guard challenge == nil || challenge?.count == EAC1OutputType.challengeLength else {
            throw .invalidValue(message: fields.message, element: "Challenge")
        }
        self.init(
            efCardSecurity: try fields.hex("EFCardSecurity"),
            authenticationToken: try fields.hex("AuthenticationToken"),
            nonce: try fields.hex("Nonce"), challenge: challenge)
    }

    var children: [XMLElement] {
        let ns = PAOSNamespace.iso
        var children: [XMLElement] = []
        if let efCardSecurity { children.append(.hex("EFCardSecurity", namespace: ns, efCardSecurity)) }
        if let authenticationToken { children.append(.hex("AuthenticationToken", namespace: ns, authenticationToken)) }
        if let nonce { children.append(.hex("Nonce", namespace: ns, nonce)) }
        if let challenge { children.append(.hex("Challenge", namespace: ns, challenge)) }
        return children
    }
}
