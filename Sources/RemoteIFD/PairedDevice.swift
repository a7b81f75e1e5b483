import EIDCrypto
import OrderedJSON
import SmartCard

/// A phone eid has paired with: the name it announced, its IFDID (the hex SHA-256 of its
/// certificate), the certificate itself (DER, pinned for every later connection) and the address
/// it was last reached at (wss://host:port).
public struct PairedDevice: Equatable, Sendable {
    public var name: String
    public var ifdID: String
    public var certificate: [UInt8]
    public var address: String

    /// A device from its certificate: the IFDID is computed, never taken from the phone's word.
    public init(name: String, certificate: [UInt8], address: String) throws {
        self.name = name
        self.certificate = certificate
        self.address = address
        ifdID = try Self.ifdID(certificate: certificate)
    }

    /// The IFDID of a certificate: its SHA-256, lower-case hex.
    public static func ifdID(certificate: [UInt8]) throws -> String {
        try Digest.sha256.hash(certificate).hexString
    }

    /// The SHA-256 of the certificate, which the TLS connection pins.
    public var certificateSHA256: [UInt8] { [UInt8](hex: ifdID) ?? [] }

    /// The file's content: one JSON object.
    public var json: JSONValue {
        .object([
            ("name", .string(name)), ("IFDID", .string(ifdID)), ("certificate", .string(certificate.hexString)),
            ("address", .string(address)),
        ])
    }

    /// Reads a stored device; the IFDID must match the certificate.
    public init(json text: [UInt8]) throws(PairedDeviceStoreError) {
        guard let value = try? JSONValue(parsing: text, limits: JSONLimits(maxBytes: 64 * 1024, maxDepth: 2)),
            let name = value["name"]?.string, let ifdID = value["IFDID"]?.string,
            let certificate = value["certificate"]?.string.flatMap({ [UInt8](hex: $0) }), !certificate.isEmpty,
            let address = value["address"]?.string
        else { throw .corrupt("not a paired phone's JSON (name, IFDID, certificate, address)") }
        guard let device = try? PairedDevice(name: name, certificate: certificate, address: address),
            device.ifdID == ifdID.lowercased()
        else { throw .corrupt("the IFDID does not match the certificate") }
        self = device
    }
}
