import Faces
import Testing

@Suite struct TerminalSafeTextTests {
    @Test func plainTextIsKept() {
        #expect(TerminalSafeText.escaped("Virtual PCD 00 00") == "Virtual PCD 00 00")
        #expect(
            TerminalSafeText.escaped("eID card — PIN: 3 attempts left, Größe")
                == "eID card — PIN: 3 attempts left, Größe")
    }

    @Test func escapeSequencesAreShownNotActedOn() {
        // Clear screen and a fake prompt, a window title, a colour.
        #expect(TerminalSafeText.escaped("Reader\u{1B}[2J\u{1B}[HPIN:") == "Reader\\x1b[2J\\x1b[HPIN:")
        #expect(TerminalSafeText.escaped("\u{1B}]0;title\u{07}") == "\\x1b]0;title\\x07")
        #expect(TerminalSafeText.escaped("a\rb\nc\td\u{7F}") == "a\\x0db\\x0ac\\x09d\\x7f")
    }

    @Test func c1ControlsAndBidiOverridesAreEscaped() {
        #expect(TerminalSafeText.escaped("x\u{9B}2Jy\u{85}") == "x\\x9b2Jy\\x85")
        #expect(TerminalSafeText.escaped("abc\u{202E}fed\u{202C}") == "abc\\u{202e}fed\\u{202c}")
        #expect(TerminalSafeText.escaped("\u{2066}\u{2069}\u{200F}\u{061C}") == "\\u{2066}\\u{2069}\\u{200f}\\u{061c}")
    }

    @Test func escapingTwiceChangesNothing() {
        let once = TerminalSafeText.escaped("R\u{1B}[31m\u{202E}")
        #expect(TerminalSafeText.escaped(once) == once)
        #expect(!once.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
