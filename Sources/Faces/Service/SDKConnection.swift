import Dispatch
import LocalService
import Online
import SDK
import SmartCard
import Workflows

/// One SDK client over the WebSocket, as AusweisApp's MessageDispatcher serves it: between
/// workflows, each message is answered at once (GET_INFO, GET_API_LEVEL, SET_API_LEVEL,
/// GET_READER, GET_READER_LIST, INVALID, UNKNOWN_COMMAND, BAD_STATE for a command that needs a
/// workflow), and RUN_AUTH or RUN_CHANGE_PIN starts one; while one runs, the messages are its
/// input, checked against its state by the JSON face (`CommandQueue`), as on standard input. A
/// browser activation may start an authentication here too (`AUTH` without RUN_AUTH). Workflows
/// run one after another in one connection; the API level (3 until the client sets another)
/// holds for the connection, and shapes every message sent on it. A RUN_AUTH whose tcTokenURL
/// is missing, not a string or not a URL with a host is answered AUTH `error`, and nothing starts.
///
/// The messages are handled in order on one serial queue; the switch back to "between
/// workflows" happens as the final message (AUTH with its result, CHANGE_PIN with its success)
/// goes out, so a RUN_* the client sends in answer is never taken for the old workflow's input.
// Unchecked: `running`, `previous` and `gone` are touched on `serial` only; the rest is immutable.
final class SDKConnection: SDKClient, @unchecked Sendable {
    enum Workflow {
        /// `url`: the tcTokenURL or an activation URL naming it.
        case auth(url: String, finish: (@Sendable (AuthFace.Ending) -> Void)?)
        case changePIN
    }

    private let sessions: ServiceSessions
    private let send: @Sendable (String) -> Void
    private let answers: InstantAnswers
    /// The API level, for the answers between workflows and those of each workflow.
    private let level: Locked<Int>
    /// GET_STATUS's view, between workflows and in them.
    private let status = WorkflowStatus()
    private let serial = DispatchQueue(label: "eid.serve.sdk")
    /// The input of the workflow that runs.
    private var running: MessageLines?
    /// Signalled when the last workflow's thread has ended.
    private var previous: DispatchSemaphore?
    /// The connection has ended (a browser's workflow may still be handed over after that).
    private var gone = false
    /// `closed()` has run (it may come twice: at the close frame and when the socket ends).
    private let closing = Locked(false)

    init(sessions: ServiceSessions, send: @escaping @Sendable (String) -> Void) {
        self.sessions = sessions
        self.send = send
        let level = Locked(APILevel.initial)
        self.level = level
        answers = InstantAnswers(
            version: sessions.context.version, board: ReaderBoard(lookup: sessions.context.readers.lookup),
            level: level, status: status)
    }

    /// `message` as a line at the connection's API level.
    private func line(_ message: SDKMessage) -> String { message.jsonLine(level: level.withLock { $0 }) }

    func receive(_ message: UnsafeMutableBufferPointer<UInt8>) {
        let copy = LockedBuffer(count: message.count)
        for (i, byte) in message.enumerated() { copy.bytes[i] = byte }
        serial.async { self.handle(copy) }
    }

    /// The client has gone: its place is free at once (a client that reconnects right after
    /// its close handshake is taken, as AusweisApp2 takes it); a running workflow is cancelled.
    func closed() {
        let first = closing.withLock { closing in
            defer { closing = true }
            return !closing
        }
        guard first else { return }
        sessions.clientGone(self)
        serial.async {
            self.gone = true
            if let input = self.running { Self.cancel(input) }
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
        serial.async { self.run(workflow, options: WorkflowOptions()) }
    }

    private func handle(_ buffer: LockedBuffer) {
        defer { buffer.wipe() }
        if let input = running {
            input.push(buffer.bytes)
            return
        }
        switch SDKCommand.parse(wiping: buffer.bytes) {
        case .rejected(let message):
            send(line(message))
        case .command(let command):
            if let message = answers.answer(command) { return send(line(message)) }
            let workflow: Workflow
            let options: WorkflowOptions
            switch command {
            case .runAuth(.undefined, _): return send(line(.authRefused(error: "tcTokenURL cannot be undefined")))
            case .runAuth(.invalid, _): return send(line(.authRefused(error: "Invalid tcTokenURL")))
            case .runAuth(.value(let tcTokenURL), let given):
                guard ActivationURL.isUsableSDKTcTokenURL(tcTokenURL) else {
                    return send(line(.authRefused(error: "Validation of tcTokenURL failed")))
                }
                workflow = .auth(url: ActivationURL.localActivationURL(tcTokenURL: tcTokenURL), finish: nil)
                options = given
            case .runChangePIN(let given):
                workflow = .changePIN
                options = given
            default:
                QuestionRule.wipe(command)
                return send(line(.badState(command: command.name)))
            }
            // The last workflow is still wiping and releasing its card: a moment.
            if let last = previous {
                _ = last.wait(timeout: .now() + 10)
                previous = nil
            }
            guard sessions.claim() else { return send(line(.badState(command: command.name))) }
            run(workflow, options: options)
        }
    }

    /// On `serial`: runs `workflow` on a thread of its own with this connection as its face.
    private func run(_ workflow: Workflow, options workflowOptions: WorkflowOptions) {
        let input = MessageLines()
        running = input
        if gone { Self.cancel(input) }
        let done = DispatchSemaphore(value: 0)
        previous = done
        let base = sessions.context
        var context = FaceContext(
            console: Console(sink: MessageSink(send: { [self] line in deliver(line) }), apiLevel: level), input: input,
            terminal: { nil }, clock: base.clock, signals: NoSignals(), readers: base.readers, terminate: { _ in },
            version: base.version)
        context.sdkStatus = status
        context.workflowOptions = workflowOptions
        let face = context
        let options = sessions.options
        let sessions = self.sessions
        let started = DetachedThread.start {
            var ending: AuthFace.Ending?
            switch workflow {
            case .auth(let url, _):
                ending = AuthFace(
                    context: face, options: .init(json: true, reader: options.reader, timeout: options.timeout),
                    trust: options.trust, connect: options.connect
                ).authenticate(url: url)
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
            send(line(.internalError("cannot start the workflow's thread")))
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
