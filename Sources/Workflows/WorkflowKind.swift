/// Which workflow a failure happened in: the context of its sentence (and, where AusweisApp
/// names the two apart, of its stable name), never what happened.
public enum WorkflowKind: Equatable, Sendable {
    case changePIN
    case authentication
}
