import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// The stop signals while change PIN runs. Ctrl-C, SIGTERM, SIGQUIT and SIGHUP: the terminal is
/// restored at once (echo back on), then the workflow is cancelled through its own input, so
/// that it wipes its secrets, resets the card (SCARD_RESET_CARD) and ends with CHANGE_PIN
/// (success false) in the JSON face; eid exits with 130. Should the workflow not end within
/// `ChangePINFace.interruptGrace` seconds, eid exits anyway.
///
/// SIGTSTP (Ctrl-Z) at a prompt restores the terminal and stops eid; on SIGCONT (fg) echo goes
/// off again and the prompt is shown again, as sudo and ssh do.
///
/// It lives as long as the workflow runs; released, the signals go back to their defaults.
final class Interruption: Sendable {
    private let watch: any SignalWatch
    /// Set when the workflow has ended (this is released): the grace period's end then does
    /// nothing (eid serve lives on after a workflow it cancelled at the terminal).
    private let ended: Locked<Bool>

    init(
        context: FaceContext, terminal: TerminalInput? = nil, queue: CommandQueue? = nil,
        pinentry: PinentryFace? = nil, cancelWait: CancelWait
    ) {
        let console = context.console
        let clock = context.clock
        let terminate = context.terminate
        let ended = Locked(false)
        self.ended = ended
        var onSuspend: (@Sendable () -> Void)?
        if let terminal { onSuspend = { terminal.suspend() } }
        watch = context.signals.watch(
            [SIGINT, SIGTERM, SIGQUIT, SIGHUP],
            onStop: { _ in
                terminal?.interrupt()
                pinentry?.interrupt()
                queue?.cancel()
                cancelWait()
                clock.schedule(after: ChangePINFace.interruptGrace) {
                    guard !ended.withLock({ $0 }) else { return }
                    // A command may still be with the card: say only what is known.
                    terminate(console.report(.interruptedCardBusy))
                }
            },
            onSuspend: onSuspend)
    }

    deinit { ended.withLock { $0 = true } }

    /// Whether a stop signal arrived.
    var isStopped: Bool { watch.isStopped }
}
