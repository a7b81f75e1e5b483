import ArgumentParser
import CardSimulator
import FoundationEssentials
import SimulatedPhone
import SmartCard

extension EIDSim {
    /// `--ifd`: the card in a simulated phone (AusweisApp as card reader) until SIGTERM or SIGINT.
    func runPhone(card: SimulatedEIDCard, profile: CardProfile) throws {
        let environment = ProcessInfo.processInfo.environment
        let stateDirectory = ifd.stateDirectory ?? Self.defaultStateDirectory(environment)
        let pairingCode = ifd.pairingCode ?? (ifd.pairing ? Self.randomPairingCode() : nil)
        let typed = { (option: String?, variable: String, fallback: String) -> Secret in
            Secret(option ?? environment[variable] ?? fallback)
        }
        let keypad = PhoneKeypad(
            pin: typed(ifd.pin, "EID_SIM_IFD_PIN", profile.effectivePIN),
            can: typed(ifd.can, "EID_SIM_IFD_CAN", profile.can), puk: typed(ifd.puk, "EID_SIM_IFD_PUK", profile.puk),
            newPIN: (ifd.newPIN ?? environment["EID_SIM_IFD_NEW_PIN"]).map { Secret($0) })
        let configuration = ifd.configuration(pairingCode: pairingCode, environment: environment)
        let reader = PhoneCardReader(name: configuration.slotName, card: card, pinPad: ifd.pinPad, keypad: keypad)
        let server: PhoneServer
        let port: Int
        do {
            (server, port) = try startPhone(
                configuration: configuration, reader: reader, stateDirectory: stateDirectory)
        } catch {
            printError("eid-sim: \(error)")
            throw ExitCode(1)
        }
        let mode = ifd.pinPad ? "PIN-pad mode" : "basic mode"
        printError(
            "eid-sim: phone \"\(configuration.name)\" (\(mode)) listening on port \(port), IFDID \(server.identity.ifdID)"
        )
        if let pairingCode, ifd.pairingCode == nil { printError("eid-sim: pairing code \(pairingCode)") }
        if pairingCode != nil { printError("eid-sim: waiting for a client to pair") }
        Self.run(server.wait, stoppedBySignal: server.stop)
    }

    /// The phone's identity, paired clients and server, listening and announcing; the server and its port.
    func startPhone(configuration: PhoneConfiguration, reader: PhoneCardReader, stateDirectory: String)
        throws(PhoneError) -> (PhoneServer, Int)
    {
        let identity = try PhoneIdentity.loadOrCreate(directory: stateDirectory)
        let paired = try PairedClients(directory: ifd.pairedDirectory ?? stateDirectory + "/paired")
        let server = try PhoneServer(
            configuration: configuration, identity: identity, paired: paired, reader: reader,
            log: { printError("eid-sim: \($0)") })
        return (server, try server.start())
    }

    /// Four random digits, as AusweisApp's phone draws its code.
    static func randomPairingCode() -> String {
        let digits = String(Int.random(in: 0...9999))
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// $XDG_STATE_HOME/eid-sim/ifd, or ~/.local/state/eid-sim/ifd.
    static func defaultStateDirectory(_ environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/eid-sim/ifd" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/eid-sim/ifd"
    }
}
