import Testing

@testable import SmartCard

@Suite struct SecretTests {
    @Test func consumingZeroesTheSourceAndWipeEmpties() {
        var digits = Array("123456".utf8)
        let secret = Secret(consuming: &digits)
        #expect(digits == [0, 0, 0, 0, 0, 0])
        #expect(secret.isDigits(count: 6))
        #expect(!secret.isDigits(count: 5))
        #expect(secret.withBytes { $0 } == Array("123456".utf8))
        secret.wipe()
        #expect(secret.count == 0)
        #expect(secret.withBytes { $0 }.isEmpty)
    }

    @Test func digitsOnly() {
        #expect(!Secret("12a456").isDigits(count: 6))
        #expect(!Secret("12345 ").isDigits(count: 6))
        #expect(Secret("12345").isDigits(count: 5, 6))
        #expect(!Secret("").isDigits(count: 5, 6))
    }

    @Test func matching() {
        #expect(Secret("654321").matches(Secret("654321")))
        #expect(!Secret("654321").matches(Secret("654320")))
        #expect(!Secret("654321").matches(Secret("65432")))
    }

    @Test func describingDoesNotRevealTheValue() {
        let text = "\(Secret("987654"))"
        #expect(!text.contains("987654"))
    }
}
