import SDK

/// Which commands answer which question of a workflow, as AusweisApp's MessageDispatcher checks
/// them against its last state message: SET_PIN only at ENTER_PIN (and so SET_CAN, SET_PUK,
/// SET_NEW_PIN), ACCEPT, GET_ACCESS_RIGHTS and SET_ACCESS_RIGHTS only at ACCESS_RIGHTS.
/// GET_CERTIFICATE goes to the workflow at any question: an authentication answers it once it
/// knows the certificate (at ACCESS_RIGHTS and later), change PIN with BAD_STATE.
enum QuestionRule {
    /// Whether `command` is an answer to some question (else it is answered without the workflow).
    static func isAnswer(_ command: SDKCommand) -> Bool {
        switch command {
        case .setSecret, .accept, .getAccessRights, .setAccessRights, .getCertificate: return true
        default: return false
        }
    }

    /// Whether `question` (the name of the last state message) takes `command`.
    static func fits(_ command: SDKCommand, question: String?) -> Bool {
        guard let question, question != SDKMessage.insertCard.name else { return false }
        switch command {
        case .setSecret(let kind, _): return question == "ENTER_" + kind.commandName.dropFirst("SET_".count)
        case .accept, .getAccessRights, .setAccessRights: return question == "ACCESS_RIGHTS"
        case .getCertificate: return true
        default: return false
        }
    }

    /// The messages that set the state commands are checked against.
    static func isStateMessage(_ message: SDKMessage) -> Bool {
        switch message {
        case .enterPIN, .enterCAN, .enterPUK, .enterNewPIN, .accessRights, .insertCard: return true
        default: return false
        }
    }

    /// Wipes the secret a dropped command holds.
    static func wipe(_ command: SDKCommand) {
        if case .setSecret(_, let value) = command { value?.wipe() }
    }
}
