/// The JSON face's input, wired the same for every workflow: SDK commands read from standard
/// input on a thread of their own into a `CommandQueue` (GET_INFO, GET_READER and
/// GET_READER_LIST answered at once, CANCEL ending a card wait), a `FacePeer` that writes JSON
/// and takes commands from the queue, and the stop signals cancelling through the queue.
struct JSONCommandInput {
    let peer: FacePeer
    let reader: StandardInputReader
    let interruption: Interruption

    init(context: FaceContext, cancelWait: CancelWait) {
        let console = context.console
        let board = ReaderBoard(lookup: context.readers.lookup)
        let answers = InstantAnswers(version: context.version, board: board)
        let queue = CommandQueue(reply: { console.json($0) }, onCancel: { cancelWait() }, answer: answers.answer)
        reader = StandardInputReader(queue: queue, input: context.input, console: console)
        peer = FacePeer(output: .json, input: .commands(queue), console: console)
        peer.observe = board.note
        interruption = Interruption(context: context, terminal: nil, queue: queue, cancelWait: cancelWait)
    }
}
