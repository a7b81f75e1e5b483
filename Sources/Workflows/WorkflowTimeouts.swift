/// The timeouts of a workflow's waits, in seconds: for a card, and for the peer's answer.
public struct WorkflowTimeouts: Sendable {
    public var card: Double
    public var input: Double

    public init(card: Double = 600, input: Double = 600) {
        self.card = card
        self.input = input
    }
}
