/// The Chip Authentication protocols with ECDH and AES this library runs (BSI TR-03110-3,
/// A.1.1.2 and A.6.1): id-CA-ECDH-AES-CBC-CMAC-128/192/256.
public enum ChipAuthenticationProtocol: CaseIterable, Sendable {
    case ecdhAES128, ecdhAES192, ecdhAES256

    public var oid: OID {
        switch self {
        case .ecdhAES128: return OID.idCA.appending(2, 2)
        case .ecdhAES192: return OID.idCA.appending(2, 3)
        case .ecdhAES256: return OID.idCA.appending(2, 4)
        }
    }

    /// The AES key length of KSenc and KSmac.
    public var keyLength: Int {
        switch self {
        case .ecdhAES128: return 16
        case .ecdhAES192: return 24
        case .ecdhAES256: return 32
        }
    }

    public init?(oid: OID) {
        guard let p = ChipAuthenticationProtocol.allCases.first(where: { $0.oid == oid }) else { return nil }
        self = p
    }
}
