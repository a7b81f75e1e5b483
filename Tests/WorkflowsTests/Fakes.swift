import EAC
import Faces
import Foundation
import SDK
import SmartCard

@testable import Workflows

/// A peer that answers from a script of commands, handed to the workflow in order whatever it
/// asks (so the workflow's own answers to a wrong command are seen), and records every message.
/// Lines that are not commands are answered at once; CANCEL comes first, as it acts at once.
/// `feed` adds a line later, from any thread.
// Unchecked: the state is guarded by `lock`.
class ScriptedPeer: SDKPeer, @unchecked Sendable {
    // Guarded by `lock`: `commands`, `cancelled`, `messages`.
    private let lock = Lock()
    private var recorded: [SDKMessage] = []
    private var commands: [SDKCommand] = []
    private var cancelled = false
    private let endOfInput: Bool

    init(_ lines: [String], endOfInput: Bool = true) {
        self.endOfInput = endOfInput
        lines.forEach(feed)
    }

    func feed(_ line: String) {
        let parsed = SDKCommand.parse(Array(line.utf8))
        lock.withLock {
            switch parsed {
            case .rejected(let message): recorded.append(message)
            case .command(.cancel): cancelled = true
            case .command(let command): commands.append(command)
            }
        }
    }

    var messages: [SDKMessage] { lock.withLock { recorded } }

    func send(_ message: SDKMessage) { lock.withLock { recorded.append(message) } }

    func nextCommand(timeout: Double) -> PeerInput {
        let deadline = Deadline(secondsFromNow: timeout)
        while true {
            let next: PeerInput? = lock.withLock {
                if cancelled { return .command(.cancel) }
                if !commands.isEmpty { return .command(commands.removeFirst()) }
                return endOfInput ? .endOfInput : nil
            }
            if let next { return next }
            if deadline.hasPassed { return .timedOut }
            usleep(10_000)
        }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    var names: [String] { messages.map(\.name) }
}

/// One reader with a card that is always present.
final class OneReaderProvider: CardReaderProvider {
    let channel: FakeCardChannel
    var present = true
    init(_ channel: FakeCardChannel) { self.channel = channel }
    func readers() throws -> [ReaderSnapshot] { [ReaderSnapshot(name: "Test", cardPresent: present)] }
    func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        guard present else { throw CardError.cardRemoved }
        return channel
    }
    func waitForChange(timeout: Double) throws { usleep(UInt32(min(timeout, 0.01) * 1_000_000)) }
    func cancelWait() {}
}

/// A card channel that answers EF.CardAccess and MSE:Set AT from a PIN state; the PIN
/// operations are modelled by `FakePINCard`.
final class FakeCardChannel: CardConnection {
    var mseStatus: StatusWord
    var cardAccess: [UInt8] = [UInt8](hex: "31143012060a04007f0007020204020202010202010d")!
    var removed = false
    init(mseStatus: StatusWord) { self.mseStatus = mseStatus }
    var supportsExtendedLength: Bool { true }
    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        if removed { throw CardError.cardRemoved }
        switch command.ins {
        case 0xB0: return ResponseAPDU(data: cardAccess, statusWord: .success)
        case 0x22: return ResponseAPDU(statusWord: mseStatus)
        default: return ResponseAPDU(statusWord: .instructionNotSupported)
        }
    }
    var resets = 0
    func disconnect(resetCard: Bool) { if resetCard { resets += 1 } }
}

/// The eID card's password rules, for testing the workflow's decisions.
class FakePINCard: PINManagementCard {
    var pin = "123456", can = "500540", puk = "9876543210"
    var counter = 3
    var pukUses = 10
    /// What the unblock answers once the PUK is used up: 6982 on the nPA.
    var inoperativePUKStatus = StatusWord.securityStatusNotSatisfied
    var canInSession = false
    var established: PACEPasswordType?
    var changedTo: String?
    var operations: [String] = []

    func establishPACE(_ password: PACEPasswordType, secret: Secret, chat: CHAT?) throws -> PACEOutcome {
        let value = secret.withBytes { String(decoding: $0, as: UTF8.self) }
        operations.append("PACE \(password)")
        established = nil
        switch password {
        case .can:
            guard value == can else { return .wrongPassword(.authenticationFailed) }
            canInSession = true
        case .puk:
            guard value == puk else { return .wrongPassword(.authenticationFailed) }
        case .pin:
            if counter == 0 { return .wrongPassword(.retriesLeft(0)) }
            if counter == 1 && !canInSession { return .wrongPassword(.securityStatusNotSatisfied) }
            guard value == pin else {
                counter -= 1
                return .wrongPassword(.retriesLeft(counter))
            }
            counter = 3
        case .mrz:
            return .wrongPassword(.authenticationFailed)
        }
        established = password
        return .established
    }

    func pinRetryCounter() throws -> Int? { counter }

    func changePIN(to newPIN: Secret) throws -> StatusWord {
        operations.append("change")
        guard established == .pin else { return .securityStatusNotSatisfied }
        changedTo = newPIN.withBytes { String(decoding: $0, as: UTF8.self) }
        pin = changedTo!
        return .success
    }

    func unblockPIN() throws -> StatusWord {
        operations.append("unblock")
        guard established == .puk else { return .securityStatusNotSatisfied }
        guard pukUses > 0 else { return inoperativePUKStatus }
        pukUses -= 1
        counter = 3
        return .success
    }
}
