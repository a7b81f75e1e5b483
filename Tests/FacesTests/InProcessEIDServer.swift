import EAC
import EIDTestServer
import Faces
import Online
import SmartCard
import TestPKI
import Workflows

/// The far end of `eid auth` in process: the test eID server's real PAOS sessions
/// (`EIDServerSessions`) as a `PAOSTransport`, without HTTP or TLS. It stands for one TLS
/// certificate, whose hash is in the service's CommCertificates.
final class InProcessEIDServer: PAOSTransport {
    static let origin = "https://127.0.0.1:18443"
    static let tcTokenURL = origin + "/tctoken"
    /// Stands for the DER of the server's TLS certificate: only its hash matters here.
    static let tlsCertificate = Array("eid-testserver TLS certificate (faces test)".utf8)
    static let sessionIdentifier = "5e6a761c-1224-46ed-9798-ac1972faf909"

    let sessions = EIDServerSessions()
    private(set) var exchanges = 0

    init(
        faults: Set<ServerFault> = [], required: Set<AccessRight> = [.readDG4],
        optional: Set<AccessRight> = [.readDG5, .readDG17]
    ) throws {
        let pki = try ServerPKI.testPKI(
            origin: Self.origin, tlsCertificates: [Self.tlsCertificate], rights: required.union(optional))
        try sessions.create(
            SessionConfiguration(
                sessionIdentifier: Self.sessionIdentifier, pki: pki, requiredRights: required,
                optionalRights: optional, transactionInfo: "order 42", faults: ServerFaults(faults)))
    }

    var tcToken: TcToken {
        TcToken(
            serverAddress: Self.origin + "/paos", sessionIdentifier: Self.sessionIdentifier,
            refreshAddress: Self.origin + "/refresh")
    }

    /// `AuthFace`'s network: this server for the test tcTokenURL.
    var connect: AuthFace.Connect {
        { url in
            guard url == Self.tcTokenURL else {
                return .failure(AuthFace.ConnectFailure(.authTcTokenUnavailable(.hostNotFound(host: "elsewhere"))))
            }
            return .success(AuthConnection(tcToken: self.tcToken, transport: self))
        }
    }

    var result: SessionResult? { sessions.result(of: Self.sessionIdentifier) }

    func exchange(_ body: [UInt8]) throws(PAOSTransportError) -> [UInt8] {
        exchanges += 1
        guard let answer = sessions.respond(toBody: body).body else { throw .connectionFailed }
        return answer
    }

    var serverCertificates: [[UInt8]] { [Self.tlsCertificate] }

    /// No TLS in process: every exchange is over the one certificate the description lists.
    func bindServerCertificates(_ accepts: @escaping @Sendable ([UInt8]) -> Bool) {}
}
