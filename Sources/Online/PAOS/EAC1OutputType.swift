/// EAC1OutputType (client, in DIDAuthenticateResponse; docs/protocol.md, "PAOS messages"): the effective
/// CHAT used in PACE, the CARs from PACE (only when the client cannot build the chain itself),
/// EF.CardAccess, ID_PICC and the card's 8-byte challenge.
public struct EAC1OutputType: Equatable, Sendable {
    public static let typeName = "EAC1OutputType"
    public static let challengeLength = 8

    public var retryCounter: Int?
    /// The full 7F4C object.
    public var chat: [UInt8]?
    /// CAR_curr and optionally CAR_prev, as text (0..2).
    public var certificationAuthorityReferences: [String]
    public var efCardAccess: [UInt8]?
    public var idPICC: [UInt8]?
    /// 8 bytes from GET CHALLENGE.
    public var challenge: [UInt8]?

    public init(
        retryCounter: Int? = nil, chat: [UInt8]?, certificationAuthorityReferences: [String] = [],
        efCardAccess: [UInt8]?, idPICC: [UInt8]?, challenge: [UInt8]?
    ) {
        self.retryCounter = retryCounter
        self.chat = chat
        self.certificationAuthorityReferences = certificationAuthorityReferences
        self.efCardAccess = efCardAccess
        self.idPICC = idPICC
        self.challenge = challenge
    }

    init(fields: PAOSFields) throws(PAOSError) {
        let cars = fields.all("CertificationAuthorityReference").map(\.trimmedText)
        guard cars.count <= 2 else {
            throw .duplicateElement(message: fields.message, element: "CertificationAuthorityReference")
        }
        let challenge = try fields.hex("Challenge")
        guard challenge == nil || challenge?.count == Self.challengeLength else {
            throw .invalidValue(message: fields.message, element: "Challenge")
        }
        self.init(
            retryCounter: try fields.integer("RetryCounter"),
            chat: try fields.hex("CertificateHolderAuthorizationTemplate"),
            certificationAuthorityReferences: cars, efCardAccess: try fields.hex("EFCardAccess"),
            idPICC: try fields.hex("IDPICC"), challenge: challenge)
    }

    var children: [XMLElement] {
        let ns = PAOSNamespace.iso
        var children: [XMLElement] = []
        if let retryCounter { children.append(.text("RetryCounter", namespace: ns, String(retryCounter))) }
        if let chat { children.append(.hex("CertificateHolderAuthorizationTemplate", namespace: ns, chat)) }
        children += certificationAuthorityReferences.map { .text("CertificationAuthorityReference", namespace: ns, $0) }
        if let efCardAccess { children.append(.hex("EFCardAccess", namespace: ns, efCardAccess)) }
        if let idPICC { children.append(.hex("IDPICC", namespace: ns, idPICC)) }
        if let challenge { children.append(.hex("Challenge", namespace: ns, challenge)) }
        return children
    }
}
