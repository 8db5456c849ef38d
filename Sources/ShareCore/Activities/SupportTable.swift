/// One row of the support table of SPEC §2: a system activity's title,
/// category, the item kinds it takes, and when it is available.
public struct SystemActivityDescriptor: Sendable, Equatable {
    /// The system type.
    public let type: ActivityType
    /// The title under the tile.
    public let title: String
    /// The row the tile goes in.
    public let category: ActivityCategory
    /// The kinds it takes (an image also counts as a file).
    public let kinds: Set<ItemKind>
    /// When the activity is available, in words.
    public let availableWhen: String
}

/// The support table of SPEC §2, exactly, in table order.
///
/// The table is the upper bound: an implementation cannot widen the kinds
/// it takes, and narrows them only through ``Activity/refusal(of:)``, which
/// says why (a share link that carries one URL).
public enum SupportTable {
    /// Every row, in table order.
    public static let rows: [SystemActivityDescriptor] = [
        row(.airDrop, "Nearby", .action, [.string, .url, .image, .file], "always (LAN one-shot HTTP + QR code)"),
        row(.addToReadingList, "Add to Reading List", .action, [.url], "always (local reading list)"),
        row(.assignToContact, "Assign to Contact", .action, [.image], "a contacts folder (vCard vdir) with ≥1 contact"),
        row(.copyToPasteboard, "Copy", .action, [.string, .url, .image, .file], "always (OSC 52; wl-copy / xclip when present)"),
        row(.print, "Print", .action, [.image, .file], "`lp` exists and a destination is set"),
        row(.saveToCameraRoll, "Save to Pictures", .action, [.url, .image], "always (XDG pictures folder)"),
        row(.link, "Link", .action, [.string, .url, .image, .file], "a [link.NAME] section exists (SPEC §9)"),
        row(.mail, "Mail", .share, [.string, .url, .image, .file], "always (no transport → outbox)"),
        row(.message, "Message", .share, [.string, .url, .image, .file], "a messaging account is configured"),
        row(.postToFacebook, "Facebook", .share, [.string, .url, .image], "service enabled in config"),
        row(.postToFlickr, "Flickr", .share, [.url, .image], "service enabled in config"),
        row(.postToTencentWeibo, "Tencent Weibo", .share, [.string, .url, .image], "never: the service closed in September 2020"),
        row(.postToTwitter, "Twitter", .share, [.string, .url, .image], "service enabled in config"),
        row(.postToVimeo, "Vimeo", .share, [.url, .image, .file], "service enabled in config"),
        row(.postToWeibo, "Weibo", .share, [.string, .url, .image], "service enabled in config"),
        row(.postToMastodon, "Mastodon", .share, [.string, .url, .image], "instance set in config"),
        row(.postToBluesky, "Bluesky", .share, [.string, .url, .image], "enabled in config"),
    ]

    private static let positions: [ActivityType: Int] = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.type, $0) })

    /// The row for a system type, or `nil` for a custom type.
    public static func descriptor(for type: ActivityType) -> SystemActivityDescriptor? {
        positions[type].map { rows[$0] }
    }

    /// The row for a system type; a type with no row (not a system type)
    /// gets one that takes nothing and is never available.
    public static func row(_ type: ActivityType) -> SystemActivityDescriptor {
        descriptor(for: type) ?? SystemActivityDescriptor(type: type, title: type.rawValue, category: .action, kinds: [],
                                                          availableWhen: "never: not a system type")
    }

    /// The position of a system type in the table (for ordering), or `nil`.
    public static func position(of type: ActivityType) -> Int? {
        positions[type]
    }

    private static func row(_ type: ActivityType, _ title: String, _ category: ActivityCategory,
                            _ kinds: Set<ItemKind>, _ availableWhen: String) -> SystemActivityDescriptor {
        SystemActivityDescriptor(type: type, title: title, category: category, kinds: kinds, availableWhen: availableWhen)
    }
}
