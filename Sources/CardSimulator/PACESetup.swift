/// What MSE:Set AT for PACE selected: the protocol, the password, and the terminal's CHAT.
public struct PACESetup: Equatable, Sendable {
    /// The protocol object identifier's content bytes (data object 80), e.g. id-PACE-ECDH-GM-AES-CBC-CMAC-128.
    public var protocolOID: [UInt8]
    public var password: PasswordState.Reference
    /// Data object 84 (the domain parameter id when the card offers several), if sent.
    public var domainParameterID: [UInt8]?
    /// The whole 7F4C object (certificate holder authorization template), if sent.
    public var chat: [UInt8]?

    public init(
        protocolOID: [UInt8], password: PasswordState.Reference, domainParameterID: [UInt8]? = nil,
        chat: [UInt8]? = nil
    ) {
        self.protocolOID = protocolOID
        self.password = password
        self.domainParameterID = domainParameterID
        self.chat = chat
    }
}
