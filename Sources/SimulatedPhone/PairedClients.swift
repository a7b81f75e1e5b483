import EIDCrypto
import SmartCard
import TestServerHTTPS

/// The clients paired with the phone: each client certificate (DER) as a file named by its SHA-256 in a
/// directory of its own. While pairing is on, any client certificate passes the handshake (it is stored
/// once the pairing connection is up); otherwise only a stored one (an unpaired certificate is refused in
/// the handshake, as AusweisApp's phone trusts only the certificates it paired with).
public final class PairedClients: ClientCertificateJudge, @unchecked Sendable {
    // @unchecked: immutable; the directory is the state.
    public let directory: String
    /// Whether this judge lets any certificate in (the pairing context's).
    let pairing: Bool

    public init(directory: String, pairing: Bool = false) throws(PhoneError) {
        if let reason = PhoneFiles.makeDirectory(directory) { throw .pairedDirectory(path: directory, reason: reason) }
        self.directory = directory
        self.pairing = pairing
    }

    /// The same directory, judged as while pairing.
    func forPairing() -> PairedClients {
        // The directory exists: made by this instance's init.
        (try? PairedClients(directory: directory, pairing: true)) ?? self
    }

    public func accepts(clientCertificateDER der: [UInt8]) -> Bool {
        pairing || isPaired(der)
    }

    /// Whether `der` is a stored client certificate.
    public func isPaired(_ der: [UInt8]) -> Bool {
        guard let name = Self.fileName(der) else { return false }
        return PhoneFiles.read(directory + "/" + name) == der
    }

    /// Stores `der` as paired; false when it cannot be written.
    @discardableResult
    public func add(_ der: [UInt8]) -> Bool {
        guard let name = Self.fileName(der) else { return false }
        return PhoneFiles.write(der, to: directory + "/" + name)
    }

    /// How many clients are paired.
    public var count: Int { PhoneFiles.names(in: directory).filter { $0.hasSuffix(".der") }.count }

    private static func fileName(_ der: [UInt8]) -> String? {
        (try? Digest.sha256.hash(der)).map { $0.hexString + ".der" }
    }
}
