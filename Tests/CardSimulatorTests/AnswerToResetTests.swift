import Testing

@testable import CardSimulator

@Suite struct AnswerToResetTests {
    /// Walks the ATR per ISO/IEC 7816-3, 8.2: TS, T0, the interface bytes announced by each
    /// Y nibble, K historical bytes, and TCK (XOR of T0...TCK is 0) when a protocol other than
    /// T=0 is indicated. Returns the historical bytes, or nil when the structure is wrong.
    func historicalBytes(_ atr: [UInt8]) -> [UInt8]? {
        guard atr.count >= 2, atr[0] == 0x3B || atr[0] == 0x3F else { return nil }
        let k = Int(atr[1] & 0x0F)
        var y = atr[1] >> 4
        var i = 2
        var protocols: Set<UInt8> = []
        while true {
            for bit in [UInt8(1), 2, 4] where y & bit != 0 { i += 1 }
            guard y & 8 != 0 else { break }
            guard i < atr.count else { return nil }
            let td = atr[i]
            i += 1
            protocols.insert(td & 0x0F)
            y = td >> 4
        }
        let historical = i..<(i + k)
        guard historical.upperBound <= atr.count else { return nil }
        let needsTCK = protocols.contains { $0 != 0 }
        guard atr.count == historical.upperBound + (needsTCK ? 1 : 0) else { return nil }
        if needsTCK { guard atr.dropFirst().reduce(0, ^) == 0 else { return nil } }
        return Array(atr[historical])
    }

    @Test func defaultATRIsAValidT1ATR() {
        let atr = SimulatedEIDCard.defaultATR
        #expect(historicalBytes(atr) == [0x80, 0x31, 0xF8, 0x73, 0xF7, 0x41, 0xE0, 0x82, 0x90, 0x00])
        #expect(atr.last == 0x75)
        #expect(SimulatedEIDCard().atr == atr)
    }

    @Test func checkerRejectsABadTCK() {
        var atr = SimulatedEIDCard.defaultATR
        atr[atr.count - 1] = 0x74
        #expect(historicalBytes(atr) == nil)
        #expect(historicalBytes(Array(atr.dropLast())) == nil)
    }
}
