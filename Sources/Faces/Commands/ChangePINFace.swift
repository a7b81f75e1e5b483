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

    let session: FaceSession
    let options: Options

    public init(context: FaceContext, options: Options) {
        session = FaceSession(context: context, json: options.json)
        self.options = options
    }

    /// Runs the workflow; returns the exit status (its sentence, if any, already said).
    public func run() -> Int32 {
        let console = session.context.console
        let wired: FaceSession.Wired
        do { wired = try session.wire() } catch { return console.report(error.reason) }
        // GET_STATUS's view of the workflow (change PIN sends no automatic STATUS: its progress
        // does not move, as in AusweisApp).
        let status = session.context.sdkStatus
        let peer: SDKPeer =
            options.json
            ? StatusReport(
                inner: wired.peer, workflow: "CHANGE_PIN", status: status, enabled: false,
                level: session.context.console.apiLevel) : wired.peer
        defer { if options.json { status.end() } }
        let workflow = ChangePINWorkflow(
            provider: wired.provider, peer: peer, readerName: options.reader,
            timeouts: .init(card: options.timeout, input: options.timeout))
        // The start message goes out before any input is read, so it is always the first line.
        let outcome = wired.run { startInput in workflow.runStarting(startInput) }
        guard var reason = FailureReason(outcome, timeout: options.timeout) else { return ExitStatus.success }
        // The workflow has cancelled, wiped its secrets and reset the card.
        if wired.isStopped { reason = .interrupted }
        return console.report(reason, quiet: options.json && reason.isCancellation)
    }
}
