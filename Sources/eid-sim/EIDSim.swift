import ArgumentParser
import CardSimulator
import Dispatch
import EAC
import FoundationEssentials
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// `eid-sim`: the software eID card, plugged into pcscd through vpcd, or (`--ifd`) in a simulated phone.
@main
struct EIDSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eid-sim",
        abstract: "A software German eID card (nPA) in pcscd's virtual reader (vsmartcard vpcd).",
        discussion: """
            The card connects to vpcd as its TCP client and stays until SIGTERM or SIGINT; when \
            vpcd is not there or goes away it retries. Without options it is the AusweisApp/PersoSim \
            test card: PIN 123456, CAN 500540, PUK 9876543210, 3 PIN attempts. Options override the \
            fields of --profile (a JSON object with the fields pin, can, puk, pinRetries, \
            transportPIN, deactivated, pukUsesLeft, cardAccess, cvca, date, chipAuthenticationKey, dataGroups). The eID \
            application holds the ERIKA MUSTERMANN sample data unless the profile's dataGroups \
            change it; Terminal Authentication trusts the project's test CVCA DEEIDTESTCA00001 \
            (TEST ONLY) unless --cvca names others. With --ifd the card lies in a simulated phone \
            running AusweisApp as card reader (TR-03112-6 IFD over wss: UDP announcements, pairing with a \
            code, TLS 1.2, basic or PIN-pad mode) instead of vpcd's reader.
            """)

    @Option(
        name: .long, help: ArgumentHelp("Where vpcd listens (default 127.0.0.1:35963).", valueName: "host:port"),
        transform: { text in
            guard let endpoint = VPCDEndpoint(parsing: text) else {
                throw ValidationError("--vpcd must be HOST:PORT with a port 1...65535, e.g. 127.0.0.1:35963")
            }
            return endpoint
        })
    var vpcd: VPCDEndpoint = .default

    @Option(
        help: ArgumentHelp(
            "The PIN: 6 digits, or 5 with --transport-pin (default 123456, or 12345).", valueName: "digits"))
    var pin: String?

    @Option(help: ArgumentHelp("The CAN: 6 digits (default 500540).", valueName: "digits"))
    var can: String?

    @Option(help: ArgumentHelp("The PUK: 10 digits (default 9876543210).", valueName: "digits"))
    var puk: String?

    @Option(
        name: .customLong("pin-retries"), help: ArgumentHelp("PIN attempts left, 0...3 (default 3).", valueName: "n"))
    var pinRetries: Int?

    @Option(
        name: .customLong("puk-uses-left"),
        help: ArgumentHelp("How often the PUK can still unblock the PIN, 0...10 (default 10).", valueName: "n"))
    var pukUsesLeft: Int?

    @Flag(
        name: .customLong("transport-pin"), inversion: .prefixedNo,
        help: "The PIN is a 5-digit transport PIN that must be changed first.")
    var transportPIN: Bool?

    @Flag(inversion: .prefixedNo, help: "The eID function is switched off.")
    var deactivated: Bool?

    @Option(
        name: .customLong("card-access"),
        help: ArgumentHelp(
            "Replaces EF.CardAccess with these bytes (for cards that answer garbage).", valueName: "hex"),
        transform: { text in
            guard let bytes = [UInt8](hex: text) else {
                throw ValidationError("--card-access must be hexadecimal (an even number of 0-9a-f)")
            }
            return bytes
        })
    var cardAccess: [UInt8]?

    @Option(help: ArgumentHelp("A JSON card profile; options override its fields.", valueName: "file"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "A CVCA certificate (DER file) Terminal Authentication trusts; repeatable, the current one first "
                + "(default: the project's test CVCA).", valueName: "file"))
    var cvca: [String] = []

    @Option(
        help: ArgumentHelp(
            "The card's current date, against which certificates expire (default: today).", valueName: "yyyy-mm-dd"),
        transform: { text in
            guard let date = CalendarDate(iso8601: text) else {
                throw ValidationError("--date must be a date YYYY-MM-DD, e.g. 2026-11-23")
            }
            return date
        })
    var date: CalendarDate?

    @Flag(
        help: ArgumentHelp(
            "Print one line per APDU on stderr: instruction and status word; of the data only the CHAT of an "
                + "MSE:Set AT for PACE (no secret)."))
    var trace = false

    @Option(
        help: ArgumentHelp(
            "For tests only: stop answering after N command APDUs, as a hung reader would.", valueName: "n",
            visibility: .hidden))
    var stallAfter: Int?

    @Option(
        help: ArgumentHelp(
            "For tests only: after N command APDUs the card leaves the reader (eid-sim ends), as a card "
                + "pulled out mid-session.", valueName: "n", visibility: .hidden))
    var vanishAfter: Int?

    @OptionGroup(title: "Phone as card reader")
    var ifd: IFDOptions

    func run() throws {
        let cardProfile = try resolvedProfile()
        let card = SimulatedEIDCard(profile: cardProfile)
        if trace { card.onTrace { printError("eid-sim: \($0)") } }
        if ifd.enabled { return try runPhone(card: card, profile: cardProfile) }
        let connection = VPCDConnection(endpoint: vpcd, card: card, onEvent: { printError("eid-sim: \($0)") })
        connection.stallAfter = stallAfter
        connection.vanishAfter = vanishAfter
        Self.run(connection.run, stoppedBySignal: connection.stop)
    }

    /// Runs `body` (which blocks) until it returns; SIGTERM or SIGINT call `stop` meanwhile.
    static func run(_ body: () throws -> Void, stoppedBySignal stop: @escaping @Sendable () -> Void) rethrows {
        let signals = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
        defer { for signal in signals { signal.cancel() } }
        try body()
    }

    /// The profile file (if any) with the options applied, validated.
    func resolvedProfile() throws -> CardProfile {
        let overrides = CardProfile.Overrides(
            pin: pin, can: can, puk: puk, pinRetries: pinRetries, pukUsesLeft: pukUsesLeft, transportPIN: transportPIN,
            deactivated: deactivated, cardAccess: cardAccess, trustAnchors: try trustAnchors(), date: date)
        let result = try (profile.map { try CardProfile.load(path: $0) } ?? CardProfile()).applying(overrides)
        let source = profile.map { "\($0) with the options" } ?? "the options"
        do {
            try result.validate(source: source)
        } catch CardProfileError.invalidValue(_, let field, let requirement, let found) {
            let option = EIDSim.optionName[field] ?? field
            throw ValidationError(
                "\(option) (from \(source)): \(requirement)" + (found.map { ", found \($0)" } ?? ""))
        }
        return result
    }

    /// The certificates of the --cvca files, or nil when none are given.
    func trustAnchors() throws -> [CVCertificate]? {
        guard !cvca.isEmpty else { return nil }
        return try cvca.map { path in
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw ValidationError("--cvca \(path): cannot read the file")
            }
            let certificate: CVCertificate
            do {
                certificate = try CVCertificate(encoded: [UInt8](data))
            } catch {
                throw ValidationError("--cvca \(path): not a CV certificate (\(error))")
            }
            guard certificate.role == .cvca, certificate.body.publicKey.domainParameters != nil else {
                throw ValidationError("--cvca \(path): not a CVCA certificate with domain parameters")
            }
            return certificate
        }
    }

    static let optionName = [
        "pin": "--pin", "can": "--can", "puk": "--puk", "pinRetries": "--pin-retries",
        "pukUsesLeft": "--puk-uses-left",
    ]
}

/// One line on standard error, written at once (trace lines come from several threads).
func printError(_ line: String) {
    StandardStream.error.write(line + "\n")
}
