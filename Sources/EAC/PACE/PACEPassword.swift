import EIDCrypto
import SmartCard

/// A PACE password π. Its text never appears in descriptions or reflection.
public struct PACEPassword: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let type: PACEPasswordType
    /// The characters, in a buffer that is zeroed when the `Secret` is wiped or released.
    private let secret: Secret

    private init(type: PACEPasswordType, secret bytes: [UInt8]) {
        var copy = bytes
        self.type = type
        self.secret = Secret(consuming: &copy)
    }

    /// A PIN, CAN or PUK held by the caller's `Secret`: no copy is made, and wiping the secret
    /// wipes the password.
    public init(type: PACEPasswordType, secret: Secret) {
        self.type = type
        self.secret = secret
    }

    /// The card access number (6 digits on the card's front).
    public static func can(_ digits: String) -> PACEPassword { PACEPassword(type: .can, secret: Array(digits.utf8)) }
    /// The eID PIN (6 digits; 5 for the transport PIN, which is also type `.pin`).
    public static func pin(_ digits: String) -> PACEPassword { PACEPassword(type: .pin, secret: Array(digits.utf8)) }
    /// The PUK (10 digits).
    public static func puk(_ digits: String) -> PACEPassword { PACEPassword(type: .puk, secret: Array(digits.utf8)) }

    /// The MRZ password from the MRZ information (document number, date of birth and date of
    /// expiry, each followed by its check digit; ICAO 9303-11, 4.4.1.1): π = SHA-1(MRZ information).
    public static func mrz(information: String) -> PACEPassword {
        PACEPassword(type: .mrz, secret: Array(information.utf8))
    }

    /// The MRZ password from its three fields (dates as YYMMDD); the check digits are computed
    /// (ICAO 9303-3, 4.9) and a document number shorter than 9 characters is filled with '<'.
    public static func mrz(documentNumber: String, dateOfBirth: String, dateOfExpiry: String) -> PACEPassword {
        var number = documentNumber.uppercased()
        if number.count < 9 { number += String(repeating: "<", count: 9 - number.count) }
        let info = [number, dateOfBirth, dateOfExpiry].map { $0 + String(mrzCheckDigit($0)) }.joined()
        return .mrz(information: info)
    }

    /// The MRZ check digit (weights 7, 3, 1; '<' counts 0, letters 10...35).
    public static func mrzCheckDigit(_ field: String) -> Int {
        let weights = [7, 3, 1]
        var sum = 0
        for (i, c) in field.uppercased().unicodeScalars.enumerated() {
            let v: Int
            switch c {
            case "0"..."9": v = Int(c.value) - 48
            case "A"..."Z": v = Int(c.value) - 55
            default: v = 0
            }
            sum += v * weights[i % 3]
        }
        return sum % 10
    }

    /// The shared secret the password key is derived from (TR-03110-3, A.2.3 / ICAO 9303-11,
    /// 9.7.3): SHA-1 of the MRZ information, otherwise the password's characters.
    /// The caller zeroes the result after use.
    public func sharedSecret() throws -> [UInt8] {
        var characters = secret.copyBytes()
        guard type == .mrz else { return characters }
        defer { Secret.zero(&characters) }
        return try Digest.sha1.hash(characters)
    }

    /// K_π = KDF(π, 3) for a cipher with `keyLength`-byte keys. The caller zeroes the result.
    public func key(keyLength: Int) throws -> [UInt8] {
        var shared = try sharedSecret()
        defer { Secret.zero(&shared) }
        return try KDF.derive(secret: shared, counter: .password, keyLength: keyLength)
    }

    public var description: String { "PACEPassword(\(type), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["type": type]) }
}
