import Foundation
@testable import ShareCore
import Testing

/// Who the people row would show: from the history's Mail and Message
/// recipients, often and lately both counting.
struct PeopleTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func entry(_ activity: String, _ outcome: String, daysAgo: Double, _ recipients: [String]) -> HistoryEntry {
        var result = ActivityResult(activityType: ActivityType(rawValue: activity), outcome: ActivityOutcome(rawValue: outcome)!)
        result.recipients = recipients
        return HistoryEntry(result: result, activity: ActivityType(rawValue: activity), items: [],
                            date: now.addingTimeInterval(-daysAgo * 86_400))
    }

    @Test func oftenAndLatelyBothCountAndTheLatestNameWins() {
        let entries = [
            Self.entry("mail", "sent", daysAgo: 200, ["Old Friend <old@example.com>"]),
            Self.entry("mail", "sent", daysAgo: 200, ["Old Friend <old@example.com>"]),
            Self.entry("mail", "sent", daysAgo: 200, ["Old Friend <old@example.com>"]),
            Self.entry("mail", "sent", daysAgo: 10, ["park@example.com", "이지은 <lee@example.com>"]),
            Self.entry("mail", "queued", daysAgo: 1, ["Park Jisung <PARK@example.com>"]),
            Self.entry("mail", "failed", daysAgo: 0, ["never@example.com"]),
            Self.entry("addToReadingList", "performed", daysAgo: 0, []),
        ]
        let people = ShareHistory.people(in: entries, now: Self.now)
        #expect(people.map(\.address) == ["park@example.com", "lee@example.com", "old@example.com"])
        #expect(people.first?.name == "Park Jisung", "the name last given, the address as first seen")
        #expect(people[1].name == "이지은")
        #expect(people.allSatisfy { $0.activity == .mail })
        #expect(!people.contains { $0.address == "never@example.com" }, "a failed share reached no one")
        #expect(people[2].score < 0.1, "three shares 200 days ago weigh less than one last month")
    }

    @Test func aQuotedNameIsShownWithoutItsQuotesAndOfferedWithThem() {
        let people = ShareHistory.people(in: [Self.entry("mail", "sent", daysAgo: 1, [#""Lee, \"J\"" <lee@example.com>"#])], now: Self.now)
        #expect(people.first?.name == #"Lee, "J""#)
        #expect(people.first?.recipient == #""Lee, \"J\"" <lee@example.com>"#)
    }

    @Test func atMostEightAndNoneWithoutHistory() {
        let entries = (0..<12).map { Self.entry("mail", "sent", daysAgo: Double($0), ["p\($0)@example.com"]) }
        let people = ShareHistory.people(in: entries, now: Self.now)
        #expect(people.map(\.address) == (0..<8).map { "p\($0)@example.com" })
        #expect(ShareHistory.people(in: [], now: Self.now).isEmpty)
    }
}
