import EAC
import EIDTestServer
import Online
import TestPKI

/// eid-testserver's PAOS session: each field (FuzzFields) is the body of a client's POST to one
/// session, answered in order. Since the server's MessageIDs are random, the text
/// `urn:fuzz:last` in a body stands for the MessageID of the server's last message (what a
/// client puts into RelatesTo). The PKI is issued once per process for a fixed date.
public enum ServerSessionFuzzing {
    public static let origin = "https://127.0.0.1:18443"
    public static let lastMessageIDPlaceholder = Array("urn:fuzz:last".utf8)
    public static let tlsCertificate = Array("eid fuzzing: TLS certificate".utf8)

    static let pki: ServerPKI = {
        do {
            return try ServerPKI.testPKI(
                origin: origin, tlsCertificates: [tlsCertificate], date: CardSimulatorFuzzing.date)
        } catch {
            // The harness itself is broken, not the input: no target to fuzz.
            preconditionFailure("the test PKI cannot be issued: \(error)")
        }
    }()

    static func run(_ data: [UInt8]) {
        guard
            var session = try? EIDServerSession(
                configuration: SessionConfiguration(
                    sessionIdentifier: "fuzz", pki: pki, transactionInfo: "fuzz", date: CardSimulatorFuzzing.date))
        else { preconditionFailure("the fuzz session cannot be set up") }
        for body in FuzzFields.split(data) {
            let reply = session.respond(toBody: replacingPlaceholder(in: body, with: session.lastMessageID))
            _ = reply.body
        }
        _ = session.result
    }

    static func replacingPlaceholder(in body: [UInt8], with messageID: String?) -> [UInt8] {
        guard let messageID else { return body }
        let placeholder = lastMessageIDPlaceholder
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var i = 0
        while i < body.count {
            if i + placeholder.count <= body.count, body[i..<(i + placeholder.count)].elementsEqual(placeholder) {
                out += Array(messageID.utf8)
                i += placeholder.count
            } else {
                out.append(body[i])
                i += 1
            }
        }
        return out
    }
}
