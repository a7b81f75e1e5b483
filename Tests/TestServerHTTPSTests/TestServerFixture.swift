import Foundation
import Online
import SmartCard
import TestServerHTTPS

/// A running front end on a free loopback port with fresh TLS credentials, and the independent
/// clients the tests talk to it with: Debian's curl and `openssl s_client` (OpenSSL's own TLS
/// client, for RSA-PSK and session resumption).
final class TestServerFixture: Sendable {
    /// One RSA 3072 key for every test (making one takes a while).
    static let credentials: TLSServerCredentials = try! TLSServerCredentials.generate(host: "127.0.0.1")

    let server: HTTPSFrontEnd
    let port: Int
    let directory: String
    var origin: String { "https://127.0.0.1:\(port)" }
    var certificateFile: String { directory + "/cert.pem" }

    init(
        handler: any PAOSSessionHandler = StubPAOSSessionHandler(),
        _ adjust: (inout FrontEndConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = FrontEndConfiguration()
        configuration.port = 0
        adjust(&configuration)
        let tls = try TLSServerContext(
            certificatePEM: Self.credentials.certificatePEM, keyPEM: Self.credentials.keyPEM)
        server = HTTPSFrontEnd(configuration: configuration, tls: tls, handler: handler)
        port = try server.start()
        directory = NSTemporaryDirectory() + "eid-testserver-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.credentials.certificatePEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arguments` (the program first) with `input` on its standard input; every client
    /// has its own time limit, and `timeout` ends it in any case.
    @discardableResult
    func run(_ arguments: [String], input: [UInt8] = [], timeout: Int = 30) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [String(timeout)] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try? stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// curl against the server, verifying its certificate; prints the body, then "\nHTTP <code>".
    func curl(_ path: String, _ extra: [String] = []) throws -> (code: Int, body: String) {
        let output = try run(
            ["/usr/bin/curl", "-sS", "--max-time", "20", "--cacert", certificateFile, "-w", "\nHTTP %{http_code}"]
                + extra + [origin + path])
        guard let marker = output.stdout.range(of: "\nHTTP ", options: .backwards) else { return (0, output.stderr) }
        return (Int(output.stdout[marker.upperBound...]) ?? 0, String(output.stdout[..<marker.lowerBound]))
    }

    /// A new session's TcToken, parsed by Online's parser.
    func tcToken(_ query: String = "") throws -> TcToken {
        let (code, body) = try curl("/tctoken" + query)
        guard code == 200 else { throw FixtureError.status(code, body) }
        return try TcToken.parse(Array(body.utf8))
    }

    /// `openssl s_client` over TLS 1.2 with `options`, sending `request`.
    func sClient(_ options: [String], request: String = "") throws -> Output {
        try run(
            [
                "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-tls1_2", "-CAfile", certificateFile,
                "-ign_eof",
            ] + options,
            input: Array(request.utf8), timeout: 20)
    }

    /// An HTTP/1.1 POST of `body` to the PAOS endpoint of `session`, as an eID client sends it
    /// (docs/protocol.md, "PAOS binding").
    static func paosRequest(session: String, body: [UInt8], paosHeader: Bool = true) -> String {
        var request = "POST /paos/\(session) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        request += "Content-Type: application/vnd.paos+xml; charset=UTF-8\r\n"
        request += "Accept: text/html; application/vnd.paos+xml\r\n"
        if paosHeader { request += "PAOS: ver=\"urn:liberty:paos:2006-08\"\r\n" }
        request += "Connection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        return request + String(decoding: body, as: UTF8.self)
    }

    static func startPAOS(_ session: String) -> [UInt8] {
        PAOSEnvelope(.startPAOS(StartPAOS(sessionIdentifier: session))).encoded()
    }

    /// curl's PAOS headers (docs/protocol.md, "PAOS binding").
    static let paosHeaders = [
        "-H", "Content-Type: application/vnd.paos+xml; charset=UTF-8", "-H",
        "Accept: text/html; application/vnd.paos+xml",
        "-H", "PAOS: ver=\"urn:liberty:paos:2006-08\"",
    ]
}

enum FixtureError: Error {
    case status(Int, String)
}

extension Secret {
    var hex: String { withBytes { $0.hexString } }
}
