import EIDCrypto
import Testing

@Suite("Wiping secrets")
struct CleanseTests {
    @Test func zeroesEveryByteAndKeepsTheLength() {
        var secret: [UInt8] = Array(1...40)
        Cleanse.zero(&secret)
        #expect(secret == [UInt8](repeating: 0, count: 40))
        var empty: [UInt8] = []
        Cleanse.zero(&empty)
        #expect(empty.isEmpty)
    }

    @Test func paddingStillFollowsMethod2() {
        #expect(Padding.pad([]) == [0x80] + [UInt8](repeating: 0, count: 15))
        #expect(Padding.pad([UInt8](repeating: 7, count: 15)) == [UInt8](repeating: 7, count: 15) + [0x80])
        #expect(Padding.pad([UInt8](repeating: 7, count: 16)).count == 32)
        #expect(Padding.pad([1, 2, 3], blockSize: 8) == [1, 2, 3, 0x80, 0, 0, 0, 0])
    }
}
