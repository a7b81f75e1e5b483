import LocalService
import Workflows

/// Who answers a browser activation when no SDK client is connected: the questions of the
/// authentication (the rights, "Proceed?", the PIN) go to them. The terminal eid serve runs in
/// is one (`TerminalAnswerer`), a pinentry program the other (`PinentryAnswerer`).
public protocol ActivationAnswerer: Sendable {
    /// Runs the authentication for `tcTokenURL`, asking this answerer.
    func authenticate(tcTokenURL: String) -> AuthFace.Ending
}

/// The terminal: `eid auth`'s prompts and sentences, on the terminal `eid serve` runs in.
public struct TerminalAnswerer: ActivationAnswerer {
    let context: FaceContext
    let options: ServiceSessions.Options

    /// The terminal answerer, when eid serve runs in a terminal: its standard input is one, and
    /// it has a controlling terminal to ask on (under systemd, or started with standard input
    /// from /dev/null, it has none).
    public static func ifPresent(context: FaceContext, options: ServiceSessions.Options) -> TerminalAnswerer? {
        guard context.input.isTerminal, context.terminal() != nil else { return nil }
        return TerminalAnswerer(context: context, options: options)
    }

    public func authenticate(tcTokenURL: String) -> AuthFace.Ending {
        AuthFace(
            context: context, options: .init(json: false, reader: options.reader, timeout: options.timeout),
            trust: options.trust, connect: options.connect
        ).authenticate(url: tcTokenURL)
    }
}

extension ActivationAnswer {
    /// The browser's answer at the end of an authentication, as AusweisApp's web service sends
    /// it: 303 to the address to continue at; without one, an error page: 400 when the
    /// tcTokenURL or a redirect on the way to the TcToken is not https (or the activation is
    /// unusable), or when the TcToken was read but neither a refresh URL nor a
    /// CommunicationErrorAddress came of it (TR-03124-2 EID_CLIENT_A4_09: "Bad Request"); 404
    /// when no usable TcToken came for any other reason (AusweisApp counts every such fetch as
    /// "TcToken not found"), else 500.
    init(ending: AuthFace.Ending) {
        if let url = ending.url {
            self = .seeOther(location: url)
            return
        }
        // The reason's sentence, ended with a full stop unless it ends with a mark of its own.
        let sentence =
            ending.reason.map {
                "The authentication failed: \($0.sentence)" + (".?!".contains($0.sentence.last ?? " ") ? "" : ".")
            }
            ?? "The authentication failed."
        switch ending.reason {
        case .authTcTokenUnavailable(.notHTTPS), .authInvalidActivationURL, .authRefreshAddressFailed:
            self = .failure(.badRequest(sentence))
        case .authTcTokenUnavailable, .authInvalidTcToken:
            self = .failure(.tcTokenNotFound(sentence))
        default:
            self = .failure(.internalError(sentence))
        }
    }
}
