import FoundationEssentials
import ShareSupport

/// The web share links ("intents") of the services: each opens the
/// service's own composer, filled in with what the link carries.
///
/// One function per service, each building its link from exactly the
/// fields the service reads; values are percent-encoded byte by byte
/// (UTF-8), everything but RFC 3986's unreserved characters, so `&`, `#`,
/// `+`, `=`, newlines, Korean and emoji arrive as typed.
public enum ShareLink {
    /// X's composer: `https://x.com/intent/tweet?text=…&url=…` (either may be absent).
    public static func x(text: String, url: String?) -> URL? {
        link("https://x.com/intent/tweet", [("text", text), ("url", url)])
    }

    /// Facebook's sharer: one URL, nothing else (`https://www.facebook.com/sharer.php?u=…`).
    public static func facebook(url: String) -> URL? {
        link("https://www.facebook.com/sharer.php", [("u", url)])
    }

    /// Weibo's share page: the link, the post's words (`title`), and
    /// pictures by their URLs (`pic`, several joined by `||`).
    public static func weibo(url: String?, title: String, pictures: [String]) -> URL? {
        link("https://service.weibo.com/share/share.php", [("url", url), ("title", title), ("pic", pictures.joined(separator: "||"))])
    }

    /// A Mastodon server's share page: `https://INSTANCE/share?text=…`.
    /// `instance` is a host name (with a port, if any), checked by the
    /// config; `nil` when it does not make a URL.
    public static func mastodon(instance: String, text: String) -> URL? {
        link("https://\(instance)/share", [("text", text)])
    }

    /// Bluesky's composer: `https://bsky.app/intent/compose?text=…`.
    public static func bluesky(text: String) -> URL? {
        link("https://bsky.app/intent/compose", [("text", text)])
    }

    /// `base` with a query of the pairs that have a non-empty value, in order.
    static func link(_ base: String, _ pairs: [(String, String?)]) -> URL? {
        let query = pairs.compactMap { name, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return name + "=" + PercentEncoding.encoded(value)
        }.joined(separator: "&")
        let text = query.isEmpty ? base : base + "?" + query
        // Only unreserved characters and %XX are added to the base.
        guard let url = URL(string: text), url.host != nil else { return nil }
        return url
    }

    /// `value` as UTF-8, every byte but A–Z a–z 0–9 `-` `.` `_` `~` as %XX:
    /// ``PercentEncoding/encoded(_:keeping:)`` with its default set.
    public static func encoded(_ value: String) -> String { PercentEncoding.encoded(value) }
}
