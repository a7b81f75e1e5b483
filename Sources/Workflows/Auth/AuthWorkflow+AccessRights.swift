import EAC
import Online
import SDK

/// The EAC1 checks and the user's choice of access rights (StatePreVerification,
/// StateEditAccessRights).
extension AuthWorkflow {
    /// The TR-03124 checks of the EAC1 input; once they pass, every later TLS certificate must be
    /// in CommCertificates, and GET_CERTIFICATE is answered while a password is asked for.
    func checkTerminal(_ input: EAC1InputType, _ run: inout Run) -> AuthEvent {
        guard let paos = run.paos else { return .failed(Self.noConnection) }
        let transport = paos.connection.transport
        do {
            let check = try TerminalCheck(
                input, tcTokenURL: paos.tcTokenURL, trustAnchors: configuration.trustAnchors,
                linkCertificates: configuration.linkCertificates, date: configuration.date,
                tlsCertificates: transport.serverCertificates)
            transport.bindServerCertificates(check.acceptsServerCertificate)
            run.pace.answersMeanwhile = { [peer] command in
                guard case .getCertificate = command else { return false }
                peer.send(.certificate(check.certificateInfo))
                return true
            }
            return .terminalAccepted(check)
        } catch {
            return .failed(.authCheckFailed(error))
        }
    }

    /// StateEditAccessRights: ACCESS_RIGHTS, then the user's commands until ACCEPT.
    func editAccessRights(_ terminal: TerminalCheck, _ run: inout Run) -> AuthEvent {
        var rights = terminal.accessRights
        peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
        while true {
            switch peer.nextCommand(timeout: timeouts.input) {
            case .endOfInput, .command(.cancel): return .cancelled
            case .timedOut: return .timedOut
            case .command(.accept):
                run.pace.chat = rights.effectiveCHAT
                run.pace.certificateDescription = terminal.description.encoded
                return .accepted(rights)
            case .command(.getAccessRights):
                peer.send(.accessRights(terminal.accessRightsInfo(rights, today: configuration.date)))
            case .command(.getCertificate):
                peer.send(.certificate(terminal.certificateInfo))
            case .command(.setAccessRights(let choice)):
                let error = rights.select(choice)
                peer.send(.accessRights(terminal.accessRightsInfo(rights, error: error, today: configuration.date)))
            case .command(let other):
                if case .setSecret(_, let value) = other { value?.wipe() }
                peer.send(.badState(command: other.name))
            }
        }
    }
}
