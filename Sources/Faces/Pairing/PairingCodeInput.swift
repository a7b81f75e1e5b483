import SmartCard
import Workflows

/// Reads the pairing code the phone shows (4 digits, the TLS PSK, so a secret): on the terminal
/// with echo off, or, when standard input is not a terminal, as one line from it (the code alone),
/// as the other commands read their answers there. Every wait is bounded.
struct PairingCodeInput {
    let context: FaceContext
    static let maximumLine = 64

    func read(prompt: String, timeout: Double) -> Result<Secret, PairFace.Failure> {
        let secret: Secret
        if context.input.isTerminal, let device = context.terminal() {
            let terminal = TerminalInput(device: device)
            defer { terminal.restore() }
            switch terminal.readSecret(prompt: prompt, timeout: timeout) {
            case .secret(let typed): secret = typed
            case .timedOut: return .failure(Self.noCode("no pairing code was typed within \(Int(timeout)) s"))
            case .endOfInput, .interrupted: return .failure(Self.noCode("pairing cancelled"))
            case .tooLong: return .failure(Self.wrongFormat)
            }
        } else {
            guard let line = readLine(timeout: timeout) else {
                return .failure(Self.noCode("no pairing code on standard input (one line with the code)"))
            }
            secret = line
        }
        guard secret.isDigits(count: 4) else {
            secret.wipe()
            return .failure(Self.wrongFormat)
        }
        return .success(secret)
    }

    static let wrongFormat = PairFace.Failure(
        sentence: "the pairing code is the 4 digits the phone shows", status: ExitStatus.usage)

    static func noCode(_ sentence: String) -> PairFace.Failure {
        PairFace.Failure(sentence: sentence, status: ExitStatus.cancelled)
    }

    /// One line from the line input, read on a thread of its own so that the wait is bounded; the
    /// bytes go through a locked buffer that is wiped.
    private func readLine(timeout: Double) -> Secret? {
        let result = Locked<Secret?>(nil)
        let done = Condition()
        let finished = Locked(false)
        let input = context.input
        _ = DetachedThread.start {
            let buffer = LockedBuffer(count: Self.maximumLine)
            let byte = LockedBuffer(count: 1)
            var count = 0
            var complete = false
            while count < Self.maximumLine {
                guard input.read(into: byte.bytes) == 1 else { break }
                if byte.bytes[0] == 0x0A {
                    complete = true
                    break
                }
                if byte.bytes[0] != 0x0D {
                    buffer.bytes[count] = byte.bytes[0]
                    count += 1
                }
            }
            if complete || count > 0 {
                let line = UnsafeMutableBufferPointer(rebasing: buffer.bytes[0..<count])
                result.withLock { $0 = Secret(consuming: line) }
            }
            buffer.wipe()
            byte.wipe()
            done.lock()
            finished.withLock { $0 = true }
            done.broadcast()
            done.unlock()
        }
        let deadline = Deadline(secondsFromNow: timeout)
        done.lock()
        while !finished.withLock({ $0 }) && !deadline.hasPassed { done.wait(seconds: deadline.remaining) }
        done.unlock()
        return result.withLock { $0 }
    }
}
