import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport
import Testing

/// The times a person types for send later, read from a fixed "now" in a
/// fixed time zone. The zone is the C library's `TZ`, which is the whole
/// process's: each zone's cases run in a process of their own (an exit
/// test), so no other test ever sees it changed.
@Suite struct TimeExpressionTests {
    /// One case: the text typed, and the ISO time it names in the zone
    /// (`2026-12-05T09:00:00+09:00`), or `unreadable`, or `past: SHOWN`.
    typealias Case = (text: String, expected: String)

    /// Friday 2026-12-04 10:30 in Seoul (no summer time there).
    static let seoulNow = Date(timeIntervalSince1970: 1_796_347_800)

    static let seoulCases: [Case] = [
        ("in 2h", "2026-12-04T12:30:00+09:00"),
        ("in 30m", "2026-12-04T11:00:00+09:00"),
        ("in 1d", "2026-12-05T10:30:00+09:00"),
        ("IN 1h30m", "2026-12-04T12:00:00+09:00"),
        ("in 2 hours", "2026-12-04T12:30:00+09:00"),
        ("in 90 minutes", "2026-12-04T12:00:00+09:00"),
        ("in 1 week", "2026-12-11T10:30:00+09:00"),
        ("tomorrow 9:00", "2026-12-05T09:00:00+09:00"),
        ("tomorrow at 9:00", "2026-12-05T09:00:00+09:00"),
        ("9:00 tomorrow", "2026-12-05T09:00:00+09:00"),
        ("9:00", "2026-12-05T09:00:00+09:00"),
        ("11:15", "2026-12-04T11:15:00+09:00"),
        ("23:59:30", "2026-12-04T23:59:30+09:00"),
        ("today 18:00", "2026-12-04T18:00:00+09:00"),
        ("today 9:00", "past: today 09:00"),
        ("9pm", "2026-12-04T21:00:00+09:00"),
        ("9:30 pm", "2026-12-04T21:30:00+09:00"),
        ("12am", "2026-12-05T00:00:00+09:00"),
        ("12pm", "2026-12-04T12:00:00+09:00"),
        ("mon 9:00", "2026-12-07T09:00:00+09:00"),
        ("Monday 9:00", "2026-12-07T09:00:00+09:00"),
        ("fri 11:00", "2026-12-04T11:00:00+09:00"),
        ("fri 9:00", "2026-12-11T09:00:00+09:00"),
        ("sun 8am", "2026-12-06T08:00:00+09:00"),
        ("weds 7:00", "2026-12-09T07:00:00+09:00"),
        ("2026-12-05T09:00", "2026-12-05T09:00:00+09:00"),
        ("2026-12-05 09:00", "2026-12-05T09:00:00+09:00"),
        ("2026-12-05T09:00:30", "2026-12-05T09:00:30+09:00"),
        ("2026-12-05T09:00+00:00", "2026-12-05T18:00:00+09:00"),
        ("2026-12-05T09:00Z", "2026-12-05T18:00:00+09:00"),
        ("2026-12-05 09:00-0500", "2026-12-05T23:00:00+09:00"),
        ("2027-01-01 00:00", "2027-01-01T00:00:00+09:00"),
        ("2026-12-04T09:00", "past: today 09:00"),
        ("2026-12-03 10:00", "past: 2026-12-03 10:00"),
        ("", "unreadable"),
        ("soon", "unreadable"),
        ("tomorrow", "unreadable"),
        ("mon", "unreadable"),
        ("in", "unreadable"),
        ("in 0m", "unreadable"),
        ("in 2x", "unreadable"),
        ("in 2", "unreadable"),
        ("in 99999999h", "unreadable"),
        ("9", "unreadable"),
        ("25:00", "unreadable"),
        ("9:7", "unreadable"),
        ("9:60", "unreadable"),
        ("13pm", "unreadable"),
        ("2026-02-30 09:00", "unreadable"),
        ("2026-13-01 09:00", "unreadable"),
        ("2026-12-05", "unreadable"),
        ("2026-12-05T09:00+25:00", "unreadable"),
        ("2026-12-05 09:00 pm", "unreadable"),
    ]

    /// Saturday 2026-03-07 12:00 in New York, the day before summer time begins.
    static let newYorkNow = Date(timeIntervalSince1970: 1_772_902_800)

    static let newYorkCases: [Case] = [
        // The next day's 9:00 is in summer time; 24 hours on is an hour later on the clock.
        ("tomorrow 9:00", "2026-03-08T09:00:00-04:00"),
        ("in 1d", "2026-03-08T13:00:00-04:00"),
        ("sun 11:00", "2026-03-08T11:00:00-04:00"),
        ("13:00", "2026-03-07T13:00:00-05:00"),
        ("2026-03-09 09:00", "2026-03-09T09:00:00-04:00"),
    ]

    /// What `text` reads as, in the words of a ``Case``.
    static func reading(_ text: String, now: Date) -> String {
        switch TimeExpression.date(text, now: now) {
        case .success(let date): TimeExpression.iso(date)
        case .failure(.unreadable): "unreadable"
        case .failure(.past(let shown)): "past: " + shown
        }
    }

    /// The cases that read otherwise than expected, a line each.
    static func mismatches(_ cases: [Case], now: Date) -> [String] {
        cases.compactMap { item in
            let read = reading(item.text, now: now)
            return read == item.expected ? nil : "'\(item.text)': \(read), expected \(item.expected)"
        }
    }

    /// Expects an exit test that set its own `TZ` to have printed no
    /// mismatch: it exits 0 whatever it found, since the result of one
    /// that fails holds nothing of what it printed.
    static func inZone(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let result else { return }
        let printed = String(decoding: result.standardOutputContent, as: UTF8.self)
        let mismatches = printed.split(separator: "\n").filter { $0.hasPrefix("mismatch: ") }
        #expect(printed.hasSuffix("checked\n") && mismatches.isEmpty, "\(printed)", sourceLocation: sourceLocation)
    }

    /// Prints each mismatch on standard output, which the exit test hands
    /// back, and then `checked`.
    static func report(_ problems: [String]) {
        let text = problems.map { "mismatch: " + $0 + "\n" }.joined() + "checked\n"
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress, text.utf8.count) }
    }

    @Test func timesAreReadInSeoul() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            setenv("TZ", "Asia/Seoul", 1)
            tzset()
            var problems = TimeExpressionTests.mismatches(TimeExpressionTests.seoulCases, now: TimeExpressionTests.seoulNow)
            let now = TimeExpressionTests.seoulNow
            // How a time is shown, by how near it is.
            let shown = [(3_600.0, "today 11:30"), (86_400, "tomorrow 10:30"), (3 * 86_400, "2026-12-07 10:30")].map { offset, expected in
                (TimeExpression.shown(now.addingTimeInterval(offset), now: now), expected)
            }
            problems += shown.filter { $0.0 != $0.1 }.map { "shown \($0.0), expected \($0.1)" }
            // ISO 8601 with the offset, read back to the same instant.
            let iso = TimeExpression.iso(now)
            if iso != "2026-12-04T10:30:00+09:00" || TimeExpression.instant(iso) != now { problems.append("iso \(iso)") }
            if TimeExpression.instant("2026-12-04T01:30:00Z") != now { problems.append("instant of Z") }
            TimeExpressionTests.report(problems)
            exit(EXIT_SUCCESS)
        }
        Self.inZone(result)
    }

    @Test func aDayOfSummerTimeIsADayOnTheClock() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            setenv("TZ", "America/New_York", 1)
            tzset()
            let problems = TimeExpressionTests.mismatches(TimeExpressionTests.newYorkCases, now: TimeExpressionTests.newYorkNow)
            TimeExpressionTests.report(problems)
            exit(EXIT_SUCCESS)
        }
        Self.inZone(result)
    }

    /// Times with their offset name one instant in any zone.
    @Test func anOffsetNamesOneInstant() {
        let now = Self.seoulNow
        #expect(TimeExpression.instant("2026-12-05T09:00:00+09:00") == now.addingTimeInterval(22.5 * 3_600))
        #expect(TimeExpression.instant("2026-12-05T00:00Z") == now.addingTimeInterval(22.5 * 3_600))
        #expect(TimeExpression.instant("2026-12-04 20:30-05:00") == now.addingTimeInterval(24 * 3_600))
        #expect(TimeExpression.instant("not a time") == nil)
        #expect(TimeExpression.date("in 2h", now: now) == .success(now.addingTimeInterval(7_200)))
        #expect(TimeExpression.date("2026-12-04T01:30:00Z", now: now) == .failure(.past(TimeExpression.shown(now, now: now))))
    }
}
