extension SDKMessage {
    /// The message that asks for a secret of `kind`: ENTER_PIN, ENTER_CAN, ENTER_PUK or
    /// ENTER_NEW_PIN, with `error` when the last answer was not valid.
    public static func request(_ kind: SecretKind, error: String?, reader: ReaderInfo) -> SDKMessage {
        switch kind {
        case .pin: return .enterPIN(error: error, reader: reader)
        case .can: return .enterCAN(error: error, reader: reader)
        case .puk: return .enterPUK(error: error, reader: reader)
        case .newPIN: return .enterNewPIN(error: error, reader: reader)
        }
    }
}
