import ArgumentParser
import EAC
import EIDCrypto
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

/// The files of `pki --out DIR`, which `serve --pki DIR` reads.
enum PKIFile {
    static let tlsCertificate = "tls-cert.pem"
    static let tlsKey = "tls-key.pem"
    static let cvca = "cvca.cvcert"
    static let documentVerifier = "dv.cvcert"
    static let documentVerifierKey = "dv.key"
    static let terminal = "at.cvcert"
    static let terminalKey = "at.key"
    static let origin = "origin"
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

struct PKI: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a fresh test PKI: TLS certificate and key, CVCA, DV and terminal certificates with keys.",
        discussion: """
            Writes into DIR: tls-cert.pem and tls-key.pem (self-signed RSA 3072 for the origin's \
            host, localhost and 127.0.0.1), cvca.cvcert (the CVCA a card or client is told to \
            trust), dv.cvcert and at.cvcert (DER) with dv.key and at.key (private scalars in hex), \
            and origin. TEST ONLY: the keys are not protected.
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
        let today = CalendarDate.todayUTC()
        let cvca = try TestCertificateAuthority.generate(
            holderReference: "DEEIDTSRV00001", effectiveDate: today, expirationDate: try today.adding(days: 3 * 365))
        let terminal = try cvca.issueTerminal(validForDays: 90)
        try write(Array(tls.certificatePEM.utf8), to: out + "/" + PKIFile.tlsCertificate)
        try write(Array(tls.keyPEM.utf8), to: out + "/" + PKIFile.tlsKey)
        try write(try cvca.certificate.encoded, to: out + "/" + PKIFile.cvca)
        try write(try terminal.documentVerifier.certificate.encoded, to: out + "/" + PKIFile.documentVerifier)
        try write(try terminal.terminal.certificate.encoded, to: out + "/" + PKIFile.terminal)
        for (key, file) in [
            (terminal.documentVerifier.keyPair, PKIFile.documentVerifierKey),
            (terminal.terminal.keyPair, PKIFile.terminalKey),
        ] {
            try write(Array((try key.privateKey.rawScalar().hexString + "\n").utf8), to: out + "/" + file)
        }
        try write(Array((origin + "\n").utf8), to: out + "/" + PKIFile.origin)
        StandardStream.output.write("\(out): TLS certificate for \(origin), CVCA \(cvca.holderReference)\n")
    }
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

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "n"))
    var port = 18443

    @Flag(help: "Every session uses TLS-PSK for the PAOS channel (RSA-PSK; the TcToken carries the key).")
    var psk = false

    @Option(help: ArgumentHelp("The largest request body in bytes (larger: 413).", valueName: "bytes"))
    var maxBody = 512 * 1024

    @Option(help: ArgumentHelp("Seconds the `slow` fault delays each PAOS answer.", valueName: "s"))
    var slowDelay = 3

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive") }
        guard (0...600).contains(slowDelay) else { throw ValidationError("--slow-delay must be 0 to 600") }
    }

    func run() throws {
        stopOnSignals()
        var configuration = FrontEndConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.pskForAll = psk
        configuration.maximumBodySize = maxBody
        configuration.slowDelay = .seconds(slowDelay)
        let credentials: TLSServerCredentials
        if let pki {
            credentials = TLSServerCredentials(
                certificatePEM: try read(pki + "/" + PKIFile.tlsCertificate),
                keyPEM: try read(pki + "/" + PKIFile.tlsKey))
            if let origin = try? read(pki + "/" + PKIFile.origin).split(separator: "\n").first.map(String.init),
                port != 0, origin.hasSuffix(":\(port)")
            {
                configuration.origin = origin
            }
        } else {
            credentials = try TLSServerCredentials.generate(host: host)
        }
        let tls = try TLSServerContext(certificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM)
        guard let certificate = credentials.certificateDER else {
            throw ValidationError("the TLS certificate is not a PEM certificate")
        }
        let handler = EIDServerSessionHandler(
            tlsCertificate: certificate, capacity: configuration.maximumSessions)
        let server = HTTPSFrontEnd(configuration: configuration, tls: tls, handler: handler)
        let bound = try server.start()
        do { try handler.use(origin: server.routes.origin) } catch {
            server.stop()
            throw ValidationError("cannot make the server's PKI for \(server.routes.origin): \(error)")
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
