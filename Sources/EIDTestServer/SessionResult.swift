import OrderedJSON

/// The outcome of one session, as `/result` serves it:
/// `{"ok":true,"read":{"GivenNames":"ERIKA",…},"certificationAuthorityReferences":[],"verified":{"AgeVerification":true},"passiveAuthentication":"verified","error":null}`.
/// `read` holds the attributes read, named as the AusweisApp2 SDK names their rights;
/// `verified` the outcome of each VERIFY of authenticated auxiliary data (AgeVerification,
/// AddressVerification, DocumentValidity); `error` is null or
/// `{"reason":…,"resultMajor":…,"resultMinor":…,"message":…}`; `certificationAuthorityReferences` the CARs
/// the client's EAC1 output named (the card's trust points, when its chain did not reach them).
public struct SessionResult: Equatable, Sendable {
    public var ok: Bool
    public var read: [Attribute]
    public var verified: [Verification]
    public var passiveAuthentication: PassiveAuthenticationStatus?
    public var error: SessionFailure?
    public var certificationAuthorityReferences: [String] = []

    /// One attribute read from the card.
    public struct Attribute: Equatable, Sendable {
        public var name: String
        public var value: JSONValue
    }

    /// One verification the card answered.
    public struct Verification: Equatable, Sendable {
        public var name: String
        public var passed: Bool
    }

    /// How EF.CardSecurity fared.
    public enum PassiveAuthenticationStatus: String, Sendable {
        /// Signed by a document signer of the server's CSCA.
        case verified
        /// Validly signed, but not under the server's CSCA: a card of another issuer (not fatal).
        case foreignCard = "foreign_card"
    }

    public init(
        ok: Bool, read: [Attribute] = [], verified: [Verification] = [],
        passiveAuthentication: PassiveAuthenticationStatus? = nil, error: SessionFailure? = nil
    ) {
        self.ok = ok
        self.read = read
        self.verified = verified
        self.passiveAuthentication = passiveAuthentication
        self.error = error
    }

    /// Who logged in: the given names and family name read (or the one of them read), when the
    /// session succeeded; nil otherwise.
    public var personName: String? {
        guard ok else { return nil }
        let parts = ["GivenNames", "FamilyName"].compactMap { name -> String? in
            guard case .string(let text)? = self[name], !text.isEmpty else { return nil }
            return text
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The value of the attribute `name`, if it was read.
    public subscript(name: String) -> JSONValue? { read.first { $0.name == name }?.value }

    public var json: JSONValue {
        var errorValue = JSONValue.null
        if let error {
            let result = error.result
            errorValue = .object([
                ("reason", .string(error.reason)), ("resultMajor", .string(result.major.rawValue)),
                ("resultMinor", result.minor.map { .string($0.rawValue) } ?? .null),
                ("message", .string(error.description)),
            ])
        }
        return .object([
            ("ok", .bool(ok)), ("read", .object(read.map { ($0.name, $0.value) })),
            ("certificationAuthorityReferences", .array(certificationAuthorityReferences.map { .string($0) })),
            ("verified", .object(verified.map { ($0.name, .bool($0.passed)) })),
            ("passiveAuthentication", passiveAuthentication.map { .string($0.rawValue) } ?? .null),
            ("error", errorValue),
        ])
    }

    /// The JSON text, one line.
    public var jsonText: String { json.text }
}
