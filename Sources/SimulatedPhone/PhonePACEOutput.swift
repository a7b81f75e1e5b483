import SmartCard

/// The result of EstablishPACEChannel as the phone sends it (IFDEstablishPACEChannelResponse of
/// IFDInterface_WebSocket_v2): ResultCode, 4 bytes little endian (PC/SC Part 10 AMD1, 2.5.12; the codes of
/// TR-03119 D.1.2), and OutputData (2.6.16): the status word of MSE:Set AT, EF.CardAccess (2-byte length,
/// little endian), then the current and previous CAR (1-byte lengths) and ID_ICC (2-byte length), which are
/// left out from the end as far as they are empty, as AusweisApp writes them.
public struct PhonePACEOutput: Equatable, Sendable {
    /// The PC/SC result code: 0 for success.
    public var resultCode: UInt32
    public var setATStatus: StatusWord?
    public var cardAccess: [UInt8]
    public var currentCAR: [UInt8]
    public var previousCAR: [UInt8]
    public var idICC: [UInt8]

    public static let noError: UInt32 = 0x0000_0000
    /// Inconsistent or broken InputData (TR-03119: 0xD0000002, unexpected data in input).
    public static let unexpectedDataInInput: UInt32 = 0xD000_0002
    public static let communicationAbort: UInt32 = 0xF010_0001
    public static let noCard: UInt32 = 0xF010_0002
    /// The user cancelled on the phone.
    public static let abort: UInt32 = 0xF020_0001

    /// The card refused a step: 0xF0ssSW1SW2, where ss names the step (00 select EF.CardAccess, 01 read it,
    /// 02 MSE:Set AT, 03-06 General Authenticate 1-4). A wrong PIN is step 4 with 63Cx.
    public static func cardError(step: UInt8, _ statusWord: StatusWord) -> UInt32 {
        0xF000_0000 | UInt32(step) << 16 | UInt32(statusWord.rawValue)
    }

    public init(
        resultCode: UInt32, setATStatus: StatusWord? = nil, cardAccess: [UInt8] = [], currentCAR: [UInt8] = [],
        previousCAR: [UInt8] = [], idICC: [UInt8] = []
    ) {
        self.resultCode = resultCode
        self.setATStatus = setATStatus
        self.cardAccess = cardAccess
        self.currentCAR = currentCAR
        self.previousCAR = previousCAR
        self.idICC = idICC
    }

    /// ResultCode as sent: little endian.
    public var resultCodeBytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: resultCode >> (8 * $0)) } }

    /// OutputData as sent (MSE:Set AT status 0000 when it was never sent).
    public var outputData: [UInt8] {
        let status: [UInt8] = setATStatus.map { [$0.sw1, $0.sw2] } ?? [0, 0]
        var out: [UInt8] = status + Self.lengthPrefixed(cardAccess, bytes: 2)
        if !currentCAR.isEmpty || !previousCAR.isEmpty || !idICC.isEmpty {
            out += Self.lengthPrefixed(currentCAR, bytes: 1)
        }
        if !previousCAR.isEmpty || !idICC.isEmpty { out += Self.lengthPrefixed(previousCAR, bytes: 1) }
        if !idICC.isEmpty { out += Self.lengthPrefixed(idICC, bytes: 2) }
        return out
    }

    private static func lengthPrefixed(_ value: [UInt8], bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value.count >> (8 * $0)) } + value
    }
}
