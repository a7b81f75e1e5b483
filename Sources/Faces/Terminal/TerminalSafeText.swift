/// Text from outside eid (reader names from pcscd and its drivers, text from a card or a
/// server) made safe to print on a terminal: control characters cannot move the cursor,
/// change colours, set the window title or hide the rest of a line, and bidirectional
/// overrides cannot reorder what the user reads. Such characters are shown escaped: C0
/// controls, DEL and C1 controls as `\xHH` (ESC is `\x1b`), bidi controls as `\u{HHHH}`.
/// Everything else, including non-ASCII letters, is kept. Escaping escaped text changes
/// nothing. JSON output does not go through this: the JSON encoder escapes it.
public enum TerminalSafeText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if !needsEscape(scalar) {
                out.unicodeScalars.append(scalar)
            } else if scalar.value < 0x100 {
                out += "\\x" + hex(scalar.value, digits: 2)
            } else {
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi controls
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
