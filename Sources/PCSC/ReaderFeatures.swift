/// The features a reader announces through PC/SC part 10 (CM_IOCTL_GET_FEATURE_REQUEST): each
/// is a TLV of feature tag, length 4 and the big-endian control code to use for it.
public struct ReaderFeatures: Equatable, Sendable {
    public static let verifyPINDirect: UInt8 = 0x06
    public static let modifyPINDirect: UInt8 = 0x07
    public static let executePACE: UInt8 = 0x20

    /// Control code by feature tag.
    public var controlCodes: [UInt8: UInt32]

    public init(controlCodes: [UInt8: UInt32] = [:]) { self.controlCodes = controlCodes }

    /// Parses the answer to the feature request; stops at the first malformed entry.
    public init(featureResponse b: [UInt8]) {
        var codes: [UInt8: UInt32] = [:]
        var i = 0
        while i + 6 <= b.count, b[i + 1] == 4 {
            let code = UInt32(b[i + 2]) << 24 | UInt32(b[i + 3]) << 16 | UInt32(b[i + 4]) << 8 | UInt32(b[i + 5])
            codes[b[i]] = code
            i += 6
        }
        controlCodes = codes
    }

    /// Whether the reader can run PACE itself with its PIN pad: what the SDK calls "keypad".
    public var hasPACEKeypad: Bool { controlCodes[ReaderFeatures.executePACE] != nil }
}
