/// EACAdditionalInputType (server, in DIDAuthenticate; docs/protocol.md, "PAOS messages"): the TA signature,
/// sent separately after the client's challenge-only EAC2 answer.
public struct EACAdditionalInputType: Equatable, Sendable {
    public static let typeName = "EACAdditionalInputType"

    /// Plain r || s.
    public var signature: [UInt8]

    public init(signature: [UInt8]) { self.signature = signature }

    init(fields: PAOSFields) throws(PAOSError) {
        self.init(signature: try fields.requiredHex("Signature"))
    }

    var children: [XMLElement] { [.hex("Signature", namespace: PAOSNamespace.iso, signature)] }
}
