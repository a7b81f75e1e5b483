import EIDCrypto

/// A PACE protocol identifier id-PACE-<agreement>-<mapping>-<cipher> taken apart
/// (BSI TR-03110-3, A.1.1.1 and table 2; ICAO 9303-11, 9.2.1).
public struct PACEProtocol: Hashable, Sendable, CustomStringConvertible {
    public enum Mapping: Sendable, Hashable { case generic, integrated, chipAuthentication }
    public enum KeyAgreement: Sendable, Hashable { case dh, ecdh }
    public enum Cipher: Sendable, Hashable {
        case tripleDES, aes128, aes192, aes256

        /// Key length in bytes.
        public var keyLength: Int {
            switch self {
            case .tripleDES, .aes128: return 16
            case .aes192: return 24
            case .aes256: return 32
            }
        }
    }

    public var keyAgreement: KeyAgreement
    public var mapping: Mapping
    public var cipher: Cipher

    /// The protocol identifier.
    public var oid: OID {
        let m: UInt64
        switch (keyAgreement, mapping) {
        case (.dh, .generic): m = 1
        case (.ecdh, .generic): m = 2
        case (.dh, .integrated): m = 3
        case (.ecdh, .integrated): m = 4
        case (_, .chipAuthentication): m = 6
        }
        let c: UInt64
        switch cipher {
        case .tripleDES: c = 1
        case .aes128: c = 2
        case .aes192: c = 3
        case .aes256: c = 4
        }
        return OID.idPACE.appending(m, c)
    }

    /// Whether this module implements the protocol: ECDH generic mapping with AES.
    public var isSupported: Bool { keyAgreement == .ecdh && mapping == .generic && cipher != .tripleDES }

    public var description: String { oid.name ?? oid.dotted }

    public static let ecdhGenericMappingAES128 = PACEProtocol(keyAgreement: .ecdh, mapping: .generic, cipher: .aes128)
    public static let ecdhGenericMappingAES192 = PACEProtocol(keyAgreement: .ecdh, mapping: .generic, cipher: .aes192)
    public static let ecdhGenericMappingAES256 = PACEProtocol(keyAgreement: .ecdh, mapping: .generic, cipher: .aes256)
}

// Outside the struct's body, so that its memberwise initializer stays (internal: others name a
// protocol by its identifier).
extension PACEProtocol {
    /// The parts of a PACE identifier, or nil when `oid` is not one.
    public init?(oid: OID) {
        let base = OID.idPACE.components.count
        guard oid.hasPrefix(.idPACE), oid.components.count == base + 2 else { return nil }
        switch oid.components[base] {
        case 1: (keyAgreement, mapping) = (.dh, .generic)
        case 2: (keyAgreement, mapping) = (.ecdh, .generic)
        case 3: (keyAgreement, mapping) = (.dh, .integrated)
        case 4: (keyAgreement, mapping) = (.ecdh, .integrated)
        case 6: (keyAgreement, mapping) = (.ecdh, .chipAuthentication)
        default: return nil
        }
        switch oid.components[base + 1] {
        case 1 where mapping != .chipAuthentication: cipher = .tripleDES
        case 2: cipher = .aes128
        case 3: cipher = .aes192
        case 4: cipher = .aes256
        default: return nil
        }
    }
}
