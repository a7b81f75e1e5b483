import OrderedJSON
import SmartCard

@testable import RemoteIFD

/// An in-process phone behind an `IFDMessageChannel`: answers each request with the text a
/// handler returns (any number of frames), records what eid sent, and can vanish.
final class FakePhone: IFDMessageChannel, @unchecked Sendable {
    struct Timeout: Error {}
    struct Closed: Error {}

    private let condition = Condition()
    private var inbox: [String] = []
    private(set) var sent: [String] = []
    private var closed = false
    /// Answers to one request (its JSON), as frames.
    var answer: (JSONValue) -> [String]

    init(answer: @escaping (JSONValue) -> [String] = { _ in [] }) { self.answer = answer }

    func send(text: String, timeout: Double) throws {
        condition.lock()
        guard !closed else {
            condition.unlock()
            throw Closed()
        }
        sent.append(text)
        let answer = self.answer
        condition.unlock()
        // The handler runs unlocked: it may push, vanish or change the answers.
        let frames = answer(try JSONValue(parsing: Array(text.utf8)))
        condition.lock()
        inbox += frames
        condition.broadcast()
        condition.unlock()
    }

    func receive(timeout: Double) throws -> String {
        let deadline = Deadline(secondsFromNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while inbox.isEmpty {
            if closed { throw Closed() }
            if deadline.hasPassed { throw Timeout() }
            condition.wait(seconds: deadline.remaining)
        }
        return inbox.removeFirst()
    }

    func isTimeout(_ error: any Error) -> Bool { error is Timeout }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// A frame the phone sends by itself (an IFDStatus push).
    func push(_ text: String) {
        condition.lock()
        inbox.append(text)
        condition.broadcast()
        condition.unlock()
    }

    /// The phone goes away: every wait on the channel ends with an error.
    func vanish() { close() }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    var sentMessages: [JSONValue] {
        condition.lock()
        defer { condition.unlock() }
        return sent.compactMap { try? JSONValue(parsing: Array($0.utf8)) }
    }
}

/// Frames a phone sends, as AusweisApp writes them.
enum PhoneFrames {
    static let context = "ctx-1"
    static let ok = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"
    static let error = "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error"
    static let minorPrefix = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/"

    static func object(_ members: [(String, JSONValue)]) -> String { JSONValue.object(members).text }

    static func response(_ msg: String, minor: String? = nil, _ extra: [(String, JSONValue)] = []) -> String {
        object(
            [("msg", .string(msg)), ("ContextHandle", .string(context))]
                + [("ResultMajor", .string(minor == nil ? ok : error))]
                + [("ResultMinor", minor.map { JSONValue.string(minorPrefix + $0) } ?? .null)] + extra)
    }

    static func establishContextResponse(name: String = "Pixel", minor: String? = nil) -> String {
        response("IFDEstablishContextResponse", minor: minor, [("IFDName", .string(name))])
    }

    static func status(
        slot: String = "NFC", pinPad: Bool = false, card: Bool = true, connected: Bool = true, maxAPDU: Int = 65546
    ) -> String {
        object([
            ("msg", .string("IFDStatus")), ("ContextHandle", .string(context)), ("SlotName", .string(slot)),
            ("PINPad", .bool(pinPad)), ("MaxAPDULength", .integer(maxAPDU)), ("ConnectedReader", .bool(connected)),
            ("CardAvailable", .bool(card)), ("EFATR", .null), ("EFDIR", .null),
        ])
    }

    static func ifdError(minor: String) -> String {
        object([
            ("msg", .string("IFDError")), ("ContextHandle", .string(context)), ("SlotHandle", .string("")),
            ("ResultMajor", .string(error)), ("ResultMinor", .string(minorPrefix + minor)),
        ])
    }

    /// A phone with one NFC slot and a card that answers every request as AusweisApp does;
    /// Transmit answers `9000`.
    static func standard(pinPad: Bool = false, card: Bool = true) -> (JSONValue) -> [String] {
        { request in
            switch request["msg"]?.string {
            case "IFDEstablishContext": return [establishContextResponse()]
            case "IFDGetStatus": return [status(pinPad: pinPad, card: card)]
            case "IFDConnect": return [response("IFDConnectResponse", [("SlotHandle", .string("slot-7"))])]
            case "IFDTransmit":
                return [
                    response(
                        "IFDTransmitResponse", [("SlotHandle", .string("slot-7")), ("ResponseAPDU", .string("9000"))])
                ]
            case "IFDDisconnect": return [response("IFDDisconnectResponse", [("SlotHandle", .string("slot-7"))])]
            default: return []
            }
        }
    }
}
