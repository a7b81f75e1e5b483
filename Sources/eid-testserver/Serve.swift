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

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the eService and the eID server over HTTPS.",
        discussion: """
            GET / (start page: "Log in with your ID card", a link to the eID client on this machine, \
            --client-port), GET /tctoken[?fault=NAME,...] (a TcToken for a new session), \
            POST /paos/SESSION (the PAOS endpoint), GET /refresh?session=ID (that session's result page: who logged in, and the result), \
            GET /result[?session=ID] (that session's result as JSON; without ID the last one's, for one run at a time).
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
                + "data group, required; with every one optional, EAC1 has no RequiredCHAT).",
            valueName: "list"))
    var attributes: String?

    @Option(
        help: ArgumentHelp(
            "Text every session's EAC1 carries as TransactionInfo, which the client shows the user.", valueName: "text")
    )
    var transactionInfo: String?

    @Flag(help: "Every session uses TLS-PSK for the PAOS channel (RSA-PSK; the TcToken carries the key).")
    var psk = false

    @Option(help: ArgumentHelp("The largest request body in bytes (larger: 413).", valueName: "bytes"))
    var maxBody = 512 * 1024

    @Option(help: ArgumentHelp("Seconds the `slow` fault delays each PAOS answer.", valueName: "s"))
    var slowDelay = 3

    @Option(
        help: ArgumentHelp(
            "Connections open at once at most; one more is closed as soon as it is accepted.", valueName: "n"))
    var maxConnections = FrontEndConfiguration().maximumConnections

    @Option(
        help: ArgumentHelp(
            "Sessions running at once at most; beyond them a session not started 5 s after its TcToken "
                + "gives way, else a TcToken request gets 503 with Retry-After (a session not started within "
                + "30 s, or idle for 120 s, times out).",
            valueName: "n"))
    var maxSessions = FrontEndConfiguration().maximumSessions

    @Option(
        help: ArgumentHelp(
            "The port of the eID client the start page's login link calls (http://127.0.0.1:PORT/eID-Client).",
            valueName: "port"))
    var clientPort = FrontEndConfiguration().clientPort

    @Flag(
        help: ArgumentHelp(
            "Log each request to standard error: the address it came from (through an HTTP proxy, the proxy's "
                + "outgoing address), whether its connection resumed a TLS session, its method and its path "
                + "without the query."))
    var logRequests = false

    @Option(
        help: ArgumentHelp(
            "Write every PAOS request body a client sends to DIR/SESSION-NN.xml (NN from 01), for tests that "
                + "check what the client sent.",
            valueName: "dir"))
    var recordPaos: String?

    @Option(
        help: ArgumentHelp(
            "A CVCA link chain (TR-03124-2 module C3): the DV and AT under generation S (1 to "
                + "\(TestCVCAGenerations.maximum)) of the test CVCA series DEEIDTESTLK0000N; a card trusting an "
                + "older generation needs the link certificates (`eid-test-pki cvca --generation N` writes one).",
            valueName: "S"))
    var cvcaGeneration: Int?

    @Option(
        help: ArgumentHelp(
            "With --cvca-generation: EAC1 carries the link certificates from generation B on (1: the full chain, "
                + "S: none); older ones come in EAC2 when the client names an older CAR (default 1).",
            valueName: "B"))
    var eac1LinksFrom: Int?

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
        guard (1...100_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1 to 100000")
        }
        guard (1...100_000).contains(maxSessions) else { throw ValidationError("--max-sessions must be 1 to 100000") }
        guard (1...65535).contains(clientPort) else { throw ValidationError("--client-port must be 1 to 65535") }
        if let recordPaos {
            var info = stat()
            guard stat(recordPaos, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("--record-paos \(recordPaos) is not a directory: make it first")
            }
        }
        if let cvcaGeneration {
            guard pki == nil else { throw ValidationError("--cvca-generation is for the built-in test PKI, not --pki") }
            guard CVCAChainStaging(newestGeneration: cvcaGeneration) != nil else {
                throw ValidationError("--cvca-generation must be 1 to \(TestCVCAGenerations.maximum)")
            }
            guard CVCAChainStaging(newestGeneration: cvcaGeneration, eac1LinksFrom: eac1LinksFrom ?? 1) != nil else {
                throw ValidationError("--eac1-links-from must be 1 to --cvca-generation")
            }
        } else if eac1LinksFrom != nil {
            throw ValidationError("--eac1-links-from needs --cvca-generation")
        }
    }

    func run() throws {
        stopOnSignals()
        var configuration = FrontEndConfiguration()
        configuration.host = host
        configuration.port = port ?? 18443
        configuration.pskForAll = psk
        configuration.maximumBodySize = maxBody
        configuration.slowDelay = .seconds(slowDelay)
        configuration.maximumConnections = maxConnections
        configuration.maximumSessions = maxSessions
        configuration.clientPort = clientPort
        if logRequests { configuration.requestLog = { StandardStream.error.write("eid-testserver: \($0)\n") } }
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
            tlsCertificate: certificate, capacity: configuration.maximumSessions, attributes: requested,
            cvcaChain: cvcaGeneration.flatMap {
                CVCAChainStaging(newestGeneration: $0, eac1LinksFrom: eac1LinksFrom ?? 1)
            }, transactionInfo: transactionInfo)
        let server = HTTPSFrontEnd(
            configuration: configuration, tls: tls,
            handler: recordPaos.map { PAOSRecorder(handler, directory: $0) } ?? handler)
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
