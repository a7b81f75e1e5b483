import ArgumentParser
import EAC
import EIDCrypto
import EIDTestServer
import EIDTestServerHTTPS
import FoundationEssentials
import Glibc
import SmartCard
import TestPKI
import TestServerHTTPS

struct PKI: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write a fresh test PKI: TLS, CVCA, DV and AT with keys, certificate description, CSCA, a matching card.",
        discussion: """
            Writes into DIR: tls-cert.pem and tls-key.pem (self-signed RSA 3072 for the origin's \
            host, localhost and 127.0.0.1); cvca.cvcert (the CVCA a card or client is told to \
            trust) and cvca.key; dv.cvcert, at.cvcert (DER) with dv.key and at.key (private \
            scalars in hex); description.der (the certificate description: subject URL = the \
            origin, terms of usage, CommCertificates = SHA-256 of tls-cert.pem), whose hash at.cvcert \
            carries; csca.cer, ds.cer and ds.key (X.509 CSCA and document signer, PKCS#8 key); \
            card-ef-cardaccess.bin, card-ef-cardsecurity.bin (signed by ds.cer) and card-ca.key \
            (raw Chip Authentication scalar) for an emulated card that passes passive \
            authentication; and origin. A new DIR is made readable by its owner only (0700), the keys are \
            always written so (0600). TEST ONLY: the keys are not encrypted.
            """)

    @Option(help: ArgumentHelp("The directory to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The origin the server is reached at.", valueName: "https://host:port"))
    var origin = "https://127.0.0.1:18443"

    func validate() throws {
        guard originHost(origin) != nil else { throw ValidationError("--origin must look like https://HOST:PORT") }
    }

    func run() throws {
        try makeDirectory(out)
        let tls = try TLSServerCredentials.generate(host: originHost(origin) ?? "127.0.0.1")
        guard let certificate = tls.certificateDER else { throw ValidationError("cannot encode the TLS certificate") }
        let files = try ServerPKIDirectory.generate(
            origin: origin, tlsCertificate: certificate, now: Int64(Date().timeIntervalSince1970))
        try write(Array(tls.certificatePEM.utf8), to: out + "/" + ServerPKIFile.tlsCertificate.rawValue)
        try write(Array(tls.keyPEM.utf8), to: out + "/" + ServerPKIFile.tlsKey.rawValue, privateKey: true)
        for (file, bytes) in files.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try write(bytes, to: out + "/" + file.rawValue, privateKey: file.isPrivateKey)
        }
        try write(Array((origin + "\n").utf8), to: out + "/" + ServerPKIFile.origin.rawValue)
        let cvca = try CVCertificate(encoded: files[.cvca] ?? [])
        StandardStream.output.write("\(out): test PKI for \(origin), CVCA \(cvca.body.holderReference)\n")
    }
}

/// Makes `directory` (and missing parents) for a PKI: a new one readable by its owner only
/// (0700); an existing one keeps its mode (its owner chose it).
func makeDirectory(_ directory: String) throws {
    var status = stat()
    if stat(directory, &status) == 0 {
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw ValidationError("\(directory) is not a directory") }
        return
    }
    let parent = String(directory.reversed().drop { $0 == "/" }.drop { $0 != "/" }.reversed())
    if !parent.isEmpty { try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
    guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw ValidationError("cannot make \(directory)") }
}

/// Writes `bytes` to `path`, replacing the file. A private key is readable and writable by its
/// owner only (0600), also when the file existed with another mode; other files get 0644 (less
/// what the umask takes). A symbolic link at `path` is refused, not followed.
func write(_ bytes: [UInt8], to path: String, privateKey: Bool = false) throws {
    let mode: mode_t = privateKey ? 0o600 : 0o644
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
    guard fd >= 0 else { throw ValidationError("cannot write \(path)") }
    defer { close(fd) }
    guard !privateKey || fchmod(fd, 0o600) == 0 else { throw ValidationError("cannot make \(path) private") }
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { throw ValidationError("cannot write \(path)") }
        offset += written
    }
}
