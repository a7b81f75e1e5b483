import ArgumentParser
import CardSimulator
import SimulatedPhone

/// The options of `eid-sim --ifd`: the phone as card reader (AusweisApp's "smartphone as card reader").
struct IFDOptions: ParsableArguments {
    @Flag(
        name: .customLong("ifd"),
        help: ArgumentHelp(
            "Play a phone running AusweisApp as card reader (TR-03112-6 IFD over wss), the card in it, instead of "
                + "plugging the card into vpcd."))
    var enabled = false

    @Option(
        name: .customLong("ifd-listen"),
        help: ArgumentHelp("Where the phone listens (default 127.0.0.1:0, a free port).", valueName: "host:port"),
        transform: { text in
            let anyPort = text.hasSuffix(":0")
            guard let endpoint = VPCDEndpoint(parsing: anyPort ? text.dropLast() + "1" : text) else {
                throw ValidationError("--ifd-listen must be HOST:PORT with a port 0...65535, e.g. 127.0.0.1:24728")
            }
            return VPCDEndpoint(host: endpoint.host, port: anyPort ? 0 : endpoint.port)
        })
    var listen = VPCDEndpoint(host: "127.0.0.1", port: 0)

    @Option(
        name: .customLong("announce-to"),
        help: ArgumentHelp(
            "Where the UDP announcements go (default 127.0.0.1 when listening on loopback, else 255.255.255.255; "
                + "port $EID_IFD_DISCOVERY_PORT or 24727).", valueName: "host:port"),
        transform: { text in
            guard let endpoint = VPCDEndpoint(parsing: text) else {
                throw ValidationError("--announce-to must be HOST:PORT with a port 1...65535, e.g. 127.0.0.1:24727")
            }
            return endpoint
        })
    var announceTo: VPCDEndpoint?

    @Option(
        name: .customLong("ifd-name"),
        help: ArgumentHelp("The phone's name (default \"eid-sim phone\").", valueName: "name"))
    var name = "eid-sim phone"

    @Option(
        name: .customLong("ifd-state-dir"),
        help: ArgumentHelp(
            "Where the phone keeps its TLS key and certificate, so its IFDID stays the same "
                + "(default $XDG_STATE_HOME/eid-sim/ifd).", valueName: "dir"))
    var stateDirectory: String?

    @Option(
        name: .customLong("paired-dir"),
        help: ArgumentHelp(
            "Where the paired clients' certificates are kept (default <state dir>/paired).", valueName: "dir"))
    var pairedDirectory: String?

    @Option(
        name: .customLong("pairing-code"),
        help: ArgumentHelp("Pair: the 4-digit code the phone shows (its ASCII is the TLS PSK).", valueName: "digits"))
    var pairingCode: String?

    @Flag(name: .customLong("pairing"), help: "Pair with a random code, printed on stderr as the phone shows it.")
    var pairing = false

    @Flag(name: .customLong("ifd-id-pem"), help: "Announce the certificate's PEM as IFDID (older AusweisApp versions).")
    var idAsPEM = false

    @Flag(
        name: .customLong("ifd-pinpad"),
        help: ArgumentHelp(
            "PIN-pad mode: the phone runs PACE itself with the secrets \"typed on the phone\" (--ifd-pin ...)."))
    var pinPad = false

    @Option(
        name: .customLong("ifd-pin"),
        help: ArgumentHelp(
            "The PIN typed on the phone (or EID_SIM_IFD_PIN; default: the card's PIN).", valueName: "digits"))
    var pin: String?

    @Option(
        name: .customLong("ifd-can"),
        help: ArgumentHelp("The CAN typed on the phone (or EID_SIM_IFD_CAN; default: the card's).", valueName: "digits")
    )
    var can: String?

    @Option(
        name: .customLong("ifd-puk"),
        help: ArgumentHelp("The PUK typed on the phone (or EID_SIM_IFD_PUK; default: the card's).", valueName: "digits")
    )
    var puk: String?

    @Option(
        name: .customLong("ifd-new-pin"),
        help: ArgumentHelp(
            "The new PIN typed on the phone for IFDModifyPIN (or EID_SIM_IFD_NEW_PIN; none: the user cancels).",
            valueName: "digits"))
    var newPIN: String?

    @Option(
        name: .customLong("ifd-vanish-after-transmits"),
        help: ArgumentHelp(
            "For tests: drop the connection (no TLS or WebSocket close) when IFDTransmit N+1 arrives.", valueName: "n"))
    var vanishAfterTransmits: Int?

    @Option(
        name: .customLong("ifd-stall-after-transmits"),
        help: ArgumentHelp("For tests: stop answering when IFDTransmit N+1 arrives.", valueName: "n"))
    var stallAfterTransmits: Int?

    @Option(
        name: .customLong("ifd-remove-card-after-transmits"),
        help: ArgumentHelp("For tests: the card leaves the phone after IFDTransmit N is answered.", valueName: "n"))
    var removeCardAfterTransmits: Int?

    func validate() throws {
        if let code = pairingCode, code.count != 4 || !code.allSatisfy(\.isASCII) || !code.allSatisfy(\.isNumber) {
            throw ValidationError("--pairing-code must be 4 digits, e.g. 1234")
        }
        for (name, value) in [
            ("--ifd-vanish-after-transmits", vanishAfterTransmits),
            ("--ifd-stall-after-transmits", stallAfterTransmits),
            ("--ifd-remove-card-after-transmits", removeCardAfterTransmits),
        ] where (value ?? 0) < 0 {
            throw ValidationError("\(name) must be 0 or more")
        }
    }

    /// The phone's configuration; `code` is the pairing code (given or drawn), nil when not pairing. Without
    /// --announce-to the port is EID_IFD_DISCOVERY_PORT's (where eid listens in tests), else 24727.
    func configuration(pairingCode code: String?, environment: [String: String]) -> PhoneConfiguration {
        var configuration = PhoneConfiguration()
        configuration.name = name
        configuration.listenHost = listen.host
        configuration.listenPort = Int(listen.port)
        configuration.announceHost = announceTo?.host
        let discoveryPort = environment["EID_IFD_DISCOVERY_PORT"].flatMap { Int($0) }.flatMap {
            (1...65535).contains($0) ? $0 : nil
        }
        configuration.announcePort = announceTo.map { Int($0.port) } ?? discoveryPort ?? 24727
        configuration.announcePEMIdentifier = idAsPEM
        configuration.pairingCode = code
        configuration.faults = PhoneFaults(
            vanishAfterTransmits: vanishAfterTransmits, stallAfterTransmits: stallAfterTransmits,
            removeCardAfterTransmits: removeCardAfterTransmits)
        return configuration
    }
}
