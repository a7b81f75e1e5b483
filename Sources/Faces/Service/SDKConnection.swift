import Dispatch
import LocalService
import SDK
import SmartCard
import Workflows

/// One SDK client over the WebSocket, as AusweisApp's MessageDispatcher serves it: between
/// workflows, each message is answered at once (GET_INFO, GET_API_LEVEL, SET_API_LEVEL,
/// GET_READER, GET_READER_LIST, INVALID, UNKNOWN_COMMAND, BAD_STATE for a command that needs a
/// workflow), and RUN_AUTH or RUN_CHANGE_PIN starts one; while one runs, the messages are its
/// input, checked against its state by the JSON face (`CommandQueue`), as on standard input. A
/// browser activation may start an authentication here too (`AUTH` without RUN_AUTH). Workflows
/// run one after another in one connection; the API level holds for the connection.
///
/// The messages are handled in order on one serial queue; the switch back to "between
/// workflows" happens as the final message (AUTH with its result, CHANGE_PIN with its success)
/// goes out, so a RUN_* the client sends in answer is never taken for the old workflow's input.
// Unchecked: `running`, `previous` and `gone` are touched on `serial` only; the rest is immutable.
final class SDKConnection: SDKClient, @unchecked Sendable {
    enum Workflow {
        case auth(tcTokenURL: String, finish: (@Sendable (AuthFace.Ending) -> Void)?)
        case changePIN
    }

    private let sessions: ServiceSessions
    private let send: @Sendable (String) -> Void
    private let answers: InstantAnswers
    /// The API level, for the answers between workflows and those of each workflow.
    private let level: Locked<Int>
    private let serial = DispatchQueue(label: "eid.serve.sdk")
    /// The input of the workflow that runs.
    private var running: MessageLines?
    /// Signalled when the last workflow's thread has ended.
    private var previous: DispatchSemaphore?
    /// The connection has ended (a browser's workflow may still be handed over after that).
    private var gone = false

    init(sessions: ServiceSessions, send: @escaping @Sendable (String) -> Void) {
        self.sessions = sessions
        self.send = send
        let level = Locked(APILevel.initial)
        self.level = level
        answers = InstantAnswers(
            version: sessions.context.version, board: ReaderBoard(lookup: sessions.context.readers.lookup),
            level: level)
    }

    func receive(_ message: UnsafeMutableBufferPointer<UInt8>) {
        let copy = LockedBuffer(count: message.count)
        for (i, byte) in message.enumerated() { copy.bytes[i] = byte }
        serial.async { self.handle(copy) }
    }

    func closed() {
        serial.async {
            self.gone = true
            if let input = self.running { Self.cancel(input) }
            self.sessions.clientGone(self)
        }
    }

    /// CANCEL as the workflow's last input: the client has gone.
    private static func cancel(_ input: MessageLines) {
        var cancel = Array(#"{"cmd":"CANCEL"}"#.utf8)
        cancel.withUnsafeMutableBufferPointer { input.push($0) }
        input.end()
    }

    /// Starts `workflow` (the caller holds the service's workflow claim), from a browser activation.
    func start(_ workflow: Workflow) {
        serial.async { self.run(workflow) }
    }

    private func handle(_ buffer: LockedBuffer) {
        defer { buffer.wipe() }
        if let input = running {
            input.push(buffer.bytes)
            return
        }
        switch SDKCommand.parse(wiping: buffer.bytes) {
        case .rejected(let message):
            send(message.jsonLine)
        case .command(let command):
            if let message = answers.answer(command) { return send(message.jsonLine) }
            let workflow: Workflow
            switch command {
            case .runAuth(let tcTokenURL): workflow = .auth(tcTokenURL: tcTokenURL ?? "", finish: nil)
            case .runChangePIN: workflow = .changePIN
            default:
                QuestionRule.wipe(command)
                return send(SDKMessage.badState(command: command.name).jsonLine)
            }
            // The last workflow is still wiping and releasing its card: a moment.
            if let last = previous {
                _ = last.wait(timeout: .now() + 10)
                previous = nil
            }
            guard sessions.claim() else { return send(SDKMessage.badState(command: command.name).jsonLine) }
            run(workflow)
        }
    }

    /// On `serial`: runs `workflow` on a thread of its own with this connection as its face.
    private func run(_ workflow: Workflow) {
        let input = MessageLines()
        running = input
        if gone { Self.cancel(input) }
        let done = DispatchSemaphore(value: 0)
        previous = done
        let base = sessions.context
        var context = FaceContext(
            console: Console(sink: MessageSink(send: { [self] line in deliver(line) })), input: input,
            terminal: { nil }, clock: base.clock, signals: NoSignals(), readers: base.readers, terminate: { _ in },
            version: base.version)
        context.apiLevel = level
        let face = context
        let options = sessions.options
        let sessions = self.sessions
        let started = DetachedThread.start {
            var ending: AuthFace.Ending?
            switch workflow {
            case .auth(let tcTokenURL, _):
                ending = AuthFace(
                    context: face, options: .init(json: true, reader: options.reader, timeout: options.timeout),
                    trust: options.trust, connect: options.connect
                ).authenticate(url: tcTokenURL)
            case .changePIN:
                _ = ChangePINFace(
                    context: face, options: .init(json: true, reader: options.reader, timeout: options.timeout)
                ).run()
            }
            input.end()
            // The workflow has ended before the browser hears of it: an activation sent right
            // after the 303 finds the service free (AusweisApp never answers it 409).
            sessions.release()
            if case .auth(_, let finish?) = workflow, let ending { finish(ending) }
            done.signal()
        }
        if !started {
            running = nil
            sessions.release()
            done.signal()
            send(SDKMessage.internalError("cannot start the workflow's thread").jsonLine)
        }
    }

    /// A line of the running workflow to the client; at its final message the connection is
    /// between workflows again.
    private func deliver(_ line: String) {
        serial.sync {
            if Self.isFinal(line) {
                running?.end()
                running = nil
            }
            send(line)
        }
    }

    /// Whether `line` is a workflow's final message: AUTH with a result, CHANGE_PIN with a
    /// success (the encoder writes `msg` first, then the members in order).
    static func isFinal(_ line: String) -> Bool {
        line.hasPrefix(#"{"msg":"AUTH","result":"#) || line.hasPrefix(#"{"msg":"CHANGE_PIN","success":"#)
    }
}
