import EIDCrypto
import SmartCard
import TestServerHTTPS

/// The phone's TLS identity: an RSA 3072 key and a self-signed certificate, made with OpenSSL on the first
/// start and kept in the state directory (key.pem 0600), so that its IFDID, the hex SHA-256 of the
/// certificate's DER, stays the same from run to run and a paired client recognises it.
public struct PhoneIdentity: Sendable {
    public let credentials: TLSServerCredentials
    public let certificateDER: [UInt8]

    /// The IFDID of the announcements: the SHA-256 of the certificate's DER, hex.
    public var ifdID: String { ((try? Digest.sha256.hash(certificateDER)) ?? []).hexString }

    /// The old form of the IFDID (older AusweisApp versions): the certificate as PEM text.
    public var ifdIDPEM: String { credentials.certificatePEM }

    /// The identity kept in `directory`, made there first when it holds none.
    public static func loadOrCreate(directory: String) throws(PhoneError) -> PhoneIdentity {
        let certificatePath = directory + "/certificate.pem"
        let keyPath = directory + "/key.pem"
        if let certificate = PhoneFiles.read(certificatePath), let key = PhoneFiles.read(keyPath) {
            let credentials = TLSServerCredentials(
                certificatePEM: String(decoding: certificate, as: UTF8.self),
                keyPEM: String(decoding: key, as: UTF8.self))
            guard let der = credentials.certificateDER else { throw .tlsSetup }
            return PhoneIdentity(credentials: credentials, certificateDER: der)
        }
        if let reason = PhoneFiles.makeDirectory(directory) { throw .stateDirectory(path: directory, reason: reason) }
        let credentials: TLSServerCredentials
        do {
            credentials = try TLSServerCredentials.generate(host: "localhost", days: 365 * 50)
        } catch {
            throw .tlsSetup
        }
        guard let der = credentials.certificateDER else { throw .tlsSetup }
        guard PhoneFiles.write(Array(credentials.keyPEM.utf8), to: keyPath),
            PhoneFiles.write(Array(credentials.certificatePEM.utf8), to: certificatePath)
        else { throw .stateDirectory(path: directory, reason: "cannot write key.pem and certificate.pem") }
        return PhoneIdentity(credentials: credentials, certificateDER: der)
    }
}
