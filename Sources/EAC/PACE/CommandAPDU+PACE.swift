import SmartCard

/// The commands of PACE (BSI TR-03110-3, B.1 and D.3; ICAO 9303-11, 4.4.4), each with what its
/// status words mean for it.
extension CommandAPDU {
    /// MSE:Set AT for PACE: 00 22 C1 A4 { 80 protocol, 83 password reference, [7F4C CHAT] }
    /// (`PACEAuthenticationTemplate`). Read the answer with `MSESetATOutcome(statusWord:)`,
    /// whose table says what each status word means: 9000 ready, 63C2 two PIN attempts left,
    /// 63C1 suspended, 63C0 blocked, 6283 deactivated, 6A80 / 6A88 refused.
    public static func mseSetAT(pace protocol: OID, password: PACEPasswordType, chat: [UInt8]? = nil)
        throws(CommandAPDUError) -> CommandAPDU
    {
        try PACEAuthenticationTemplate(protocol: `protocol`, password: password, chat: chat).command
    }

    /// GENERAL AUTHENTICATE for PACE with dynamic authentication data ('7C'); steps 1-3 are sent
    /// as part of a command chain (CLA 10), step 4 ends it (CLA 00). Le = 00.
    ///
    /// | SW | meaning for this command |
    /// | --- | --- |
    /// | 9000 | the step's answer is in the data |
    /// | 63Cx | step 4: wrong PIN, x attempts left; step 1: PIN suspended (63C1, CAN first) |
    /// | 6300 | step 4: wrong CAN or PUK (they have no counter) |
    /// | 6983 | step 1: the PIN is blocked (PUK needed) |
    /// | 6982, 6985 | the PIN is suspended (CAN first), or the step is out of order / without MSE:Set AT |
    /// | 6A80 | the step's data object is malformed or not a point on the curve |
    /// | 6A88 | the card has no such password (MRZ) |
    /// | 6883 | the last command of the chain was expected |
    ///
    /// `PACEPasswordRefusal` reads the rows that mean the password was refused.
    public static func generalAuthenticate(pace data: DynamicAuthenticationData, isLast: Bool) throws(CommandAPDUError)
        -> CommandAPDU
    {
        try CommandAPDU(cla: isLast ? 0x00 : 0x10, ins: 0x86, p1: 0x00, p2: 0x00, data: data.bytes, ne: 256)
    }
}
