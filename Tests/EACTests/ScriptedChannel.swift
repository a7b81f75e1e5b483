import SmartCard
import TestVectors
import Testing

/// A fake card that expects an exact sequence of command APDUs and answers each with a
/// recorded response. A command that differs from the script is a test failure.
final class ScriptedChannel: CardChannel {
    struct Step {
        let command: [UInt8]
        let response: [UInt8]
    }

    enum ScriptError: Error {
        case unexpectedCommand(index: Int)
        case scriptExhausted
    }

    var steps: [Step]
    private(set) var index = 0
    let supportsExtendedLength: Bool

    init(_ steps: [Step], extendedLength: Bool = false) {
        self.steps = steps
        self.supportsExtendedLength = extendedLength
    }

    convenience init(_ pairs: [(String, String)]) throws {
        self.init(try pairs.map { Step(command: try hex($0.0), response: try hex($0.1)) })
    }

    var isFinished: Bool { index == steps.count }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        guard index < steps.count else {
            Issue.record("no more scripted APDUs, got \(command.bytes.hexString)")
            throw ScriptError.scriptExhausted
        }
        let step = steps[index]
        guard command.bytes == step.command else {
            Issue.record("APDU \(index): expected \(step.command.hexString), got \(command.bytes.hexString)")
            throw ScriptError.unexpectedCommand(index: index)
        }
        index += 1
        return try ResponseAPDU(bytes: step.response)
    }
}
