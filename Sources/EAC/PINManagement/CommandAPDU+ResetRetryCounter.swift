import SmartCard

/// RESET RETRY COUNTER (INS 2C) as the eID card's PIN management uses it (BSI TR-03110-2,
/// 3.5; TR-03110-3, B.11.3): sent inside the secure messaging of the PACE that gives the right.
/// Read the answer with `ResetRetryCounterOutcome`.
extension CommandAPDU {
    /// Change: 00 2C 02 03 with the new PIN as ASCII digits, after PACE with the PIN or the
    /// transport PIN.
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | the PIN is changed (the transport PIN state ends, the counter is 3) |
    /// | 6982 | no PACE with the PIN in this card session (or its secure messaging ended) |
    /// | 6A80 | the new PIN is not 6 digits |
    /// | 6700 | no new PIN in the data |
    public static func resetRetryCounter(change newPIN: [UInt8]) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0x2C, p1: 0x02, p2: PACEPasswordType.pin.rawValue, data: newPIN)
    }

    /// Unblock: 00 2C 03 03 without data, after PACE with the PUK; sets the PIN's counter back
    /// to 3 and uses one of the PUK's uses.
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | the PIN is unblocked (3 attempts) |
    /// | 6982 | the PUK is inoperative (used up; what a real card answers right after PACE with the right PUK), or no PACE with the PUK in this session |
    /// | 6983, 6984 | the PUK is inoperative (other cards' way of saying it) |
    /// | 6700 | data was sent |
    public static func resetRetryCounter(unblock password: PACEPasswordType) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0x2C, p1: 0x03, p2: password.rawValue)
    }
}
