#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareSupport

/// Someone shared with, as the picker's people row shows them: the name
/// and address last used, and the activity last used with them.
public struct SharedPerson: Sendable, Equatable {
    /// The display name last given, or `nil`.
    public var name: String?
    /// The address (`kim@example.com`).
    public var address: String
    /// The recipient as recorded, for an address field (`"Lee, J" <lee@example.com>`).
    public var recipient: String
    /// The activity last used with them (`mail`).
    public var activity: ActivityType
    /// Recency-weighted count of shares: each counts 1 today, ½ a month ago.
    public var score: Double
}

extension ShareHistory {
    /// Up to `limit` people most shared with, from the entries of Mail and
    /// Message that went out (sent, queued or saved): each share counts by
    /// its age, halving every 30 days, so that both often and lately count.
    public static func people(in entries: [HistoryEntry], now: Date, limit: Int = 8) -> [SharedPerson] {
        var people: [String: SharedPerson] = [:]
        var latest: [String: Date] = [:]
        for entry in entries where entry.undoes == nil && ["sent", "queued", "saved"].contains(entry.outcome) {
            guard let date = entry.date, let activity = try? ActivityType(parsing: entry.activity) else { continue }
            let weight = pow(0.5, max(0, now.timeIntervalSince(date)) / (30 * 86_400))
            for recipient in entry.recipients {
                let (name, address) = split(recipient)
                let key = address.lowercased()
                var person = people[key] ?? SharedPerson(name: name, address: address, recipient: recipient, activity: activity, score: 0)
                person.score += weight
                if date >= latest[key] ?? .distantPast {
                    latest[key] = date
                    person.activity = activity
                    if name != nil { person.name = name; person.recipient = recipient }
                }
                people[key] = person
            }
        }
        return people.values.sorted { first, second in
            if first.score != second.score { return first.score > second.score }
            let firstDate = latest[first.address.lowercased()] ?? .distantPast
            let secondDate = latest[second.address.lowercased()] ?? .distantPast
            return firstDate != secondDate ? firstDate > secondDate : first.address < second.address
        }.prefix(limit).map { $0 }
    }

    /// `Kim Minsu <kim@example.com>` → ("Kim Minsu", "kim@example.com"),
    /// `"Lee, J" <lee@…>` → ("Lee, J", …); a bare address has no name.
    static func split(_ recipient: String) -> (name: String?, address: String) {
        guard recipient.hasSuffix(">"), let open = recipient.lastIndex(of: "<") else { return (nil, recipient) }
        var name = String(recipient[..<open]).trimmingWhitespace()
        // A quoted name (`"Lee, J"`) without its quotes and escapes.
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            var plain = ""
            var escaped = false
            for character in name.dropFirst().dropLast() {
                if !escaped && character == "\\" { escaped = true; continue }
                plain.append(character)
                escaped = false
            }
            name = plain
        }
        let address = String(recipient[recipient.index(after: open)...].dropLast())
        return (name.isEmpty ? nil : name, address)
    }
}
