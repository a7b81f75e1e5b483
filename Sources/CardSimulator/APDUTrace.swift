import SmartCard

/// One command and its answer, as `--trace` shows it: the instruction byte and the status
/// word, never data (it may carry passwords).
public struct APDUTrace: Equatable, Sendable, CustomStringConvertible {
    /// INS, or nil when the command was shorter than two bytes.
    public var instruction: UInt8?
    public var statusWord: StatusWord

    public init(instruction: UInt8?, statusWord: StatusWord) {
        self.instruction = instruction
        self.statusWord = statusWord
    }

    /// "apdu ins=B0 sw=9000".
    public var description: String {
        let ins = instruction.map { [$0].hexString.uppercased() } ?? "--"
        return "apdu ins=\(ins) sw=\([statusWord.sw1, statusWord.sw2].hexString.uppercased())"
    }
}
