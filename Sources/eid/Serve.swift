import ArgumentParser
import CardSimulator
import Faces
import FoundationEssentials
import LocalService
import Online

#if canImport(Glibc)
import Glibc
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Be the local eID client on 127.0.0.1:24727, for browsers and SDK clients (as AusweisApp).",
        discussion: """
            Listens where an eService's "log in with your ID card" link leads \
            (http://127.0.0.1:24727/eID-Client?tcTokenURL=…) and where AusweisApp2's SDK clients connect \
            (ws://127.0.0.1:24727/eID-Kernel), on 127.0.0.1 and ::1. A browser activation answers 102 \
            Processing at once and, at the end, 303 See Other to the service's refresh address with the \
            result. The questions of the authentication go to the SDK client when one is connected (it \
            receives AUTH and answers with ACCEPT, SET_PIN, ...), else to the terminal eid serve runs in \
            (the prompts of eid auth); with neither, the activation is refused (503). One workflow runs at \
            a time (409 for another); RUN_AUTH and RUN_CHANGE_PIN run one after another in one SDK \
            connection. GET /eID-Client?Status answers the version (?Status=json as JSON).

            Only requests with Host 127.0.0.1, localhost or [::1] and this port are served (DNS \
            rebinding); a WebSocket upgrade with an Origin header (a web page) is refused (403) unless \
            AUSWEISAPP_WEBSOCKET_ORIGIN, a regular expression, matches the Origin; a second SDK client is \
            refused (429).

            --port 0 takes a free port; on any port but 24727 eid serve writes the port (digits, no \
            newline) to $TMPDIR/AusweisApp.<pid>.port and $TMPDIR/AusweisApp2.<pid>.port, as AusweisApp \
            does, and removes them at its end; --port-file writes it to a file of your choice too. Under systemd socket activation \
            (LISTEN_FDS, LISTEN_PID) eid serves on the passed sockets and binds none. Trust (--trust-cvca, \
            --test-pki, --simulator) is that of eid auth.
            """
    )

    @Flag(help: "Add a reader named 'Simulator' with the software eID card in process (no pcscd needed).")
    var simulator = false

    @Flag(help: "Leave paired phones (eid pair) out: PC/SC readers only.")
    var noRemote = false

    @Option(name: .long, help: ArgumentHelp("Use only this reader.", valueName: "name"))
    var reader: String?

    @Option(name: .long, help: ArgumentHelp("The port to listen on (0: a free one).", valueName: "port"))
    var port: Int = ActivationURL.localPort

    @Option(
        name: .customLong("port-file"),
        help: ArgumentHelp("Write the port to this file once listening.", valueName: "file"))
    var portFile: String?

    @Option(
        name: .customLong("host"),
        help: ArgumentHelp(
            "Listen on this loopback address; repeatable (default: 127.0.0.1 and ::1).", valueName: "address"))
    var hosts: [String] = []

    @Option(
        name: .customLong("trust-cvca"),
        help: ArgumentHelp("Trust this CVCA certificate (DER) as well; repeatable.", valueName: "file"))
    var trustCVCA: [String] = []

    @Flag(name: .customLong("test-pki"), help: "Trust the project's TEST CVCA (its key is public; tests only).")
    var testPKI = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a card, and for each answer.", valueName: "seconds"))
    var timeout: Double = 600

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With no terminal and no SDK client, ask through this pinentry program (GPG_TTY for a terminal one).",
            valueName: "program"))
    var pinentry = "pinentry"

    /// The loopback addresses --host takes.
    static let loopback: Set<String> = ["127.0.0.1", "::1", "localhost"]

    func validate() throws {
        try ReaderOptions.validate(simulator: simulator, reader: reader, timeout: timeout)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        for host in hosts where !Self.loopback.contains(host) {
            throw ValidationError(
                "--host \(host): only loopback addresses (127.0.0.1, ::1, localhost): every web page on this "
                    + "machine can reach the port, no other machine may")
        }
    }

    func run() throws {
        let context = FaceContext.process(readers: ReaderOptions.readers(simulator: simulator, remote: !noRemote))
        let anchors = try Auth.anchors(trustCVCA: trustCVCA, testPKI: testPKI || simulator, console: context.console)
        CoreDumps.disable()
        let options = ServiceSessions.Options(
            reader: simulator ? SimulatedCardChannel.readerName : reader, timeout: timeout,
            trust: .builtIn(
                adding: anchors, csca: simulator ? SimulatorTestPKI.csca : nil, date: .todayUTC()),
            connect: OnlineConnection.connect)
        let program = PinentryProgram.fromEnvironment(program: pinentry)
        let sessions = ServiceSessions(context: context, options: options) {
            let terminal: (any ActivationAnswerer)? = TerminalAnswerer.ifPresent(context: context, options: options)
            guard terminal == nil, program.isInstalled else { return terminal }
            return PinentryAnswerer(context: context, options: options, program: program)
        }
        let pattern = ProcessInfo.processInfo.environment["AUSWEISAPP_WEBSOCKET_ORIGIN"]
        guard let origins = WebSocketOrigin(pattern: pattern) else {
            throw ValidationError("eid serve: AUSWEISAPP_WEBSOCKET_ORIGIN is not a regular expression")
        }
        let service = LocalService(
            configuration: .init(server: "eid/\(EID.version) (TR-03124-1/1.4)", origins: origins), delegate: sessions)
        let bound: Int
        let portFiles: PortFiles
        do {
            let passed = SocketActivation.take()
            if passed.isEmpty {
                let defaults = hosts.isEmpty
                bound = try service.listen(
                    hosts: defaults ? ["127.0.0.1", "::1"] : hosts, port: port, optional: defaults ? ["::1"] : [])
            } else {
                bound = try service.adopt(descriptors: passed)
            }
            portFiles = try PortFiles.write(port: bound)
            if let portFile { try Self.write(port: bound, to: portFile) }
        } catch {
            throw ValidationError("eid serve: \(error)")
        }
        context.console.err("eid: serving on port \(bound) (http://127.0.0.1:\(bound)/eID-Client, ws: /eID-Kernel)")
        // SIGTERM (systemd, kill) and Ctrl-C end the service, through signal sources so that they
        // work even where the signals came blocked; a card in use is reset by pcscd as its
        // connection ends. While a workflow asks at the terminal, Ctrl-C is its cancel (it
        // watches the signal itself) and the service goes on.
        let stop = ServiceSignals { signal in
            if signal == SIGINT && sessions.isAnswering { return }
            portFiles.remove()
            Glibc.exit(signal == SIGINT ? 130 : 0)
        }
        withExtendedLifetime(stop) { service.wait() }
    }

    static func write(port: Int, to path: String) throws(LocalServiceError) {
        do { try Data(String(port).utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw .cannotWritePortFile(path: path)
        }
    }
}
