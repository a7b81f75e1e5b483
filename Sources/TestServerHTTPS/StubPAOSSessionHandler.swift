import Online
import OrderedJSON
import SmartCard

/// A stand-in for the eID server session library, so that the front end's plumbing can be
/// tested on its own: it accepts no session faults, answers StartPAOS with a StartPAOSResponse
/// carrying an error (no eID session behind it), and remembers that as the last result.
public final class StubPAOSSessionHandler: PAOSSessionHandler {
    public static let message = "eid-testserver: this build has no eID session behind the PAOS endpoint"
    private let last = Locked<JSONValue>(.object([("ok", .bool(false)), ("error", .string("no session yet"))]))

    public init() {}

    private let open = Locked<Set<String>>([])

    /// Opens sessions without faults; each ends with its first PAOS message.
    public func openSession(id: String, faults: [String]) -> SessionOpening {
        guard faults.isEmpty else { return .unknownFault }
        open.withLock { _ = $0.insert(id) }
        return .opened
    }

    public func isRunning(sessionID: String) -> Bool { open.withLock { $0.contains(sessionID) } }

    public func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply {
        let envelope: PAOSEnvelope
        do {
            envelope = try PAOSEnvelope.parse(body)
        } catch {
            return PAOSHTTPReply(status: 400, body: Array("not a PAOS message: \(error)\n".utf8))
        }
        open.withLock { _ = $0.remove(sessionID) }
        let result = DSSResult(.error(.internalError), message: Self.message)
        let answer = PAOSEnvelope(
            .startPAOSResponse(StartPAOSResponse(result: result)), relatesTo: envelope.messageID)
        last.withLock {
            $0 = .object([
                ("ok", .bool(false)), ("session", .string(sessionID)),
                ("error", .string("\(envelope.message.kind.rawValue): \(Self.message)")),
            ])
        }
        return PAOSHTTPReply(status: 200, body: answer.encoded())
    }

    public func resultJSON() -> [UInt8] { Array(last.withLock { $0.text }.utf8) }
}
