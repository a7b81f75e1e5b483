import SDK
import SmartCard
import Workflows

/// One face session: the wiring every workflow's face shares. It opens the readers, joins the
/// output and the input into the peer the workflow talks to (the JSON face with commands from the
/// context's input when `json` and that input is not a terminal, else prompts on the terminal,
/// else, with `pinentry`, dialogs of a pinentry program), and watches the stop signals. It takes its input and output as values (`FaceContext`), never
/// process globals, so `eid serve` can make one per browser request or SDK connection.
public struct FaceSession {
    public let context: FaceContext
    public let json: Bool
    /// Who asks when there is no terminal (`eid serve`): nil, and a session without a terminal
    /// fails with `.noTerminal`.
    public let pinentry: PinentryProgram?

    public init(context: FaceContext, json: Bool, pinentry: PinentryProgram? = nil) {
        self.context = context
        self.json = json
        self.pinentry = pinentry
    }

    /// A wired session, ready to run a workflow.
    public struct Wired {
        public let provider: any CardReaderProvider
        public let peer: SDKPeer
        let commands: JSONCommandInput?
        let interruption: Interruption

        /// Whether a stop signal arrived.
        public var isStopped: Bool { interruption.isStopped }

        /// Runs `body` (the workflow) with the stop signals watched; `body` starts the input
        /// with the function it is given once its first message is out, so that message is
        /// always the first line. A command still held when `body` returns is dropped.
        public func run<T>(_ body: (_ startInput: () -> Void) -> T) -> T {
            defer { end() }
            return withExtendedLifetime(interruption) { body(startInput) }
        }

        /// Starts reading the JSON face's commands (once the workflow's first message is out).
        func startInput() { commands?.reader.start() }

        /// Drops a command still held: the workflow has ended.
        func end() { commands?.queue.close() }
    }

    /// Why a session could not be wired: a FailureReason for the caller to say (a typed
    /// wrapper, so it can be thrown).
    public struct Failure: Error {
        public var reason: FailureReason
    }

    /// The readers.
    public func openReaders() throws(Failure) -> any CardReaderProvider {
        do {
            return try context.readers.open()
        } catch {
            throw Failure(reason: FailureReason(readerError: CardError(error)))
        }
    }

    /// Opens the readers and wires the input. `transportPIN`: the person may be asked for the
    /// 5-digit transport PIN. `title`: what a pinentry dialog's title says is being done.
    /// `personPeer` wraps the peer of a face that asks a person (sentences, and the terminal's
    /// prompts or pinentry's dialogs), e.g. with what an authentication shows and asks before
    /// the card.
    public func wire(
        transportPIN: Bool = true, title: String = "eid",
        personPeer: (FacePeer, any SecretAsker) -> SDKPeer = { peer, _ in peer }
    ) throws(Failure) -> Wired {
        let provider = try openReaders()
        let cancelWait = CancelWait(provider)
        if json && !context.input.isTerminal {
            let commands = JSONCommandInput(context: context, cancelWait: cancelWait)
            return Wired(
                provider: provider, peer: commands.peer, commands: commands, interruption: commands.interruption)
        }
        let person: any SecretAsker
        let interruption: Interruption
        if let device = context.terminal() {
            let terminal = TerminalInput(device: device)
            person = TerminalFace(terminal: terminal, transportPIN: transportPIN)
            interruption = Interruption(context: context, terminal: terminal, queue: nil, cancelWait: cancelWait)
        } else if let pinentry {
            let face = PinentryFace(
                program: pinentry, console: context.console, title: title, transportPIN: transportPIN)
            person = face
            interruption = Interruption(context: context, pinentry: face, cancelWait: cancelWait)
        } else {
            throw Failure(reason: .noTerminal)
        }
        let peer = FacePeer(
            output: json ? .json : .sentences(person.requests), input: .person(person), console: context.console)
        return Wired(
            provider: provider, peer: json ? peer : personPeer(peer, person), commands: nil,
            interruption: interruption)
    }
}
