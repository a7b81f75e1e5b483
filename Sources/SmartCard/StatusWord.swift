/// The two status bytes SW1 SW2 that end every response APDU (ISO/IEC 7816-4, section 5.6),
/// with the meanings the eID card gives them (BSI TR-03110-3).
public struct StatusWord: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(sw1: UInt8, sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }

    public static let success = StatusWord(rawValue: 0x9000)
    /// 6283: selected file deactivated; on MSE:Set AT for the PIN: the eID function is switched off.
    public static let deactivated = StatusWord(rawValue: 0x6283)
    /// 6300: authentication failed (no counter given).
    public static let authenticationFailed = StatusWord(rawValue: 0x6300)
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// 6882: secure messaging not supported / SM data objects missing.
    public static let secureMessagingNotSupported = StatusWord(rawValue: 0x6882)
    public static let lastCommandOfChainExpected = StatusWord(rawValue: 0x6883)
    public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x6982)
    /// 6983: authentication method blocked (the PIN or PUK can no longer be used).
    public static let authenticationMethodBlocked = StatusWord(rawValue: 0x6983)
    /// 6984: reference data not usable.
    public static let referenceDataNotUsable = StatusWord(rawValue: 0x6984)
    public static let conditionsOfUseNotSatisfied = StatusWord(rawValue: 0x6985)
    /// 6987: expected secure messaging data objects missing.
    public static let smDataObjectsMissing = StatusWord(rawValue: 0x6987)
    /// 6988: secure messaging data objects incorrect.
    public static let smDataObjectsIncorrect = StatusWord(rawValue: 0x6988)
    public static let wrongData = StatusWord(rawValue: 0x6A80)
    public static let functionNotSupported = StatusWord(rawValue: 0x6A81)
    public static let fileNotFound = StatusWord(rawValue: 0x6A82)
    public static let referenceDataNotFound = StatusWord(rawValue: 0x6A88)
    public static let incorrectParameters = StatusWord(rawValue: 0x6A86)
    public static let wrongParametersP1P2 = StatusWord(rawValue: 0x6B00)
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)
    public static let noPreciseDiagnosis = StatusWord(rawValue: 0x6F00)

    /// 63Cx: a verification failed or a password is in a reduced state; x attempts are left.
    public static func retriesLeft(_ count: Int) -> StatusWord {
        StatusWord(rawValue: 0x63C0 | UInt16(count & 0x0F))
    }

    public var isSuccess: Bool { rawValue == 0x9000 }

    /// The x of 63Cx, or nil for any other status word.
    public var retryCounter: Int? {
        sw1 == 0x63 && sw2 & 0xF0 == 0xC0 ? Int(sw2 & 0x0F) : nil
    }

    /// 61xx: more response bytes are available with GET RESPONSE.
    public var bytesRemaining: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    public var description: String {
        let hex = [sw1, sw2].hexString.uppercased()
        return meaning.map { "\(hex) (\($0))" } ?? hex
    }

    /// A short English meaning for the status words an eID client meets.
    public var meaning: String? {
        if let n = retryCounter { return "\(n) attempt\(n == 1 ? "" : "s") left" }
        switch rawValue {
        case 0x9000: return "success"
        case 0x6282: return "end of file reached before Ne bytes"
        case 0x6283: return "deactivated"
        case 0x6300: return "authentication failed"
        case 0x6581: return "memory failure"
        case 0x6700: return "wrong length"
        case 0x6882: return "secure messaging not supported"
        case 0x6883: return "last command of chain expected"
        case 0x6884: return "command chaining not supported"
        case 0x6982: return "security status not satisfied"
        case 0x6983: return "authentication method blocked"
        case 0x6984: return "reference data not usable"
        case 0x6985: return "conditions of use not satisfied"
        case 0x6986: return "command not allowed"
        case 0x6987: return "secure messaging data objects missing"
        case 0x6988: return "secure messaging data objects incorrect"
        case 0x6A80: return "incorrect data"
        case 0x6A81: return "function not supported"
        case 0x6A82: return "file not found"
        case 0x6A86: return "incorrect parameters P1-P2"
        case 0x6A88: return "referenced data not found"
        case 0x6B00: return "wrong parameters P1-P2"
        case 0x6D00: return "instruction not supported"
        case 0x6E00: return "class not supported"
        case 0x6F00: return "no precise diagnosis"
        default: return nil
        }
    }
}
