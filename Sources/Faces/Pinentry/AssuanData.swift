import SmartCard

/// The percent escaping of the Assuan protocol: what eid sends escapes `%`, CR and LF (and, to
/// be safe on a terminal pinentry, every other control character) as `%XX`; a `D` line's data is
/// decoded from `%XX` straight into locked memory.
enum AssuanData {
    /// The longest line Assuan accepts, without the line feed (ASSUAN_LINELENGTH 1002 with CR LF).
    static let lineLength = 1000

    /// `verb` and `text` as one command line (without the line feed): the text made safe for a
    /// terminal, escaped, and cut at a whole character with "…" where the line would be too long.
    static func command(_ verb: String, _ text: String? = nil) -> [UInt8] {
        var line = Array(verb.utf8)
        guard let text else { return line }
        line.append(UInt8(ascii: " "))
        let ellipsis = Array("…".utf8)
        for character in text {
            let escaped = escape(character == "\n" ? "\n" : TerminalSafeText.escaped(String(character)))
            if line.count + escaped.count > lineLength - ellipsis.count {
                line += ellipsis
                break
            }
            line += escaped
        }
        return line
    }

    /// `%`, CR, LF and other controls as `%XX`.
    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "%") || byte < 0x20 || byte == 0x7F {
                out += Array("%".utf8) + hex(byte)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }

    /// Decodes `escaped` (a D line's data) and appends it to `into` at `count`; returns the new
    /// count. Nothing is written past the buffer: too much data is an error.
    static func decode(
        _ escaped: UnsafeBufferPointer<UInt8>, into buffer: LockedBuffer, at count: Int
    ) throws(PinentryError) -> Int {
        var out = count
        var i = 0
        while i < escaped.count {
            var byte = escaped[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < escaped.count, let high = UInt8(hexDigit: escaped[i + 1]),
                    let low = UInt8(hexDigit: escaped[i + 2])
                else { throw .malformedResponse("bad escape in data") }
                byte = high << 4 | low
                i += 3
            } else {
                i += 1
            }
            guard out < buffer.count else { throw .malformedResponse("too much data") }
            buffer.bytes[out] = byte
            out += 1
        }
        return out
    }
}
