/// The name of an activity: one of the 16 system names, or a reverse-DNS custom name.
///
/// System names are the iOS ones (`mail`, `copyToPasteboard` …). Custom
/// activities use reverse-DNS names such as `com.nshipster.mustachify`.
/// Build a type from user input with ``init(parsing:)``, which rejects
/// anything else with a message that lists the valid names.
public struct ActivityType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name as written on the command line and in JSON.
    public let rawValue: String

    /// Wraps a name without checking it; prefer ``init(parsing:)`` for input.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Parses a name typed by a person or read from a file.
    ///
    /// Accepts the system names exactly as spelled in SPEC §2 and
    /// reverse-DNS names (two or more dot-separated labels of letters,
    /// digits, `-` and `_`, the first starting with a letter).
    /// - Throws: ``ActivityTypeError`` naming the bad word and the valid names.
    public init(parsing text: String) throws(ActivityTypeError) {
        if !ActivityType.hasDot(text), let system = ActivityType.system.first(where: { $0.rawValue == text }) {
            self = system
        } else if ActivityType.isReverseDNS(text) {
            self.init(rawValue: text)
        } else {
            throw ActivityTypeError(word: text)
        }
    }

    /// Whether this is one of the 16 system types.
    public var isSystem: Bool { !ActivityType.hasDot(rawValue) && ActivityType.system.contains(self) }

    /// No system name has a dot and every reverse-DNS name has one: a
    /// plugin's type is told from the system ones without comparing it to
    /// each (a thousand are read at start-up).
    private static func hasDot(_ text: String) -> Bool { text.utf8.contains(UInt8(ascii: ".")) }

    public var description: String { rawValue }

    public static func < (lhs: ActivityType, rhs: ActivityType) -> Bool { lhs.rawValue < rhs.rawValue }

    static func isReverseDNS(_ text: String) -> Bool {
        // ASCII bytes only, checked directly: a thousand plugin types are read at start-up.
        var labels = 0
        var labelLength = 0
        var first = true
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
                continue
            }
            let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard letter || digit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
            if first && !letter { return false }
            first = false
            labelLength += 1
        }
        return labelLength > 0 && labels >= 1
    }
}

// MARK: - The system types, in table order (SPEC §2)

extension ActivityType {
    public static let airDrop = ActivityType(rawValue: "airDrop")
    public static let addToReadingList = ActivityType(rawValue: "addToReadingList")
    public static let assignToContact = ActivityType(rawValue: "assignToContact")
    public static let copyToPasteboard = ActivityType(rawValue: "copyToPasteboard")
    public static let print = ActivityType(rawValue: "print")
    public static let saveToCameraRoll = ActivityType(rawValue: "saveToCameraRoll")
    /// Link (SPEC §9): the items uploaded to a place of the person's, and its link handed back.
    public static let link = ActivityType(rawValue: "link")
    public static let mail = ActivityType(rawValue: "mail")
    public static let message = ActivityType(rawValue: "message")
    public static let postToFacebook = ActivityType(rawValue: "postToFacebook")
    public static let postToFlickr = ActivityType(rawValue: "postToFlickr")
    public static let postToTencentWeibo = ActivityType(rawValue: "postToTencentWeibo")
    public static let postToTwitter = ActivityType(rawValue: "postToTwitter")
    public static let postToVimeo = ActivityType(rawValue: "postToVimeo")
    public static let postToWeibo = ActivityType(rawValue: "postToWeibo")
    public static let postToMastodon = ActivityType(rawValue: "postToMastodon")
    public static let postToBluesky = ActivityType(rawValue: "postToBluesky")

    /// The 17 system types in the order of the support table.
    public static let system: [ActivityType] = [
        .airDrop, .addToReadingList, .assignToContact, .copyToPasteboard, .print, .saveToCameraRoll, .link,
        .mail, .message, .postToFacebook, .postToFlickr, .postToTencentWeibo, .postToTwitter,
        .postToVimeo, .postToWeibo, .postToMastodon, .postToBluesky,
    ]
}

/// A word that is neither a system activity type nor a reverse-DNS name.
public struct ActivityTypeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The word as given.
    public let word: String

    public var description: String {
        "unknown activity type '\(word)'; valid types: "
            + ActivityType.system.map(\.rawValue).joined(separator: ", ")
            + ", or a reverse-DNS name such as com.example.upload"
    }
}

/// Where an activity's tile goes: the share row or the action row.
public enum ActivityCategory: String, Sendable, Hashable, CaseIterable {
    /// Sends the items somewhere else (Mail, Message, social posts). First row.
    case share
    /// Does something with the items here (Copy, Print, Save). Second row.
    case action
}
