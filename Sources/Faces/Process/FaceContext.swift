import Online
import SDK
import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// Everything a face touches outside itself, injected: where lines go, where commands and typed
/// secrets come from, the clock, signals, and the readers. `FaceContext.process(readers:)` is
/// the real process; a test builds one from fakes; `eid serve` builds one per workflow of an SDK
/// WebSocket connection (`SDKConnection`): the client's messages as the input, a console whose
/// sink sends each line back over the socket, no terminal, no signals, and the connection's API level.
public struct FaceContext: Sendable {
    public var console: Console
    /// The commands of the JSON face (standard input).
    public var input: any LineInput
    /// Opens the terminal to ask secrets on; nil when there is none.
    public var terminal: @Sendable () -> (any TerminalDevice)?
    public var clock: any FaceClock
    public var signals: any SignalSource
    public var readers: ReaderProviders
    /// Ends the process with a status: only when a workflow does not end within its grace
    /// period after a stop signal.
    public var terminate: @Sendable (Int32) -> Void
    /// The version INFO reports.
    public var version: String
    /// GET_STATUS's view of the SDK session the context belongs to (an SDK connection of eid
    /// serve keeps it across its workflows). The session's API level is the console's.
    public var sdkStatus = WorkflowStatus()
    /// The members of the RUN_AUTH or RUN_CHANGE_PIN that started the workflow (defaults for a
    /// workflow started otherwise).
    public var workflowOptions = WorkflowOptions()

    public init(
        console: Console, input: any LineInput, terminal: @escaping @Sendable () -> (any TerminalDevice)?,
        clock: any FaceClock, signals: any SignalSource, readers: ReaderProviders,
        terminate: @escaping @Sendable (Int32) -> Void, version: String = EIDVersion.current
    ) {
        self.console = console
        self.input = input
        self.terminal = terminal
        self.clock = clock
        self.signals = signals
        self.readers = readers
        self.terminate = terminate
        self.version = version
    }

    /// The process: standard output and error, standard input, /dev/tty, Dispatch, its signals,
    /// `exit`.
    public static func process(readers: ReaderProviders) -> FaceContext {
        FaceContext(
            console: Console(), input: StandardInput(), terminal: { ControllingTerminal() }, clock: DispatchClock(),
            signals: ProcessSignals(), readers: readers, terminate: { exit($0) })
    }
}

/// Where a face gets its readers. The executable wires them (PC/SC, the simulator); `Faces`
/// knows only the card layer's `CardReaderProvider`.
public struct ReaderProviders: Sendable {
    /// The readers a command works with; throws `CardError.readerServiceUnavailable` when
    /// pcscd is not reachable.
    public var open: @Sendable () throws -> any CardReaderProvider
    /// A separate look at the readers while a workflow holds its card (GET_READER_LIST): a new
    /// connection to pcscd each time, nil when there is none.
    public var lookup: @Sendable () -> (any CardReaderProvider)?

    public init(
        open: @escaping @Sendable () throws -> any CardReaderProvider,
        lookup: @escaping @Sendable () -> (any CardReaderProvider)?
    ) {
        self.open = open
        self.lookup = lookup
    }
}
