import SDK
import SmartCard
import Workflows

/// Joins an output (JSON lines, or sentences) and an input (JSON commands on standard input, or
/// a person asked at the terminal or through a pinentry program) into the peer a workflow talks to.
///
/// The JSON face over standard input is `.json` with `.commands`; over a WebSocket it will be the
/// same with another line source feeding the queue and another sink behind the console.
public final class FacePeer: SDKPeer {
    public enum Output {
        case json
        case sentences(SecretRequests)
    }

    public enum Input {
        case commands(CommandQueue)
        /// A person at the terminal or at a pinentry program.
        case person(any SecretAsker)
    }

    let output: Output
    let input: Input
    let console: Console
    /// Sees every message once it has gone out (so what it triggers comes after it).
    public var observe: (SDKMessage) -> Void = { _ in }

    public init(output: Output, input: Input, console: Console) {
        self.output = output
        self.input = input
        self.console = console
    }

    public func send(_ message: SDKMessage) {
        switch output {
        case .json:
            // Below API level 3 a card that is not an eID card is not news (AusweisApp2 1.26.2
            // sends no READER for it).
            if case .reader(let reader) = message, reader.card == .unknown, console.apiLevel.withLock({ $0 }) < 3 {
                break
            }
            console.json(message)
        case .sentences(let face):
            if let line = face.render(message) { console.out(line) }
        }
        observe(message)
        // The person's face learns which secret to ask for from the ENTER_* messages, after
        // the sentence for the message was rendered from what it knew before.
        if case .person(let face) = input { face.requests.note(message) }
    }

    public func nextCommand(timeout: Double) -> PeerInput {
        switch input {
        case .commands(let queue): return queue.next(timeout: timeout)
        case .person(let face): return face.nextCommand(timeout: timeout)
        }
    }

    public var isCancelled: Bool {
        switch input {
        case .commands(let queue): return queue.isCancelled
        case .person(let face): return face.isInterrupted
        }
    }
}
