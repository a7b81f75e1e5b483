import SDK
import SmartCard

/// The JSON face's input, wired the same for every workflow: SDK commands read from the
/// context's input on a thread of their own into a `CommandQueue` (the commands allowed in any
/// state answered at once by `InstantAnswers`, CANCEL ending a card wait, the others checked
/// against the workflow's state), a `FacePeer` that writes JSON and takes commands from the
/// queue, and the stop signals cancelling through the queue.
struct JSONCommandInput {
    let peer: FacePeer
    let queue: CommandQueue
    let reader: StandardInputReader
    let interruption: Interruption

    init(context: FaceContext, cancelWait: CancelWait) {
        let console = context.console
        let board = ReaderBoard(lookup: context.readers.lookup)
        let answers = InstantAnswers(
            version: context.version, board: board, level: console.apiLevel, status: context.sdkStatus)
        let queue = CommandQueue(reply: { console.json($0) }, onCancel: { cancelWait() }, answer: answers.answer)
        self.queue = queue
        reader = StandardInputReader(queue: queue, input: context.input, console: console)
        peer = FacePeer(output: .json, input: .commands(queue), console: console)
        peer.observe = { message in
            board.note(message)
            queue.note(message)
        }
        interruption = Interruption(context: context, terminal: nil, queue: queue, cancelWait: cancelWait)
    }
}
