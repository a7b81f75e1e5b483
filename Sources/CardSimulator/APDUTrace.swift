import EAC
import SmartCard

/// One command and its answer, as `--trace` shows it: the instruction byte and the status
/// word, never data (it may carry passwords); for an MSE:Set AT for PACE (00 22 C1 A4) also the
/// CHAT it carried, the rights the terminal asks the card for, which is no secret (it travels
/// in clear before PACE) and is what a test of the rights a client sends looks at.
public struct APDUTrace: Equatable, Sendable, CustomStringConvertible {
    /// INS, or nil when the command was shorter than two bytes.
    public var instruction: UInt8?
    public var statusWord: StatusWord
    /// The whole 7F4C object of an MSE:Set AT for PACE, nil for every other command.
    public var chat: [UInt8]?

    public init(instruction: UInt8?, statusWord: StatusWord, chat: [UInt8]? = nil) {
        self.instruction = instruction
        self.statusWord = statusWord
        self.chat = chat
    }

    /// The trace of `command` (its bytes as received) answered with `statusWord`.
    public init(command: [UInt8], statusWord: StatusWord) {
        let chat = (try? CommandAPDU(bytes: command)).flatMap { apdu in
            apdu.cla == 0x00 ? (try? PACEAuthenticationTemplate(command: apdu))?.chat : nil
        }
        self.init(instruction: command.count >= 2 ? command[1] : nil, statusWord: statusWord, chat: chat)
    }

    /// "apdu ins=B0 sw=9000"; "apdu ins=22 sw=9000 chat=7F4C…" for an MSE:Set AT for PACE with a CHAT.
    public var description: String {
        let ins = instruction.map { [$0].hexString.uppercased() } ?? "--"
        let line = "apdu ins=\(ins) sw=\([statusWord.sw1, statusWord.sw2].hexString.uppercased())"
        return chat.map { line + " chat=" + $0.hexString.uppercased() } ?? line
    }
}
