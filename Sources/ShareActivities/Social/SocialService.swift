import FoundationEssentials
import ShareCore
import ShareSupport

/// A service share posts to, and what its share link can carry.
public enum SocialService: String, CaseIterable, Sendable {
    case twitter, facebook, flickr, tencentweibo, vimeo, weibo, mastodon, bluesky

    /// The activity type of its tile.
    public var type: ActivityType {
        switch self {
        case .twitter: .postToTwitter
        case .facebook: .postToFacebook
        case .flickr: .postToFlickr
        case .tencentweibo: .postToTencentWeibo
        case .vimeo: .postToVimeo
        case .weibo: .postToWeibo
        case .mastodon: .postToMastodon
        case .bluesky: .postToBluesky
        }
    }

    /// The service's name in messages (X for the type the seed calls Twitter).
    public var name: String { self == .twitter ? "X" : SupportTable.row(type).title }

    /// Why the service can never take a post, whatever the config says.
    var permanentlyUnavailable: String? {
        self == .tencentweibo ? "Tencent Weibo closed in September 2020; there is nothing left to post to" : nil
    }

    /// The services share posts to directly through their APIs with an
    /// account of `[social.SERVICE]`.
    public static let direct: [SocialService] = [.twitter, .flickr, .vimeo, .mastodon, .bluesky]

    /// How a local image could still be posted, for messages.
    var directHint: String {
        SocialService.direct.contains(self) ? "posting images needs your account in a [social.\(rawValue)] section"
            : "\(name) takes posts from share only through its link"
    }

    /// Whether the service has a share link (Flickr and Vimeo have none: only their APIs).
    var hasShareLink: Bool { self != .flickr && self != .vimeo && self != .tencentweibo }

    /// How the link carries the shared URLs.
    enum LinkCarrying {
        /// A parameter of its own takes one URL (X, Weibo); the others go in the text.
        case parameter
        /// Only a URL: the link has no text (Facebook).
        case only
        /// In the text, as typed (Mastodon, Bluesky).
        case inText
    }

    var carrying: LinkCarrying {
        switch self {
        case .facebook: .only
        case .mastodon, .bluesky: .inText
        default: .parameter
        }
    }

    /// The most the post's text may count, and how it counts (`nil`: not
    /// counted here; Weibo's share page cuts the text itself).
    var limit: Int? {
        switch self {
        case .twitter: 280
        case .mastodon: 500
        case .bluesky: 300
        default: nil
        }
    }

    /// How much of ``limit`` the post uses: `text`, and a link sent
    /// beside it (X shows it after a space).
    func count(text: String, link: String?) -> Int {
        switch self {
        case .twitter: PostLength.x(text) + (link == nil ? 0 : (text.isEmpty ? 0 : 1) + PostLength.linkLength)
        case .mastodon: PostLength.mastodon(text)
        case .bluesky: PostLength.bluesky(text)
        default: text.count
        }
    }

    /// The share link for a post of `text`, `link` (a URL) and `pictures`
    /// (images' URLs); `nil` when the pieces make no URL (a Mastodon
    /// server's name that the config let through but a URL cannot hold).
    func shareLink(text: String, link: String?, pictures: [String], instance: String?) -> URL? {
        switch self {
        case .twitter: ShareLink.x(text: text, url: link)
        case .facebook: ShareLink.facebook(url: link ?? "")
        case .weibo: ShareLink.weibo(url: link, title: text, pictures: pictures)
        case .mastodon: ShareLink.mastodon(instance: instance ?? "", text: text)
        default: ShareLink.bluesky(text: text)
        }
    }

    /// Whether `url` names an image (by its path's extension): Weibo takes it as the picture.
    static func isImageURL(_ url: URL) -> Bool {
        guard url.isWebAddress else { return false }
        let name = url.path.lowercased()
        return [".jpg", ".jpeg", ".png", ".gif", ".webp"].contains { name.hasSuffix($0) }
    }
}

/// The `[social]` section: the services enabled, and the Mastodon server;
/// and the accounts of the `[social.SERVICE]` sections.
public struct SocialSettings: Sendable, Equatable {
    /// The services `enabled` names.
    public var enabled: Set<SocialService> = []
    /// `mastodon = HOST`: the server whose share page Mastodon opens, and
    /// whose API a Mastodon account posts to.
    public var mastodonInstance: String?
    /// The accounts that post directly, by service.
    public var accounts: [SocialService: SocialAccount] = [:]

    /// The keys the social activities read.
    public static let configKeys = [ConfigKeys(section: "social", keys: ["enabled", "mastodon"]),
                                    ConfigKeys(section: "social.*", keys: SocialAccount.keys)]

    /// The settings in `section` and the account `subsections`; an unknown
    /// service or an unusable value is an error naming file and line.
    public static func read(_ section: ConfigSection, accounts subsections: [ConfigSection] = [],
                            environment: [String: String] = [:]) throws(ConfigurationError) -> SocialSettings {
        var settings = SocialSettings()
        for subsection in subsections {
            let account = try SocialAccount.read(subsection, environment: environment)
            settings.accounts[account.service] = account
        }
        if let entry = section.entry("enabled") {
            for word in entry.value.split(separator: ",").map({ $0.trimmingWhitespace().lowercased() }) where !word.isEmpty {
                guard let service = SocialService(rawValue: word) else {
                    throw section.error(entry, "enabled names services: '\(word)' is not one of "
                                        + SocialService.allCases.map(\.rawValue).joined(separator: ", "))
                }
                settings.enabled.insert(service)
            }
        }
        if let entry = section.entry("mastodon") {
            guard let host = instance(entry.value) else {
                throw section.error(entry, "mastodon is your server's host name, such as mastodon.social (an internationalized name in its xn-- form), not '\(entry.value)'")
            }
            settings.mastodonInstance = host
        }
        return settings
    }

    /// A server's host (and port): `mastodon.social`, `https://mastodon.social/` too;
    /// an internationalized name in its ASCII (`xn--`) form. A host is two
    /// or more labels of letters, digits and inner hyphens (63 at most
    /// each) joined by dots; a port is 1–65535.
    static func instance(_ text: String) -> String? {
        var host = Substring(text.trimmingWhitespace())
        if host.lowercased().hasPrefix("https://") { host = host.dropFirst(8) }
        while host.hasSuffix("/") { host = host.dropLast() }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, host.utf8.count <= 253 + 6 else { return nil }
        if parts.count == 2 {
            guard (1...5).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                  let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
        }
        let labels = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }) else { return nil }
        return String(host)
    }
}
