/// EAC1InputType (server, in DIDAuthenticate; docs/protocol.md, "PAOS messages"): the terminal's
/// certificates (hex CV certificates, in any order), its certificate description, the CHATs it
/// requires and would like, authenticated auxiliary data and transaction info.
public struct EAC1InputType: Equatable, Sendable {
    public static let typeName = "EAC1InputType"

    /// 1..n CV certificates (at least DV and AT, maybe CVCA links).
    public var certificates: [[UInt8]]
    /// DER of the certificate description; absent is reported by the client as
    /// al/common#parameterError, not as a broken message.
    public var certificateDescription: [UInt8]?
    /// The full 7F4C object; nil when absent or empty (both legal).
    public var requiredCHAT: [UInt8]?
    public var optionalCHAT: [UInt8]?
    /// The full 67 object.
    public var authenticatedAuxiliaryData: [UInt8]?
    public var transactionInfo: String?
    /// CardCertified, SECertified, SEEndorsed, HWKeyStore; empty means all are accepted.
    public var acceptedEIDTypes: [String]

    public init(
        certificates: [[UInt8]], certificateDescription: [UInt8]?, requiredCHAT: [UInt8]? = nil,
        optionalCHAT: [UInt8]? = nil, authenticatedAuxiliaryData: [UInt8]? = nil, transactionInfo: String? = nil,
        acceptedEIDTypes: [String] = []
    ) {
        self.certificates = certificates
        self.certificateDescription = certificateDescription
        self.requiredCHAT = requiredCHAT
        self.optionalCHAT = optionalCHAT
        self.authenticatedAuxiliaryData = authenticatedAuxiliaryData
        self.transactionInfo = transactionInfo
        self.acceptedEIDTypes = acceptedEIDTypes
    }

    init(fields: PAOSFields) throws(PAOSError) {
        let certificates = try fields.hexList("Certificate")
        guard !certificates.isEmpty else { throw .missingElement(message: fields.message, element: "Certificate") }
        self.init(
            certificates: certificates, certificateDescription: try fields.hex("CertificateDescription"),
            requiredCHAT: try fields.hex("RequiredCHAT"), optionalCHAT: try fields.hex("OptionalCHAT"),
            authenticatedAuxiliaryData: try fields.hex("AuthenticatedAuxiliaryData"),
            transactionInfo: try fields.optional("TransactionInfo")?.text,
            acceptedEIDTypes: fields.all("AcceptedEIDType").map(\.trimmedText))
    }

    var children: [XMLElement] {
        let ns = PAOSNamespace.iso
        var children = certificates.map { XMLElement.hex("Certificate", namespace: ns, $0) }
        if let certificateDescription {
            children.append(.hex("CertificateDescription", namespace: ns, certificateDescription))
        }
        if let requiredCHAT { children.append(.hex("RequiredCHAT", namespace: ns, requiredCHAT)) }
        if let optionalCHAT { children.append(.hex("OptionalCHAT", namespace: ns, optionalCHAT)) }
        if let authenticatedAuxiliaryData {
            children.append(.hex("AuthenticatedAuxiliaryData", namespace: ns, authenticatedAuxiliaryData))
        }
        if let transactionInfo { children.append(.text("TransactionInfo", namespace: ns, transactionInfo)) }
        children += acceptedEIDTypes.map { .text("AcceptedEIDType", namespace: ns, $0) }
        return children
    }
}
