import Foundation
import Testing

/// One object of `--explain --json` / `--list --json`:
/// `{type, title, category, eligible, reason, detail}` (SPEC §4).
struct ActivityRow: Equatable, CustomStringConvertible {
    var type: String
    var title: String
    var category: String
    var eligible: Bool
    var reason: String?
    var detail: String?

    var description: String { "\(type): \(reason ?? "eligible") (\(detail ?? "-"))" }

    /// The keys every object has, no more and no fewer.
    static let keys: Set<String> = ["type", "title", "category", "eligible", "reason", "detail"]

    /// Parses all of `run`'s stdout as one JSON array of activity objects,
    /// checking each object's exact key set and value types.
    static func parse(_ run: ShareRun, sourceLocation: SourceLocation = #_sourceLocation) throws -> [ActivityRow] {
        let json = try JSONSerialization.jsonObject(with: run.stdout)
        let array = try #require(json as? [Any], "stdout is not a JSON array: \(run.out)", sourceLocation: sourceLocation)
        return try array.map { element in
            let object = try #require(element as? [String: Any], "not an object: \(element)", sourceLocation: sourceLocation)
            #expect(Set(object.keys) == keys, "keys of \(object)", sourceLocation: sourceLocation)
            func string(_ key: String) throws -> String {
                try #require(object[key] as? String, "\(key) is not a string in \(object)", sourceLocation: sourceLocation)
            }
            func optionalString(_ key: String) throws -> String? {
                let value = try #require(object[key], "\(key) is missing in \(object)", sourceLocation: sourceLocation)
                if value is NSNull { return nil }
                return try #require(value as? String, "\(key) is neither null nor a string in \(object)",
                                    sourceLocation: sourceLocation)
            }
            let eligible = try #require(object["eligible"], "eligible is missing in \(object)", sourceLocation: sourceLocation)
            try #require(isJSONBoolean(eligible), "eligible is not true/false in \(object)", sourceLocation: sourceLocation)
            return ActivityRow(type: try string("type"), title: try string("title"), category: try string("category"),
                               eligible: eligible as? Bool ?? false,
                               reason: try optionalString("reason"), detail: try optionalString("detail"))
        }
    }

    /// Whether a JSONSerialization value was the literal `true` or `false` (not a number).
    private static func isJSONBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return Swift.type(of: number) == Swift.type(of: NSNumber(value: true))
    }
}

extension [ActivityRow] {
    /// The types, in output order.
    var types: [String] { map(\.type) }

    /// The row for `type`; records an issue when it is missing.
    func row(_ type: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ActivityRow {
        try #require(first { $0.type == type }, "no row for \(type) in \(types)", sourceLocation: sourceLocation)
    }

    /// The reason given for `type` (`nil` when eligible or missing).
    func reason(_ type: String) -> String? { first { $0.type == type }?.reason }

    /// type → reason, for comparing whole verdicts at once (`"eligible"` for no reason).
    var reasons: [String: String] {
        Dictionary(map { ($0.type, $0.reason ?? "eligible") }, uniquingKeysWith: { first, _ in first })
    }
}

/// The 17 system activities of SPEC §2 and §9, in display order: the share row,
/// then the action row, each in table order.
enum SystemActivity {
    /// (type, title, category) in display order.
    static let rows: [(type: String, title: String, category: String)] = [
        ("mail", "Mail", "share"),
        ("message", "Message", "share"),
        ("postToFacebook", "Facebook", "share"),
        ("postToFlickr", "Flickr", "share"),
        ("postToTencentWeibo", "Tencent Weibo", "share"),
        ("postToTwitter", "Twitter", "share"),
        ("postToVimeo", "Vimeo", "share"),
        ("postToWeibo", "Weibo", "share"),
        ("postToMastodon", "Mastodon", "share"),
        ("postToBluesky", "Bluesky", "share"),
        ("airDrop", "Nearby", "action"),
        ("addToReadingList", "Add to Reading List", "action"),
        ("assignToContact", "Assign to Contact", "action"),
        ("copyToPasteboard", "Copy", "action"),
        ("print", "Print", "action"),
        ("saveToCameraRoll", "Save to Pictures", "action"),
        ("link", "Link", "action"),
    ]

    /// The types in display order.
    static let order = rows.map(\.type)

    /// The kinds each type takes (SPEC §2 table): s = String, u = URL, i = Image, f = Files.
    static let kinds: [String: Set<Character>] = [
        "airDrop": ["s", "u", "i", "f"], "addToReadingList": ["u"], "assignToContact": ["i"],
        "copyToPasteboard": ["s", "u", "i", "f"], "print": ["i", "f"], "saveToCameraRoll": ["u", "i"],
        "mail": ["s", "u", "i", "f"], "message": ["s", "u", "i", "f"], "postToFacebook": ["s", "u", "i"],
        "postToFlickr": ["u", "i"], "postToTencentWeibo": ["s", "u", "i"], "postToTwitter": ["s", "u", "i"],
        "postToVimeo": ["u", "i", "f"], "postToWeibo": ["s", "u", "i"], "postToMastodon": ["s", "u", "i"],
        "postToBluesky": ["s", "u", "i"], "link": ["s", "u", "i", "f"],
    ]

    /// The system activities this build has built and that need nothing
    /// from the machine; every other one is unavailable.
    static let built: Set<String> = ["mail", "addToReadingList", "saveToCameraRoll", "airDrop"]

    /// Built, but unavailable in these tests: Copy needs a terminal (OSC 52)
    /// or wl-copy/xclip, and the tests run share without either.
    static let needsClipboard = "copyToPasteboard"
    static let noClipboardDetail = "no terminal for OSC 52, and neither wl-copy nor xclip"
    /// Message without a configured account.
    static let messageDetail = "no messaging account: set jid and password-command in the [message] section of the config file,"
        + " or a webhook in a [message.NAME] section"

    /// Why each built activity that needs something of the machine is
    /// unavailable in a test's fresh world (no clipboard, no contacts, no
    /// CUPS scheduler: `CUPS_SERVER` names a socket that is not there, whose
    /// path ends the detail; no social service enabled); the unbuilt ones
    /// say "not built yet".
    static func unavailableDetail(_ type: String) -> String {
        switch type {
        case needsClipboard: noClipboardDetail
        case "assignToContact": "no contacts folder: ~/.contacts does not exist (set [contacts] vcard-dir to your vCard folder)"
        case "print": "no printer: the CUPS scheduler is not running ("
        case "message": messageDetail
        case "link": "no place configured: add a [link.NAME] section"
        case "postToTencentWeibo": "Tencent Weibo closed in September 2020; there is nothing left to post to"
        // No share link: only an account posts to them, and none is enabled here.
        case "postToFlickr": "not enabled: add flickr to enabled in the [social] section of the config file"
        case "postToVimeo": "not enabled: add vimeo to enabled in the [social] section of the config file"
        default:
            if let service = linkServices[type] { "not enabled: add \(service.name) to enabled in the [social] section of the config file" }
            else { "not built yet" }
        }
    }

    /// The services with a share link: their `[social] enabled` name, and
    /// the kinds the link carries (narrower than the table: never an image;
    /// Facebook's only a web URL, not `w`, a URL of another scheme).
    static let linkServices: [String: (name: String, carries: Set<Character>)] = [
        "postToTwitter": ("twitter", ["s", "u", "w"]), "postToFacebook": ("facebook", ["u"]), "postToWeibo": ("weibo", ["s", "u", "w"]),
        "postToMastodon": ("mastodon", ["s", "u", "w"]), "postToBluesky": ("bluesky", ["s", "u", "w"]),
    ]

    /// The activities that take a URL only when it is a web address: a
    /// `mailto:` is no page to keep or picture to download.
    static let webOnly: Set<String> = ["addToReadingList", "saveToCameraRoll"]

    /// Whether `detail` is what ``unavailableDetail(_:)`` says for `type`.
    static func isUnavailableDetail(_ detail: String?, of type: String) -> Bool {
        guard let detail else { return false }
        return type == "print" ? detail.hasPrefix(unavailableDetail(type)) && detail.hasSuffix("no-cups.sock does not exist)")
            : detail == unavailableDetail(type)
    }

    /// The verdicts this build must give when nothing is excluded: a system
    /// activity is "unsupported-items" when none of the item kinds (an image
    /// also counts as a file, and `w`, a URL that is not a web address such
    /// as `mailto:`, as a URL, except to ``webOnly``) is one it takes, else "eligible" when built
    /// and "unavailable" when not.
    static func expectedReasons(itemKinds: Set<Character>) -> [String: String] {
        var result: [String: String] = [:]
        for type in order {
            var kinds = itemKinds
            if kinds.contains("i") { kinds.insert("f") }
            if kinds.contains("w") && !webOnly.contains(type) { kinds.insert("u") }
            // A share link service refuses what its link cannot carry before its availability is asked.
            let carried = linkServices[type].map { !itemKinds.isDisjoint(with: $0.carries) } ?? true
            result[type] = kinds.isDisjoint(with: self.kinds[type] ?? []) || !carried ? "unsupported-items"
                : built.contains(type) ? "eligible" : "unavailable"
        }
        return result
    }
}
