import EAC
import FoundationEssentials

extension CalendarDate {
    /// Today's date in UTC, from the system clock.
    public static func todayUTC() -> CalendarDate {
        let parts = CalendarDate.utcCalendar.dateComponents([.year, .month, .day], from: Date())
        // The Gregorian calendar answers a real date for the system clock's day.
        return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// The date `days` days later (earlier for a negative count); throws
    /// `TestPKIError.invalidValidity` outside the years CV certificates can express (2000-2099).
    public func adding(days: Int) throws -> CalendarDate {
        let calendar = CalendarDate.utcCalendar
        guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            let end = calendar.date(byAdding: .day, value: days, to: start)
        else { throw TestPKIError.invalidValidity(days: days) }
        let parts = calendar.dateComponents([.year, .month, .day], from: end)
        guard let y = parts.year, let m = parts.month, let d = parts.day, (2000...2099).contains(y),
            let date = CalendarDate(year: y, month: m, day: d)
        else { throw TestPKIError.invalidValidity(days: days) }
        return date
    }

    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }
}
