import SmartCard

/// The InputData of ModifyPIN inside a PACE channel: the PIN_MODIFY_STRUCTURE of PC/SC Part 10
/// (2.5.3), which a PIN-pad reader takes through FEATURE_MODIFY_PIN_DIRECT and a phone in PIN-pad
/// mode in IFDModifyPIN (TR-03112-6, as hex); TR-03119 names the values for the eID card. The
/// user types the new PIN twice on the reader, which sends RESET RETRY COUNTER (change, PIN) with
/// it inside its secure messaging; the answer is the card's status word.
///
/// | bytes | field | value |
/// | --- | --- | --- |
/// | 1 | bTimeOut | seconds for the entry |
/// | 1 | bTimeOut2 | the same |
/// | 1 | bmFormatString | 82: unit bytes, ASCII |
/// | 1 | bmPINBlockString | 00: the PIN is not in the APDU as sent |
/// | 1 | bmPINLengthFormat | 00 |
/// | 1 | bInsertionOffsetOld | 00 |
/// | 1 | bInsertionOffsetNew | 00 |
/// | 2 | wPINMaxExtraDigit | 06 06: 6 to 6 digits |
/// | 1 | bConfirmPIN | 01: the new PIN is confirmed |
/// | 1 | bEntryValidationCondition | 02: the validation key |
/// | 1 | bNumberMessage | 02 |
/// | 2 | wLangId | 07 04: German (0x0407, little endian) |
/// | 3 | bMsgIndex1-3 | 00 01 02 (a third index, which some Reiner SCT readers need) |
/// | 3 | bTeoPrologue | 00 00 00 |
/// | 4 | ulDataLength, little endian | 4 |
/// | 4 | abData | 00 2C 02 03: RESET RETRY COUNTER, change, PIN |
public struct ModifyPINInput: Equatable, Sendable {
    /// Seconds the user has to type the new PIN twice.
    public var timeoutSeconds: UInt8
    /// The command the reader completes with the new PIN.
    public var command: [UInt8]

    /// RESET RETRY COUNTER (change) of the eID PIN (ISO 7816-4, 11.6.10; TR-03110-3, B.11.6).
    public static let resetRetryCounterChangePIN: [UInt8] = [0x00, 0x2C, 0x02, 0x03]

    /// Everything after the two timeouts and before ulDataLength, as TR-03119 sets it for the eID PIN.
    static let entryParameters: [UInt8] = [
        0x82, 0x00, 0x00, 0x00, 0x00, 0x06, 0x06, 0x01, 0x02, 0x02, 0x07, 0x04, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
    ]

    public init(timeoutSeconds: UInt8, command: [UInt8] = ModifyPINInput.resetRetryCounterChangePIN) {
        self.timeoutSeconds = timeoutSeconds
        self.command = command
    }

    /// A timeout in seconds (a workflow's answer timeout), held within what the byte says.
    public init(timeout: Double) {
        self.init(timeoutSeconds: UInt8(max(1, min(255, timeout.rounded(.up)))))
    }

    /// Reads the structure (a reader's side, the software PIN pad's): the timeout, and abData as
    /// long as ulDataLength says, at most a short APDU's header and data.
    public init(decoding bytes: [UInt8]) throws(PINPadStructureError) {
        var reader = PINPadFieldReader(bytes)
        timeoutSeconds = try reader.byte("bTimeOut")
        _ = try reader.byte("bTimeOut2")
        _ = try reader.take(Self.entryParameters.count, "the PIN entry parameters")
        let length = Int(try reader.uint32("ulDataLength"))
        guard length <= CommandAPDU.maxShortData + 5 else { throw .fieldTooLong(field: "abData", length: length) }
        command = try reader.take(length, "abData")
        try reader.requireEnd()
    }

    public func encoded() -> [UInt8] {
        [timeoutSeconds, timeoutSeconds] + Self.entryParameters + PINPadFieldWriter.uint32(UInt32(command.count))
            + command
    }
}
