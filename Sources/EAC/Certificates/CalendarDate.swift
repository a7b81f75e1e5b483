/// A calendar date (proleptic Gregorian) as CV certificates and authenticated auxiliary data
/// carry it: certificate effective and expiration dates (TR-03110-3, D.2.1.3: six digits YYMMDD
/// in unpacked BCD, years 2000-2099) and auxiliary dates (YYYYMMDD as ASCII digits).
public struct CalendarDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date, or nil when it does not exist (month 13, 30 February, year outside 0...9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CalendarDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses ISO 8601 "YYYY-MM-DD"; nil unless exactly that form and a real date.
    public init?(iso8601 text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// "YYYY-MM-DD".
    public var iso8601: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    public var description: String { iso8601 }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The six unpacked BCD bytes YYMMDD of a CV certificate date (TR-03110-3, D.2.1.3).
    /// Nil for years outside 2000...2099, which the format cannot express.
    public var unpackedBCD: [UInt8]? {
        guard (2000...2099).contains(year) else { return nil }
        let digits = pad(year - 2000, 2) + pad(month, 2) + pad(day, 2)
        return digits.utf8.map { $0 - 0x30 }
    }

    /// Decodes six unpacked BCD bytes YYMMDD (each 0x00...0x09) as a date in 2000...2099.
    public init?(unpackedBCD bytes: [UInt8]) {
        guard bytes.count == 6, bytes.allSatisfy({ $0 <= 9 }) else { return nil }
        let n = bytes.map(Int.init)
        self.init(year: 2000 + n[0] * 10 + n[1], month: n[2] * 10 + n[3], day: n[4] * 10 + n[5])
    }

    /// The eight ASCII digits YYYYMMDD of an auxiliary data date (TR-03110-3, A.7.5.1).
    public var asciiDigits: [UInt8] { Array((pad(year, 4) + pad(month, 2) + pad(day, 2)).utf8) }

    /// Decodes eight ASCII digits YYYYMMDD.
    public init?(asciiDigits bytes: [UInt8]) {
        guard bytes.count == 8, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let n = bytes.map { Int($0 - 0x30) }
        self.init(
            year: n[0] * 1000 + n[1] * 100 + n[2] * 10 + n[3], month: n[4] * 10 + n[5], day: n[6] * 10 + n[7])
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return String(repeating: "0", count: max(0, width - s.count)) + s
}
