import EAC
import Online
import SDK

/// The EAC1 checks and the user's choice of access rights (StatePreVerification,
/// StateEditAccessRights).
extension AuthWorkflow {
    /// The TR-03124 checks of the EAC1 input; once they pass, every later TLS certificate must be
    /// in CommCertificates, and GET_CERTIFICATE is answered while a password is asked for.
    func checkTerminal(_ run: inout Run) -> AuthEvent {
        guard case .didAuthenticate(let request)? = run.lastReceived?.message,
            case .eac1(let input) = request.data
        else { return .failed(.authUnexpectedServerMessage) }
        do {
            let check = try TerminalCheck(
                input, tcTokenURL: configuration.tcTokenURL, trustAnchors: configuration.trustAnchors,
                linkCertificates: configuration.linkCertificates, date: configuration.date,
                tlsCertificates: transport.serverCertificates)
            run.terminal = check
            run.rights = check.accessRights
            transport.bindServerCertificates(check.acceptsServerCertificate)
            run.pace.answersMeanwhile = { [peer] command in
                guard case .getCertificate = command else { return false }
                peer.send(.certificate(check.certificateInfo))
                return true
            }
            return .terminalAccepted
        } catch {
            run.refusedEAC1Check = RefreshAddressCheck(refusedEAC1: input)
            return .failed(.authCheckFailed(error))
        }
    }

    /// StateEditAccessRights: ACCESS_RIGHTS, then the user's commands until ACCEPT.
    func editAccessRights(_ run: inout Run) -> AuthEvent {
        guard let terminal = run.terminal, var rights = run.rights else {
            return .failed(.authUnexpectedServerMessage)
        }
        peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput, .command(.cancel): return .cancelled
            case .timedOut: return .timedOut
            case .command(.accept):
                run.rights = rights
                run.pace.chat = rights.effectiveCHAT
                return .accepted
            case .command(.getAccessRights):
                peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
            case .command(.getCertificate):
                peer.send(.certificate(terminal.certificateInfo))
            case .command(.setAccessRights(let names)):
                let error: String?
                if let names {
                    error = rights.select(sdkNames: names)
                } else {
                    error = "chat must be a list of access right names"
                }
                peer.send(.accessRights(terminal.accessRightsInfo(rights, error: error, today: configuration.date)))
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }
}
