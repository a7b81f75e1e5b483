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

/// `eid-testserver`: a local eService and eID server with its own test PKI, for CI without a
/// card (issue 9). TEST ONLY: its keys are written in the clear.
@main
struct EIDTestServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eid-testserver",
        abstract: "A local eService and eID server for testing eID logins (TEST ONLY).",
        subcommands: [Serve.self, PKI.self])
}

func write(_ bytes: [UInt8], to path: String) throws {
    do {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
        throw ValidationError("cannot write \(path)")
    }
}

func read(_ path: String) throws -> String {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
        throw ValidationError("cannot read \(path); make it with `eid-testserver pki --out DIR`")
    }
    return String(decoding: data, as: UTF8.self)
}

/// The bytes of `file` in `directory`, or nil when it cannot be read.
func contents(of file: ServerPKIFile, in directory: String) -> [UInt8]? {
    (try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + file.rawValue))).map { [UInt8]($0) }
}

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
            authentication; and origin. TEST ONLY: the keys are not protected.
            """)

    @Option(help: ArgumentHelp("The directory to write (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The origin the server is reached at.", valueName: "https://host:port"))
    var origin = "https://127.0.0.1:18443"

    func validate() throws {
        guard originHost(origin) != nil else { throw ValidationError("--origin must look like https://HOST:PORT") }
    }

    func run() throws {
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let tls = try TLSServerCredentials.generate(host: originHost(origin) ?? "127.0.0.1")
        guard let certificate = tls.certificateDER else { throw ValidationError("cannot encode the TLS certificate") }
        let files = try ServerPKIDirectory.generate(
            origin: origin, tlsCertificate: certificate, now: Int64(Date().timeIntervalSince1970))
        try write(Array(tls.certificatePEM.utf8), to: out + "/" + ServerPKIFile.tlsCertificate.rawValue)
        try write(Array(tls.keyPEM.utf8), to: out + "/" + ServerPKIFile.tlsKey.rawValue)
        for (file, bytes) in files.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try write(bytes, to: out + "/" + file.rawValue)
        }
        try write(Array((origin + "\n").utf8), to: out + "/" + ServerPKIFile.origin.rawValue)
        let cvca = try CVCertificate(encoded: files[.cvca] ?? [])
        StandardStream.output.write("\(out): test PKI for \(origin), CVCA \(cvca.body.holderReference)\n")
    }
}

/// The port of an https://HOST:PORT origin.
func originPort(_ origin: String) -> Int? {
    guard originHost(origin) != nil else { return nil }
    let authority = origin.dropFirst("https://".count).prefix { $0 != "/" }
    return authority.lastIndex(of: ":").flatMap { Int(authority[authority.index(after: $0)...]) }
}

/// The host of an https://HOST:PORT origin.
func originHost(_ origin: String) -> String? {
    guard origin.hasPrefix("https://") else { return nil }
    let authority = origin.dropFirst("https://".count).prefix { $0 != "/" }
    guard let colon = authority.lastIndex(of: ":"), Int(authority[authority.index(after: colon)...]) != nil else {
        return nil
    }
    let host = authority[..<colon]
    return host.isEmpty ? nil : String(host.trimmingPrefix("[").prefix { $0 != "]" })
}

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the eService and the eID server over HTTPS.",
        discussion: """
            GET / (start page), GET /tctoken[?fault=NAME,...] (a TcToken for a new session), \
            POST /paos/SESSION (the PAOS endpoint), GET /refresh, GET /result[?session=ID] (the last session, or that one, as JSON).
            """)

    @Option(
        help: ArgumentHelp(
            "A directory written by `eid-testserver pki` (default: fresh TLS credentials).", valueName: "dir"))
    var pki: String?

    @Option(
        help: ArgumentHelp(
            "A TLS certificate (PEM) to serve instead of a fresh one, e.g. an expired one or one of your CA; "
                + "certificates after it in the file are sent as its chain; the certificate description lists "
                + "its hash. Not with --pki; needs --tls-key.",
            valueName: "file"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --tls-certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "The port to listen on (0: any free port; default 18443, with --pki the port of DIR's origin).",
            valueName: "n"))
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "The data every session asks for: comma-separated SDK names (GivenNames, FamilyName, DateOfBirth, "
                + "Address, …), TR-03127 words or DGn; a trailing ? makes one optional (default: every readable "
                + "data group, required).",
            valueName: "list"))
    var attributes: String?

    @Flag(help: "Every session uses TLS-PSK for the PAOS channel (RSA-PSK; the TcToken carries the key).")
    var psk = false

    @Option(help: ArgumentHelp("The largest request body in bytes (larger: 413).", valueName: "bytes"))
    var maxBody = 512 * 1024

    @Option(help: ArgumentHelp("Seconds the `slow` fault delays each PAOS answer.", valueName: "s"))
    var slowDelay = 3

    func validate() throws {
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        guard pki == nil || tlsCertificate == nil else {
            throw ValidationError("--tls-certificate is not for --pki: DIR holds its TLS certificate (tls-cert.pem)")
        }
        if let port { guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") } }
        if let attributes {
            do { _ = try RequestedAttributes(parsing: attributes) } catch {
                throw ValidationError("--attributes: \(error)")
            }
        }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive") }
        guard (0...600).contains(slowDelay) else { throw ValidationError("--slow-delay must be 0 to 600") }
    }

    func run() throws {
        stopOnSignals()
        var configuration = FrontEndConfiguration()
        configuration.host = host
        configuration.port = port ?? 18443
        configuration.pskForAll = psk
        configuration.maximumBodySize = maxBody
        configuration.slowDelay = .seconds(slowDelay)
        let requested = try attributes.map { try RequestedAttributes(parsing: $0) } ?? .all
        let credentials: TLSServerCredentials
        var own: ServerPKI?
        if let pki {
            credentials = TLSServerCredentials(
                certificatePEM: try read(pki + "/" + ServerPKIFile.tlsCertificate.rawValue),
                keyPEM: try read(pki + "/" + ServerPKIFile.tlsKey.rawValue))
            guard
                let origin = try read(pki + "/" + ServerPKIFile.origin.rawValue).split(separator: "\n").first
                    .map(String.init), let originPort = originPort(origin)
            else { throw ValidationError("\(pki)/origin does not hold https://HOST:PORT: make the directory again") }
            if let port, port != originPort {
                throw ValidationError(
                    "--port \(port) is not the port of \(pki)'s origin \(origin), which its certificate description "
                        + "names: leave --port out, or make the PKI with `eid-testserver pki --out DIR --origin "
                        + "https://HOST:\(port)`")
            }
            configuration.port = originPort
            configuration.origin = origin
            guard let certificate = credentials.certificateDER else {
                throw ValidationError("\(pki)/tls-cert.pem is not a PEM certificate")
            }
            do {
                own = try ServerPKIDirectory.load(origin: origin, tlsCertificate: certificate) {
                    contents(of: $0, in: pki)
                }
            } catch { throw ValidationError("--pki \(pki): \(error)") }
            if own?.authority == nil {
                StandardStream.error.write(
                    "eid-testserver: \(pki) has no cvca.key: the faults chat_beyond_dv and cvca_link are not available\n"
                )
            }
        } else if let tlsCertificate, let tlsKey {
            credentials = TLSServerCredentials(certificatePEM: try read(tlsCertificate), keyPEM: try read(tlsKey))
        } else {
            credentials = try TLSServerCredentials.generate(host: host)
        }
        let tls = try TLSServerContext(certificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM)
        guard let certificate = credentials.certificateDER else {
            throw ValidationError("the TLS certificate is not a PEM certificate")
        }
        let handler = EIDServerSessionHandler(
            tlsCertificate: certificate, capacity: configuration.maximumSessions, attributes: requested)
        let server = HTTPSFrontEnd(configuration: configuration, tls: tls, handler: handler)
        let bound = try server.start()
        if let own {
            handler.use(pki: own)
        } else {
            do { try handler.use(origin: server.routes.origin) } catch {
                server.stop()
                throw ValidationError("cannot make the server's PKI for \(server.routes.origin): \(error)")
            }
        }
        StandardStream.output.write("eid-testserver: listening on \(server.routes.origin) (port \(bound))\n")
        server.wait()
    }
}

/// SIGINT, SIGTERM and SIGHUP end the server, even when its parent started it with them blocked
/// or ignored (a test runner's thread does); its worker threads inherit this.
func stopOnSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        sigaddset(&signals, signal)
        Glibc.signal(signal, SIG_DFL)
    }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}
