import Workflows

/// A pinentry program answers a browser activation when `eid serve` has no terminal (started by
/// systemd's socket, or from the desktop): `eid auth`'s questions as its dialogs, "Proceed?" with
/// the service, purpose and data, then the PIN, CAN or PUK (`PinentryFace`). The terminal is not
/// asked even where one could be opened: this answerer is the one chosen when there is none to
/// ask on.
public struct PinentryAnswerer: ActivationAnswerer {
    let context: FaceContext
    let options: ServiceSessions.Options
    let program: PinentryProgram

    public init(context: FaceContext, options: ServiceSessions.Options, program: PinentryProgram) {
        self.context = context
        self.options = options
        self.program = program
    }

    public func authenticate(tcTokenURL: String) -> AuthFace.Ending {
        var asking = context
        asking.terminal = { nil }
        return AuthFace(
            context: asking,
            options: .init(json: false, reader: options.reader, timeout: options.timeout, pinentry: program),
            trust: options.trust, connect: options.connect
        ).authenticate(url: tcTokenURL)
    }
}
