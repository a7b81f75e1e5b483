import SmartCard

/// The result of EstablishPACEChannel (PC/SC Part 10 AMD1, 2.6.16 and its result table; TR-03119
/// D.3): four bytes, sent little endian before the OutputData, and what each value means.
///
/// | value | meaning |
/// | --- | --- |
/// | 0000 0000 | no error |
/// | D000 0001-0003 | the InputData was wrong (lengths, data, combination) |
/// | E000 0001-000A | the reader's protocol failed (TLV syntax, missing object, unknown PasswordID, token, TA/CA, passive authentication) |
/// | F000 SW1SW2 - F006 SW1SW2 | the card answered SW1SW2 to Select EF.CardAccess (F000), Read Binary (F001), MSE:Set AT (F002), General Authenticate steps 1-4 (F003-F006) |
/// | F800 SW1SW2 - F80C SW1SW2 | the card answered SW1SW2 in the reader's TA or CA |
/// | F010 0001 | communication with the card aborted |
/// | F010 0002 | no card |
/// | F020 0001 | the user cancelled on the reader |
/// | F020 0002 | the user typed nothing in time |
public struct EstablishPACEChannelResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noError = EstablishPACEChannelResultCode(rawValue: 0)
    public static let communicationAbort = EstablishPACEChannelResultCode(rawValue: 0xF010_0001)
    public static let noCard = EstablishPACEChannelResultCode(rawValue: 0xF010_0002)
    public static let cancelledByUser = EstablishPACEChannelResultCode(rawValue: 0xF020_0001)
    public static let inputTimeout = EstablishPACEChannelResultCode(rawValue: 0xF020_0002)

    /// The card's status word in a PACE step: F000 (Select EF.CardAccess) to F006 (General
    /// Authenticate step 4).
    public static func cardStatus(step: Int, _ sw: StatusWord) -> EstablishPACEChannelResultCode {
        EstablishPACEChannelResultCode(rawValue: 0xF000_0000 | UInt32(step) << 16 | UInt32(sw.rawValue))
    }

    /// What the result means for PACE.
    public enum Meaning: Equatable, Sendable {
        case established
        /// The card answered `statusWord` in PACE step `step` (0 Select EF.CardAccess ... 6
        /// General Authenticate step 4): 63Cx, 6300, 6983, 6984 are refusals of the password.
        case cardStatus(step: Int, StatusWord)
        case noCard
        case cancelledByUser
        case inputTimeout
        /// Any other failure of the reader (the InputData, its own protocol, the transport).
        case readerFailed
    }

    public var meaning: Meaning {
        switch self {
        case .noError: return .established
        case .noCard: return .noCard
        case .cancelledByUser: return .cancelledByUser
        case .inputTimeout: return .inputTimeout
        default: break
        }
        let step = Int(rawValue >> 16 & 0xFF)
        if rawValue >> 24 == 0xF0 && rawValue & 0x00F0_0000 == 0 && step <= 6 {
            return .cardStatus(step: step, StatusWord(rawValue: UInt16(rawValue & 0xFFFF)))
        }
        return .readerFailed
    }

    /// Eight hex digits, most significant first (F00663C2).
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
