import Foundation
import ShareSupport
import Testing

/// The times a person types for send later, read from a fixed "now" in a
/// fixed time zone. The zone is the C library's `TZ`, which is the whole
/// process's: each zone's cases run in a child run of this test binary
/// started with it, so no other test ever sees it changed.
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

    /// The zone of a child run of this test binary, which `TZ` set from its
    /// start (`SHARE_TEST_ZONE` names it); `nil` in the run `swift test` started.
    static let childZone = ProcessInfo.processInfo.environment["SHARE_TEST_ZONE"]

    /// In a child run: each case of its zone, an expectation of its own.
    @Test(.enabled(if: childZone != nil)) func theCasesOfThisProcessZone() throws {
        switch Self.childZone {
        case "Asia/Seoul":
            let now = Self.seoulNow
            for item in Self.seoulCases { #expect(Self.reading(item.text, now: now) == item.expected, "'\(item.text)'") }
            // How a time is shown, by how near it is.
            #expect(TimeExpression.shown(now.addingTimeInterval(3_600), now: now) == "today 11:30")
            #expect(TimeExpression.shown(now.addingTimeInterval(86_400), now: now) == "tomorrow 10:30")
            #expect(TimeExpression.shown(now.addingTimeInterval(3 * 86_400), now: now) == "2026-12-07 10:30")
            // ISO 8601 with the offset, read back to the same instant.
            #expect(TimeExpression.iso(now) == "2026-12-04T10:30:00+09:00")
            #expect(TimeExpression.instant(TimeExpression.iso(now)) == now && TimeExpression.instant("2026-12-04T01:30:00Z") == now)
        case "America/New_York":
            for item in Self.newYorkCases { #expect(Self.reading(item.text, now: Self.newYorkNow) == item.expected, "'\(item.text)'") }
        case let other:
            Issue.record("no cases for \(other ?? "no zone")")
        }
    }

    /// Runs ``theCasesOfThisProcessZone()`` in a child run of this test
    /// binary with `TZ` set to `zone` from its start: `TZ` is the whole
    /// process's, and the tests around this one format dates. (Not Swift
    /// Testing's exit tests: their wait for the child stalls on the
    /// children other tests leave unreaped.)
    @Test(.enabled(if: childZone == nil), arguments: ["Asia/Seoul", "America/New_York"])
    func timesAreReadIn(zone: String) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "theCasesOfThisProcessZone"]
        child.environment = ProcessInfo.processInfo.environment.merging(["TZ": zone, "SHARE_TEST_ZONE": zone]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0 && printed.contains("Test theCasesOfThisProcessZone() passed"), "\(printed)")
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
