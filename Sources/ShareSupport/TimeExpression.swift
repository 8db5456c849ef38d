import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A time as a person types it to have something done later: `in 2h`,
/// `in 1h30m`, `tomorrow 9:00`, `9:00` (today, or tomorrow once past),
/// `mon 9:00`, `9pm`, an ISO time `2026-12-05T09:00` or `2026-12-05 09:00`
/// (local time) or one with its offset (`2026-12-05T09:00+09:00`, `Z`).
///
/// Wall-clock times are local, in the time zone the C library reads from
/// `TZ` (`localtime_r` and `mktime`, as ``DateText`` writes them): no
/// calendar data is loaded. `in 1d` is 24 hours; `tomorrow 9:00` is 9:00 on
/// the next day, whatever a change to summer time does to the hours between.
public enum TimeExpression {
    /// The time `text` names, counted from `now`; a time that is not after
    /// `now` is refused as past.
    public static func date(_ text: String, now: Date) -> Result<Date, TimeExpressionError> {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init).filter { $0 != "at" }
        guard !words.isEmpty else { return .failure(.unreadable(text)) }
        let nowSeconds = time_t(now.timeIntervalSince1970.rounded(.down))
        let found: Found?
        if words[0] == "in" {
            found = duration(words.dropFirst().joined()).map { Found.exact(nowSeconds + $0) }
        } else if let instant = instant(words) {
            found = .exact(instant)
        } else {
            found = wallClock(words, now: nowSeconds)
        }
        guard let found else { return .failure(.unreadable(text)) }
        switch found {
        case .exact(let seconds):
            let date = Date(timeIntervalSince1970: Double(seconds))
            return date > now ? .success(date) : .failure(.past(shown(date, now: now)))
        case .past(let seconds):
            return .failure(.past(shown(Date(timeIntervalSince1970: Double(seconds)), now: now)))
        }
    }

    /// The instant an ISO 8601 time names (`2026-12-05T09:00:00+09:00`;
    /// local time without an offset), whether past or not; `nil` when
    /// `text` is not one.
    public static func instant(_ text: String) -> Date? {
        let words = text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        return instant(words).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// `date` as ISO 8601 in the local time zone, to the second, with its
    /// offset: `2026-12-05T09:00:00+09:00`; ``instant(_:)`` reads it back.
    public static func iso(_ date: Date) -> String {
        var text = DateText.formatted(date, "%Y-%m-%dT%H:%M:%S%z", utc: false)
        // strftime's %z is +0900; ISO 8601's extended form has a colon.
        if text.count >= 5 { text.insert(":", at: text.index(text.endIndex, offsetBy: -2)) }
        return text
    }

    /// `date` for a person, in local time, as near `now` as it is:
    /// `today 09:00`, `tomorrow 09:00`, or `2026-12-05 09:00`.
    public static func shown(_ date: Date, now: Date) -> String {
        let clock = DateText.formatted(date, "%H:%M", utc: false)
        let day = DateText.formatted(date, "%Y-%m-%d", utc: false)
        if day == DateText.formatted(now, "%Y-%m-%d", utc: false) { return Localization.text("today %@", clock) }
        // Noon of the next day: a day of 23 or 25 hours still lands on it.
        var next = localFields(time_t(now.timeIntervalSince1970.rounded(.down)))
        next.tm_mday += 1
        next.tm_hour = 12
        if let noon = localSeconds(next), day == DateText.formatted(Date(timeIntervalSince1970: Double(noon)), "%Y-%m-%d", utc: false) {
            return Localization.text("tomorrow %@", clock)
        }
        return day + " " + clock
    }

    /// What a reading found: a time, or a wall-clock time that is past (`today 8:00` at 9:00).
    private enum Found {
        case exact(time_t)
        case past(time_t)
    }

    // MARK: - in 2h

    /// Seconds in a run of numbers and units without spaces (`2h`,
    /// `1h30m`, `90minutes`, `1week`): more than none, at most ten years.
    private static func duration(_ text: String) -> time_t? {
        var rest = Substring(text)
        var total: time_t = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 6, let number = time_t(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let seconds = unitSeconds[String(unit)] else { return nil }
            total += number * seconds
            guard total <= 10 * 366 * 86_400 else { return nil }
        }
        return total > 0 ? total : nil
    }

    /// The units `in` counts in, and their seconds (`m` is minutes).
    private static let unitSeconds: [String: time_t] = {
        var units: [String: time_t] = [:]
        for name in ["m", "min", "mins", "minute", "minutes"] { units[name] = 60 }
        for name in ["h", "hr", "hrs", "hour", "hours"] { units[name] = 3_600 }
        for name in ["d", "day", "days"] { units[name] = 86_400 }
        for name in ["w", "wk", "wks", "week", "weeks"] { units[name] = 7 * 86_400 }
        return units
    }()

    // MARK: - 2026-12-05 09:00

    /// Seconds since the epoch of an ISO time: one word with `T`, or a date
    /// and a time; the time may end in `z` or an offset (`+09:00`, `+0900`).
    private static func instant(_ words: [String]) -> time_t? {
        let date: Substring, time: Substring
        if words.count == 1, let t = words[0].firstIndex(of: "t") {
            date = words[0][..<t]
            time = words[0][words[0].index(after: t)...]
        } else if words.count == 2 {
            date = Substring(words[0])
            time = Substring(words[1])
        } else {
            return nil
        }
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int32(parts[0]), let month = Int32(parts[1]), let day = Int32(parts[2]),
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        // The offset: after the clock, a z or a sign.
        var clockText = time, offset: Int?
        if clockText.hasSuffix("z") {
            clockText = clockText.dropLast()
            offset = 0
        } else if let sign = clockText.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let seconds = offsetSeconds(clockText[sign...]) else { return nil }
            offset = seconds
            clockText = clockText[..<sign]
        }
        guard let clock = clockTime(clockText, allowsHourAlone: false), clock.meridiem == nil else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = month - 1
        fields.tm_mday = day
        fields.tm_hour = clock.hour
        fields.tm_min = clock.minute
        fields.tm_sec = clock.second
        if let offset {
            let utc = timegm(&fields)
            // timegm normalises a 31st of a 30-day month: such a day does not exist.
            guard fields.tm_mday == day, fields.tm_mon == month - 1 else { return nil }
            return utc - time_t(offset)
        }
        guard let seconds = localSeconds(fields), sameDay(seconds, year: year, month: month, day: day) else { return nil }
        return seconds
    }

    /// `+09:00`, `+0900`, `-05` as seconds east of UTC.
    private static func offsetSeconds(_ text: Substring) -> Int? {
        guard let sign = text.first else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
              hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    // MARK: - tomorrow 9:00

    /// A wall-clock time with an optional day word (`today`, `tomorrow`, a
    /// weekday), in either order: the next such time after `now`.
    private static func wallClock(_ words: [String], now: time_t) -> Found? {
        var day: String?
        var rest: [String] = []
        for word in words {
            if day == nil, word == "today" || word == "tomorrow" || weekday(word) != nil { day = word } else { rest.append(word) }
        }
        guard !rest.isEmpty, rest.count <= 2, let clock = clockTime(Substring(rest.joined()), allowsHourAlone: true) else { return nil }
        let today = localFields(now)
        func at(daysAhead: Int32) -> time_t? {
            var fields = tm()
            fields.tm_year = today.tm_year
            fields.tm_mon = today.tm_mon
            fields.tm_mday = today.tm_mday + daysAhead
            fields.tm_hour = clock.hour
            fields.tm_min = clock.minute
            fields.tm_sec = clock.second
            return localSeconds(fields)
        }
        switch day {
        case nil:
            // Today, or tomorrow once today's is past.
            guard let first = at(daysAhead: 0) else { return nil }
            return first > now ? .exact(first) : at(daysAhead: 1).map(Found.exact)
        case "today":
            guard let first = at(daysAhead: 0) else { return nil }
            return first > now ? .exact(first) : .past(first)
        case "tomorrow":
            return at(daysAhead: 1).map(Found.exact)
        case let name?:
            guard let target = weekday(name) else { return nil }
            let ahead = (target - today.tm_wday + 7) % 7
            guard let first = at(daysAhead: ahead) else { return nil }
            // Today's weekday: today while the time is still to come, else a week on.
            return first > now ? .exact(first) : at(daysAhead: ahead + 7).map(Found.exact)
        }
    }

    /// The weekday a word names (0 Sunday … 6 Saturday): `mon`, `monday`, `tues` …
    private static func weekday(_ word: String) -> Int32? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard word.count >= 3 else { return nil }
        if let index = names.firstIndex(where: { $0.hasPrefix(word) }) { return Int32(index) }
        return word == "weds" ? 3 : nil
    }

    /// A clock time: `9:00`, `09:00:30`, `21:00`, `9pm`, `9:30am`; a bare
    /// hour only with am or pm (and only where `allowsHourAlone`).
    private static func clockTime(_ text: Substring, allowsHourAlone: Bool) -> (hour: Int32, minute: Int32, second: Int32, meridiem: String?)? {
        var text = text
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where text.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            text = text.dropLast(suffix.count)
            break
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var hour = Int32(parts[0]) else { return nil }
        if parts.count == 1 && (meridiem == nil || !allowsHourAlone) { return nil }
        let minute = parts.count > 1 ? Int32(parts[1]) ?? 99 : 0
        let second = parts.count > 2 ? Int32(parts[2]) ?? 99 : 0
        guard parts.count < 2 || parts[1].count == 2, parts.count < 3 || parts[2].count == 2, minute < 60, second < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        return (hour, minute, second, meridiem)
    }

    // MARK: - The C library's local time

    /// The local date and time of `seconds`.
    private static func localFields(_ seconds: time_t) -> tm {
        var copy = seconds
        var fields = tm()
        localtime_r(&copy, &fields)
        return fields
    }

    /// The seconds of a local date and time (days past the month's end
    /// roll over), summer time as the date has it.
    private static func localSeconds(_ fields: tm) -> time_t? {
        var copy = fields
        copy.tm_isdst = -1
        let seconds = mktime(&copy)
        return seconds == -1 ? nil : seconds
    }

    /// Whether `seconds` falls on that local day (not a 31st rolled into the next month).
    private static func sameDay(_ seconds: time_t, year: Int32, month: Int32, day: Int32) -> Bool {
        let fields = localFields(seconds)
        return fields.tm_year == year - 1900 && fields.tm_mon == month - 1 && fields.tm_mday == day
    }
}

/// Why a typed time was refused, in words for the person who typed it.
public enum TimeExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a time share reads.
    case unreadable(String)
    /// A time that has passed already, as shown (`today 08:00`).
    case past(String)

    public var description: String {
        switch self {
        case .unreadable(let text):
            Localization.text("cannot read '%@' as a time: write in 2h, in 30m, tomorrow 9:00, mon 9:00 or 2026-12-05 09:00", text)
        case .past(let shown):
            Localization.text("%@ is past: give a time to come", shown)
        }
    }
}
