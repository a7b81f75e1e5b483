import ArgumentParser
import Faces
import RemoteIFD
import Workflows

struct Pair: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pair a phone running AusweisApp as a card reader; list or forget paired phones.",
        discussion: """
            On the phone, open AusweisApp, choose Card reader (smartphone as card reader) and Pair \
            new device: the phone shows a 4-digit pairing code and announces itself on the local \
            network. eid pair listens for it (UDP port 24727, at most --timeout seconds), asks for \
            the code on the terminal with echo off (where standard input is not a terminal: one line \
            with the code from it), pairs over TLS with the code as pre-shared key and stores the \
            phone's certificate. From then on the phone is a card reader for readers, change-pin, \
            auth and serve whenever its card reader mode is open (--no-remote leaves phones out). \
            With --json every message is one JSON object per line (IFD_FOUND, IFD_ENTER_CODE, \
            IFD_PAIRED, IFD_DEVICE, IFD_FORGOTTEN, IFD_ERROR: eid's own, the SDK has none for pairing).
            """
    )

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Flag(help: "List the paired phones.")
    var list = false

    @Option(help: ArgumentHelp("Forget a paired phone (its name or IFDID).", valueName: "name"))
    var forget: String?

    @Option(help: ArgumentHelp("Pair with the phone of this name (as it announces itself).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Pair with the phone at this address without listening.", valueName: "wss://host:port"))
    var address: String?

    @Option(help: ArgumentHelp("Seconds to listen for the phone.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        let modes = [list, forget != nil, name != nil || address != nil].filter { $0 }.count
        guard modes <= 1 else {
            throw ValidationError("--list, --forget and pairing (--name, --address) go one at a time")
        }
        if let address, !address.hasPrefix("wss://") {
            throw ValidationError("--address takes the phone's wss://HOST:PORT (as AusweisApp announces it)")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let context = FaceContext.process(readers: ReaderOptions.readers(simulator: false, remote: false))
        let store: PairedDeviceStore
        do { store = try PairedDeviceStore.user() } catch {
            context.console.err("eid: \(error)")
            throw ExitCode(ExitStatus.usage)
        }
        let tools = PairingTools(
            discover: { seconds, until in try IFDDiscovery().collect(timeout: seconds, until: until) },
            pairing: IFDPairing(
                opener: IFDWebSocketOpener(directory: store.directory), udName: IFDWebSocketOpener.localName()),
            store: store)
        let face = PairFace(context: context, json: json, tools: tools)
        if list { return try face.list().exitUnlessSuccess() }
        if let forget { return try face.forget(forget).exitUnlessSuccess() }
        try face.pair(.init(name: name, address: address, listen: timeout)).exitUnlessSuccess()
    }
}
