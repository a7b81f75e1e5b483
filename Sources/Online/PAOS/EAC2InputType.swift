/// EAC2InputType (server, in DIDAuthenticate; docs/protocol.md, "PAOS messages"): missing link
/// certificates, the terminal's ephemeral public key and, unless it comes in a separate
/// EACAdditionalInputType round, the TA signature.
public struct EAC2InputType: Equatable, Sendable {
    public static let typeName = "EAC2InputType"

    /// 0..n; only needed when the client sent CARs.
    public var certificates: [[UInt8]]
    /// Uncompressed point 04 || x || y.
    public var ephemeralPublicKey: [UInt8]
    /// Plain r || s; nil asks for the EACAdditionalInputType round.
    public var signature: [UInt8]?

    public init(certificates: [[UInt8]] = [], ephemeralPublicKey: [UInt8], signature: [UInt8]?) {
        self.certificates = certificates
        self.ephemeralPublicKey = ephemeralPublicKey
        self.signature = signature
    }

    init(fields: PAOSFields) throws(PAOSError) {
        self.init(
            certificates: try fields.hexList("Certificate"),
            ephemeralPublicKey: try fields.requiredHex("EphemeralPublicKey"),
            signature: try fields.hex("Signature"))
    }

    var children: [XMLElement] {
        let ns = PAOSNamespace.iso
        var children = certificates.map { XMLElement.hex("Certificate", namespace: ns, $0) }
        children.append(.hex("EphemeralPublicKey", namespace: ns, ephemeralPublicKey))
        if let signature { children.append(.hex("Signature", namespace: ns, signature)) }
        return children
    }
}
