import SDK
import SmartCard
import Workflows

/// `eid change-pin`: the change PIN workflow with the terminal face (sentences and prompts) or
/// the JSON face (SDK messages, commands from the context's input), wired from a context.
public struct ChangePINFace {
    public struct Options: Sendable {
        public var json: Bool
        public var reader: String?
        public var timeout: Double

        public init(json: Bool, reader: String? = nil, timeout: Double = 600) {
            self.json = json
            self.reader = reader
            self.timeout = timeout
        }
    }

    /// The seconds a workflow has to end after a stop signal before eid exits anyway (an APDU in
    /// flight has a bounded wait of its own, which may be longer); pcscd then resets the card as
    /// its connection ends.
    public static let interruptGrace = 3.0

    let context: FaceContext
    let options: Options

    public init(context: FaceContext, options: Options) {
        self.context = context
        self.options = options
    }

    /// Runs the workflow; returns the exit status (its sentence, if any, already said).
    public func run() -> Int32 {
        let console = context.console
        let provider: any CardReaderProvider
        do {
            provider = try context.readers.open()
        } catch {
            return console.report(FailureReason(readerError: CardError(error)))
        }
        let cancelWait = CancelWait(provider)

        let peer: FacePeer
        let stdinReader: StandardInputReader?
        let interruption: Interruption
        if options.json && !context.input.isTerminal {
            let input = JSONCommandInput(context: context, cancelWait: cancelWait)
            (peer, stdinReader, interruption) = (input.peer, input.reader, input.interruption)
        } else {
            guard let device = context.terminal() else { return console.report(.noTerminal) }
            let terminal = TerminalInput(device: device)
            let face = TerminalFace(terminal: terminal)
            peer = FacePeer(output: options.json ? .json : .sentences(face), input: .terminal(face), console: console)
            stdinReader = nil
            interruption = Interruption(context: context, terminal: terminal, queue: nil, cancelWait: cancelWait)
        }

        let workflow = ChangePINWorkflow(
            provider: provider, peer: peer, readerName: options.reader,
            timeouts: .init(card: options.timeout, input: options.timeout),
            openSession: { connection, info in EIDCardSession(channel: connection, paceInfo: info) })
        // The start message goes out before any input is read, so it is always the first line.
        let outcome = withExtendedLifetime(interruption) { workflow.runStarting { stdinReader?.start() } }
        guard var reason = FailureReason(outcome, timeout: options.timeout) else { return ExitStatus.success }
        // The workflow has cancelled, wiped its secrets and reset the card.
        if interruption.isStopped { reason = .interrupted }
        return console.report(reason, quiet: options.json && reason.isCancellation)
    }
}
