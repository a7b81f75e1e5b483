import ArgumentParser
import Dispatch
import SDK
import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

struct ChangePIN: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-pin",
        abstract: "Change the PIN, or replace the 5-digit transport PIN.",
        discussion: """
            Waits for an eID card, reads its PIN state and asks for exactly what the card needs: \
            the current PIN (6 digits, or the 5-digit transport PIN), the CAN first when the PIN \
            is suspended, the PUK when it is blocked; then the new 6-digit PIN twice. Secrets are \
            typed on the terminal with echo off; they are never taken from the command line.

            With --json every SDK message is one JSON line on standard output (CHANGE_PIN first \
            and last). When standard input is not a terminal, the answers are read from it as SDK \
            commands (SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN, CANCEL), one JSON object per line; \
            they may be sent ahead and are used in order. End of input cancels.
            """
    )

    @OptionGroup var options: ReaderOptions

    @Option(name: .long, help: ArgumentHelp("Use only this reader.", valueName: "name"))
    var reader: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a card, and for each answer.", valueName: "seconds"))
    var timeout: Double = 600

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        // Before any secret is read (or, with --simulator, held by the in-process card).
        CoreDumps.disable()
        let provider = try options.openProvider()

        let stdinIsTerminal = isatty(0) == 1
        let peer: FacePeer
        var stdinReader: StandardInputReader?
        if options.json && !stdinIsTerminal {
            let board = ReaderBoard()
            let queue = CommandQueue(
                reply: { Console.shared.json($0) }, onCancel: { provider.cancelWait() }, answer: board.answer)
            stdinReader = StandardInputReader(queue: queue)
            peer = FacePeer(output: .json, input: .commands(queue))
            peer.observe = board.note
            installInterruptHandler(terminal: nil, queue: queue, provider: provider)
        } else {
            guard let terminal = TerminalInput() else { throw FailureReason.changePINNoTerminal.exit() }
            let face = TerminalFace(terminal: terminal)
            peer = FacePeer(output: options.json ? .json : .sentences(face), input: .terminal(face))
            installInterruptHandler(terminal: terminal, queue: nil, provider: provider)
        }

        let workflow = ChangePINWorkflow(
            provider: provider, peer: peer, readerName: reader,
            timeouts: .init(card: timeout, input: timeout),
            openSession: { connection, info in EIDCardSession(channel: connection, paceInfo: info) })
        // The start message goes out before any input is read, so it is always the first line.
        let outcome = workflow.runStarting { stdinReader?.start() }
        guard var reason = FailureReason(outcome, timeout: timeout) else { return }
        // The workflow has cancelled, wiped its secrets and reset the card.
        if interruptHandler?.isStopped == true { reason = .changePINInterrupted }
        throw reason.exit(quiet: options.json && reason.isCancellation)
    }
}

/// Ctrl-C, SIGTERM, SIGQUIT and SIGHUP: the terminal is restored at once (echo back on), then
/// the workflow is cancelled through its own input, so that it wipes its secrets, resets the
/// card (SCARD_RESET_CARD) and ends with CHANGE_PIN (success false) in the JSON face; eid exits
/// with 130. Should the workflow not end within `interruptGrace` seconds (an APDU in flight
/// has a bounded wait of its own, which may be longer), eid exits anyway; pcscd then resets the
/// card as its connection ends.
///
/// SIGTSTP (Ctrl-Z) at a prompt restores the terminal and stops eid; on SIGCONT (fg) echo goes
/// off again and the prompt is shown again, as sudo and ssh do.
private var interruptHandler: StopSignal?
private var suspendHandler: DispatchSourceSignal?
private let interruptGrace = 3.0

private func installInterruptHandler(terminal: TerminalInput?, queue: CommandQueue?, provider: CardReaderProvider) {
    interruptHandler = StopSignal(signals: [SIGINT, SIGTERM, SIGQUIT, SIGHUP]) { _ in
        terminal?.interrupt()
        queue?.cancel()
        provider.cancelWait()
        DispatchQueue.global().asyncAfter(deadline: .now() + interruptGrace) {
            // A command may still be with the card: say only what is known.
            let reason = FailureReason.changePINInterruptedCardBusy
            Console.shared.err("eid: \(reason.sentence)")
            exit(reason.exitStatus)
        }
    }
    if let terminal {
        signal(SIGTSTP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGTSTP, queue: .global())
        source.setEventHandler { terminal.suspend() }
        source.resume()
        suspendHandler = source
    }
}
