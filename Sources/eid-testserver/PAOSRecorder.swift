import FoundationEssentials
import SmartCard
import TestServerHTTPS

/// `serve --record-paos DIR`: the PAOS session handler with every request body the client POSTs
/// written to DIR as it arrived, `SESSION-NN.xml` (NN counts the session's POSTs from 01), for tests
/// that read what the client sent with another reader (EndToEndTests' PAOSSchemaTests). A body that
/// cannot be written ends nothing: the session goes on and the file is missing.
final class PAOSRecorder: PAOSSessionHandler {
    private let handler: any PAOSSessionHandler
    private let directory: URL
    private let counts = Locked<[String: Int]>([:])

    init(_ handler: any PAOSSessionHandler, directory: String) {
        self.handler = handler
        self.directory = URL(fileURLWithPath: directory, isDirectory: true)
    }

    func respond(sessionID: String, body: [UInt8]) -> PAOSHTTPReply {
        let number = counts.withLock { counts in
            counts[sessionID, default: 0] += 1
            return counts[sessionID] ?? 0
        }
        // Session ids are the front end's (hex); anything else is kept out of the file name.
        let name = String(
            sessionID.unicodeScalars.filter { $0.properties.isASCIIHexDigit || $0 == "-" }.map(Character.init))
        let file = directory.appendingPathComponent(
            (name.isEmpty ? "session" : name) + "-" + twoDigits(number) + ".xml")
        try? Data(body).write(to: file)
        return handler.respond(sessionID: sessionID, body: body)
    }

    func openSession(id: String, faults: [String]) -> SessionOpening { handler.openSession(id: id, faults: faults) }
    func isRunning(sessionID: String) -> Bool { handler.isRunning(sessionID: sessionID) }
    func resultJSON() -> [UInt8] { handler.resultJSON() }
    func resultJSON(sessionID: String) -> [UInt8]? { handler.resultJSON(sessionID: sessionID) }
    func personName(sessionID: String?) -> String? { handler.personName(sessionID: sessionID) }

    private func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
}
