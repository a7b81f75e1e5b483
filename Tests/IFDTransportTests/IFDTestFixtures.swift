import EIDCrypto
import Foundation
import IFDTransport
import TestServerHTTPS

/// Material made once per test run (RSA 3072 keys take a while): two phone certificates and eid's identity in
/// a directory of its own.
enum IFDTestFixtures {
    static let phone = try! TLSServerCredentials.generate(host: "127.0.0.1", days: 2)
    static let otherPhone = try! TLSServerCredentials.generate(host: "127.0.0.1", days: 2)
    static let identityDirectory = temporaryDirectory("identity")
    static let identity = try! IFDClientIdentity.loadOrCreate(directory: identityDirectory + "/eid/ifd")

    static func sha256(_ credentials: TLSServerCredentials) -> [UInt8] {
        try! Digest.sha256.hash(credentials.certificateDER!)
    }

    /// A fresh directory under the system's temporary one.
    static func temporaryDirectory(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ifdtransport-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The error `body` throws as an `IFDTransportError`, and the seconds it took; nil when it threw none.
func transportError(_ body: () throws -> Void) -> (error: IFDTransportError?, seconds: Double) {
    let start = Date()
    do {
        try body()
        return (nil, Date().timeIntervalSince(start))
    } catch let error as IFDTransportError {
        return (error, Date().timeIntervalSince(start))
    } catch {
        return (.protocolViolation("unexpected \(error)"), Date().timeIntervalSince(start))
    }
}
