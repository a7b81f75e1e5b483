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
