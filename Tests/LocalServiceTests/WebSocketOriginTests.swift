import Testing

@testable import LocalService

/// AUSWEISAPP_WEBSOCKET_ORIGIN as AusweisApp 2.5 reads it: a regular expression found anywhere in
/// the Origin; without one, no page.
@Suite struct WebSocketOriginTests {
    @Test func withoutAPatternOnlyClientsWithoutOrigin() {
        let none = WebSocketOrigin.none
        #expect(none.allows(nil))
        #expect(!none.allows("https://evil.example"))
        #expect(WebSocketOrigin(pattern: "")?.allows("https://a.example") == false)
    }

    @Test func aPatternMatchesAnywhereUnlessAnchored() throws {
        let loose = try #require(WebSocketOrigin(pattern: #"https://app\.example"#))
        #expect(loose.allows("https://app.example"))
        #expect(loose.allows("https://app.example.evil.example"), "unanchored, as AusweisApp matches")
        #expect(!loose.allows("https://other.example"))
        let anchored = try #require(WebSocketOrigin(pattern: #"^https://app\.example(:[0-9]+)?$"#))
        #expect(anchored.allows("https://app.example:8443"))
        #expect(!anchored.allows("https://app.example.evil.example"))
        #expect(anchored.allows(nil))
    }

    @Test func notARegularExpressionIsRefused() {
        #expect(WebSocketOrigin(pattern: "(unclosed") == nil)
    }

    /// The icon is a well-formed ICO: one 16×16 32-bit image whose size and offset add up.
    @Test func theFavIconIsAnICO() {
        let ico = FavIcon.bytes
        func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(ico[at + $1]) << (8 * $1) } }
        #expect(Array(ico[0..<6]) == [0, 0, 1, 0, 1, 0])
        #expect(ico[6] == 16 && ico[7] == 16)
        #expect(le32(18) == 22, "the image follows the header")
        #expect(le32(14) + 22 == ico.count, "the declared size is all there is")
        #expect(le32(22) == 40, "a BITMAPINFOHEADER")
    }
}
