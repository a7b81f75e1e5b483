import EIDCrypto

/// eid's own key and certificate towards phones (TR-03112-6 IFD): the client certificate of every
/// connection, which a phone stores when it pairs and then recognises. Made as AusweisApp makes its own (RSA
/// 3072, self-signed, valid 1970–9999; `X509Certificate.selfSigned`), with CN "eid", kept in one PEM file
/// (`fileName`: the private key, then the certificate) of mode 0600 in a directory of mode 0700.
public struct IFDClientIdentity: @unchecked Sendable {
    // @unchecked: the key and certificate are immutable OpenSSL objects (X509PrivateKey, X509Certificate are
    // Sendable); the struct only holds them.
    let key: X509PrivateKey
    let certificate: X509Certificate

    /// The certificate (DER): what the phone stores and shows as this computer's fingerprint (SHA-256).
    public let certificateDER: [UInt8]

    /// The file in the caller's directory.
    public static let fileName = "client-identity.pem"
    /// AusweisApp's `sizesIfd.createRsa`.
    public static let keyBits = 3072
    static let commonName = "eid"

    init(key: X509PrivateKey, certificate: X509Certificate) {
        self.key = key
        self.certificate = certificate
        certificateDER = certificate.der
    }

    /// The identity kept in `directory` (e.g. `$XDG_CONFIG_HOME/eid/ifd`), made there first when there is none:
    /// the directory is created with mode 0700 where missing, the file written whole (under another name, then
    /// linked into place, so two eid processes never see half a file or replace each other's). An existing
    /// directory or file that others may read or write, or a file that is not a key with its certificate,
    /// throws and changes nothing.
    public static func loadOrCreate(directory: String) throws(IFDTransportError) -> IFDClientIdentity {
        let file = IFDIdentityFile(directory: directory, name: fileName)
        if let identity = try load(file) { return identity }
        let made = try make()
        var keyPEM: [UInt8]
        do { keyPEM = try made.key.pem() } catch { throw .tlsConfiguration("PEM_write_bio_PKCS8PrivateKey") }
        let certificatePEM = made.certificate.pem
        // One buffer of its final size, so that no copy of the key is left behind by growing it.
        var pem = [UInt8]()
        pem.reserveCapacity(keyPEM.count + certificatePEM.count)
        pem += keyPEM
        pem += certificatePEM
        Cleanse.zero(&keyPEM)
        defer { Cleanse.zero(&pem) }
        if try file.create(contents: pem) { return made }
        // Another process was faster: use its identity.
        guard let theirs = try load(file) else { throw .identityUnreadable(path: file.path, reason: "vanished") }
        return theirs
    }

    private static func load(_ file: IFDIdentityFile) throws(IFDTransportError) -> IFDClientIdentity? {
        guard var pem = try file.contents() else { return nil }
        defer { Cleanse.zero(&pem) }
        let key: X509PrivateKey
        let certificate: X509Certificate
        do { key = try X509PrivateKey(pem: pem) } catch {
            throw .identityCorrupt(path: file.path, reason: "no readable private key")
        }
        do { certificate = try X509Certificate(pem: pem) } catch {
            throw .identityCorrupt(path: file.path, reason: "no readable certificate")
        }
        guard key.isRSA, key.bits >= keyBits else {
            throw .identityCorrupt(path: file.path, reason: "not an RSA key of \(keyBits) bits or more")
        }
        guard certificate.isCertified(key) else {
            throw .identityCorrupt(path: file.path, reason: "the certificate is not the key's")
        }
        return IFDClientIdentity(key: key, certificate: certificate)
    }

    private static func make() throws(IFDTransportError) -> IFDClientIdentity {
        do {
            let key = try X509PrivateKey(generatingRSABits: keyBits)
            return IFDClientIdentity(
                key: key, certificate: try X509Certificate.selfSigned(key: key, commonName: commonName))
        } catch {
            throw .tlsConfiguration("RSA key generation or X509_sign")
        }
    }
}
