/// The `result` of the final AUTH message (SDK 6.3): the eCard-API ResultMajor and ResultMinor
/// as full URIs, and for an error the language, a description of the minor, the message (what
/// happened) and AusweisApp's stable reason name.
public struct AuthResult: Equatable, Sendable {
    public var major: String
    public var minor: String?
    public var language: String?
    public var description: String?
    public var message: String?
    public var reason: String?

    public init(
        major: String, minor: String? = nil, language: String? = nil, description: String? = nil,
        message: String? = nil, reason: String? = nil
    ) {
        self.major = major
        self.minor = minor
        self.language = language
        self.description = description
        self.message = message
        self.reason = reason
    }
}

/// What ACCESS_RIGHTS (SDK 6.1) carries, exactly the documented members: the rights by their SDK
/// names (CanAllowed is one of them, in the `chat` lists), the auxiliary data and the
/// transaction info.
public struct AccessRightsInfo: Equatable, Sendable {
    /// After a SET_ACCESS_RIGHTS with invalid data.
    public var error: String?
    public var aux: AuxiliaryDataInfo?
    public var effective: [String]
    public var optional: [String]
    public var required: [String]
    public var transactionInfo: String?

    public init(
        error: String? = nil, aux: AuxiliaryDataInfo? = nil, effective: [String], optional: [String],
        required: [String], transactionInfo: String? = nil
    ) {
        self.error = error
        self.aux = aux
        self.effective = effective
        self.optional = optional
        self.required = required
        self.transactionInfo = transactionInfo
    }
}

/// ACCESS_RIGHTS' `aux`: dates as ISO 8601, the required age as text (as the SDK shows it).
public struct AuxiliaryDataInfo: Equatable, Sendable {
    public var ageVerificationDate: String?
    public var requiredAge: String?
    public var validityDate: String?
    public var communityId: String?

    public init(
        ageVerificationDate: String? = nil, requiredAge: String? = nil, validityDate: String? = nil,
        communityId: String? = nil
    ) {
        self.ageVerificationDate = ageVerificationDate
        self.requiredAge = requiredAge
        self.validityDate = validityDate
        self.communityId = communityId
    }
}

/// What CERTIFICATE (SDK 6.5) carries: the certificate description and the terminal
/// certificate's validity (ISO 8601 dates).
public struct CertificateInfo: Equatable, Sendable {
    public var issuerName: String
    public var issuerUrl: String?
    public var subjectName: String
    public var subjectUrl: String?
    public var termsOfUsage: String
    public var purpose: String?
    public var effectiveDate: String
    public var expirationDate: String

    public init(
        issuerName: String, issuerUrl: String?, subjectName: String, subjectUrl: String?, termsOfUsage: String,
        purpose: String?, effectiveDate: String, expirationDate: String
    ) {
        self.issuerName = issuerName
        self.issuerUrl = issuerUrl
        self.subjectName = subjectName
        self.subjectUrl = subjectUrl
        self.termsOfUsage = termsOfUsage
        self.purpose = purpose
        self.effectiveDate = effectiveDate
        self.expirationDate = expirationDate
    }
}
