/// Hexadecimal text for byte arrays: how APDUs, keys and test vectors are written down.
extension Array where Element == UInt8 {
    /// Parses hexadecimal text ("00a4 04 0c", case-insensitive, whitespace ignored).
    /// Returns nil for an odd number of digits or a non-hex character.
    public init?(hex: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: ":") {
                continue
            }
            guard let nibble = UInt8(hexDigit: c) else { return nil }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { return nil }
        self = bytes
    }

    /// Lower-case hexadecimal text without separators.
    public var hexString: String {
        let digits = [Character]("0123456789abcdef")
        var s = ""
        s.reserveCapacity(count * 2)
        for b in self {
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 0x0F)])
        }
        return s
    }
}

extension UInt8 {
    /// The value of one hexadecimal digit (ASCII, either case), or nil.
    public init?(hexDigit c: UInt8) {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self = c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self = c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self = c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
