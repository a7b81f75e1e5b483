extension ChangePINState {
    /// StateSelectReader: a usable card shows its PIN state (READER) and PACE is prepared.
    static func selectReader(on event: ChangePINEvent) -> ChangePINStep? {
        guard case .cardFound(let counter) = event else { return nil }
        return ChangePINStep(.preparePace(PACEProgress(retryCounter: counter)), [.sendReader, .checkCancelled])
    }
}
