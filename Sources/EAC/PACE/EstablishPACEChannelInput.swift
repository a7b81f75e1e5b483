import SmartCard

/// The InputData of EstablishPACEChannel (PC/SC Part 10 AMD1, 2.6.16), which a PIN-pad reader
/// takes through FEATURE_EXECUTE_PACE and a phone in PIN-pad mode in IFDEstablishPACEChannel
/// (TR-03112-6, as hex):
///
/// | bytes | field |
/// | --- | --- |
/// | 1 | PasswordID: 1 MRZ, 2 CAN, 3 PIN, 4 PUK |
/// | 1 | lengthCHAT |
/// | lengthCHAT | CHAT: the whole 7F4C template, as in MSE:Set AT (none in change PIN) |
/// | 1 | lengthPIN |
/// | lengthPIN | PIN: none here, the user types it on the reader |
/// | 2 | lengthCertificateDescription, little endian |
/// | lengthCertificateDescription | CertificateDescription, DER (none in change PIN) |
///
/// eid never sends a password in it; a structure that carries one (the specification allows it
/// for a password that is not secret) still decodes, and says so, without keeping the password.
public struct EstablishPACEChannelInput: Equatable, Sendable {
    public var passwordType: PACEPasswordType
    /// The encoded CHAT (tag 7F4C), or empty.
    public var chat: [UInt8]
    /// The certificate description (DER), or empty.
    public var certificateDescription: [UInt8]
    /// Whether the decoded structure carried a password (its value is not kept).
    public private(set) var carriedPassword = false

    public init(passwordType: PACEPasswordType, chat: [UInt8] = [], certificateDescription: [UInt8] = []) {
        self.passwordType = passwordType
        self.chat = chat
        self.certificateDescription = certificateDescription
    }

    /// Reads InputData; the bytes must end with the certificate description.
    public init(decoding bytes: [UInt8]) throws(PINPadStructureError) {
        var reader = PINPadFieldReader(bytes)
        let id = try reader.byte("PasswordID")
        guard let type = PACEPasswordType(rawValue: id) else { throw .unknownPasswordID(id) }
        passwordType = type
        chat = try reader.shortField("CHAT")
        var password = try reader.shortField("PIN")
        carriedPassword = !password.isEmpty
        Secret.zero(&password)
        certificateDescription = try reader.longField("CertificateDescription")
        try reader.requireEnd()
    }

    /// The InputData bytes, with an empty PIN.
    public func encoded() throws(PINPadStructureError) -> [UInt8] {
        [passwordType.rawValue] + (try PINPadFieldWriter.shortField(chat, "CHAT")) + [0]
            + (try PINPadFieldWriter.longField(certificateDescription, "CertificateDescription"))
    }
}
