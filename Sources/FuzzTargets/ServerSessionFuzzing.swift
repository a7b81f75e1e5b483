import EAC
import EIDTestServer
import Online
import TestPKI

/// eid-testserver's PAOS session: the first byte chooses the session's fault or variant (none,
/// or one of ServerFault's session faults: InitializeFramework, EACAdditionalInput, broken XML,
/// …), and each field (FuzzFields) after it is the body of a client's POST to that session,
/// answered in order. Since the server's MessageIDs are random, the text `urn:fuzz:last` in a
/// body stands for the MessageID of the server's last message (what a client puts into
/// RelatesTo). The PKI and a new session per choice are made once per process (for a fixed
/// date, on a stopped clock); every input starts from a copy of its session.
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

    /// The session faults and variants the first byte chooses from (after "none"). A new ServerFault
    /// case shifts the choices: rewrite the seeds then (FuzzSeedWriter; FuzzHarnessTests fail until then).
    public static let faults = ServerFault.allCases

    static let sessions: [EIDServerSession] = ([nil] + faults.map { Optional($0) }).map { fault in
        do {
            return try EIDServerSession(
                configuration: SessionConfiguration(
                    sessionIdentifier: "fuzz", pki: pki, transactionInfo: "fuzz",
                    faults: ServerFaults(fault.map { [$0] } ?? []), date: CardSimulatorFuzzing.date),
                clock: StoppedClock())
        } catch {
            // The harness itself is broken, not the input: no target to fuzz.
            preconditionFailure("the fuzz session (\(fault?.rawValue ?? "no fault")) cannot be set up: \(error)")
        }
    }

    static func run(_ data: [UInt8]) { _ = states(data) }

    /// Runs `data` and returns the session's state after each body.
    public static func states(_ data: [UInt8]) -> [EIDServerSession.State] {
        guard let choice = data.first else { return [] }
        var session = sessions[Int(choice) % sessions.count]
        var states: [EIDServerSession.State] = []
        for body in FuzzFields.split(Array(data.dropFirst())) {
            _ = session.respond(toBody: replacingPlaceholder(in: body, with: session.lastMessageID)).body
            states.append(session.state)
        }
        _ = session.result
        return states
    }

    /// A seed: the bodies for a session with `fault` (nil: none).
    public static func seed(fault: ServerFault?, bodies: [[UInt8]]) -> [UInt8] {
        let choice = fault.flatMap { faults.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        return [UInt8(choice)] + FuzzFields.join(bodies)
    }

    /// Time stands still: a copy of a session made at start must not time out later in the run
    /// (and an input replays alike).
    struct StoppedClock: SessionClock {
        func now() -> Double { 0 }
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
