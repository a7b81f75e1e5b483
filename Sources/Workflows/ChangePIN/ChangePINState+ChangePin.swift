extension ChangePINState {
    /// StateEnterNewPacePin: the new PIN goes to the card.
    static func enterNewPacePin(on event: ChangePINEvent) -> ChangePINStep? {
        guard event == .answered else { return nil }
        return ChangePINStep(.changePin, [.changePIN])
    }

    /// StateChangePin: the card's answer to RESET RETRY COUNTER (change).
    static func changePin(on event: ChangePINEvent) -> ChangePINStep? {
        guard case .pinChanged(let outcome) = event else { return nil }
        if case .refused(let sw) = outcome { return ChangePINStep(.finished(.cardError(.statusWord(sw)))) }
        return ChangePINStep(.finished(.changed))
    }
}
