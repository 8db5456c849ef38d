import FoundationEssentials
import ShareCore

/// A post to a social service through its web share link: a form (the
/// post, counted against the service's limit), then the link, which the
/// front end opens in a browser or shows with a QR code to finish on a
/// phone. The post itself happens in the service's composer, so the
/// outcome is `performed` with the link as the returned item, never `sent`.
///
/// A service gets only what its link can carry: Facebook's takes one URL;
/// no link takes a local image (direct posting will). What is left out is
/// shown in the form; a share with nothing the link can carry is
/// `unsupported-items` with the reason.
@MainActor
public final class SocialPostActivity: ItemNarrowing, FormCounting, SubjectReceiving {
    /// The service.
    public let service: SocialService
    private let settings: SocialSettings
    private var items: [ShareItem] = []
    public var offeredSubject: String?

    /// The activity for `service`, as `settings` configure it.
    public init(service: SocialService, settings: SocialSettings) {
        self.service = service
        self.settings = settings
    }

    /// One activity per service, from the context's `[social]` section.
    public static func all(context: ActivityContext) throws(ConfigurationError) -> [SocialPostActivity] {
        let settings = try SocialSettings.read(context.section("social"))
        return SocialService.allCases.map { SocialPostActivity(service: $0, settings: settings) }
    }

    public var activityType: ActivityType { service.type }
    public var activityTitle: String { SupportTable.row(service.type).title }
    public var localizedActivityTitle: String { Localization.text(activityTitle) }
    public var activityCategory: ActivityCategory { .share }
    public var supportedKinds: Set<ItemKind> { SupportTable.row(service.type).kinds }
    public var activityImage: ActivityImage {
        switch service {
        case .twitter: .glyph("𝕏")
        case .mastodon: .glyph("🐘")
        case .bluesky: .glyph("🦋")
        default: .glyph("✎")
        }
    }

    public var availability: Availability {
        if let never = service.permanentlyUnavailable { return .unavailable(never) }
        guard settings.enabled.contains(service) else {
            return .unavailable("not enabled: add \(service.rawValue) to enabled in the [social] section of the config file")
        }
        if service == .mastodon && settings.mastodonInstance == nil {
            return .unavailable("no Mastodon server: set mastodon = HOST (such as mastodon.social) in the [social] section of the config file")
        }
        return .available
    }

    // MARK: - What the link carries

    /// The words for an item the link cannot carry, or `nil` when it can.
    func leftOut(_ item: ShareItem) -> String? {
        switch item {
        case .image, .file:
            "a local image cannot go through a share link; posting it needs \(service.name)'s API (direct posting, not built yet)"
        case .text where service.carrying == .only:
            "\(service.name)'s share link takes one URL and no text; write the words on \(service.name)"
        case .url(let url) where service.carrying == .only && !SocialService.isWeb(url):
            "\(service.name)'s share link takes a web address (http or https)"
        case .text, .url:
            nil
        }
    }

    public func refusal(of items: [ShareItem]) -> String? {
        // A service with no link at all is unavailable, whatever the items.
        guard service.permanentlyUnavailable == nil, !items.contains(where: { leftOut($0) == nil }) else { return nil }
        let local = items.contains { item in
            switch item {
            case .image, .file: true
            case .text, .url: false
            }
        }
        if service.carrying == .only && !local { return "\(service.name)'s share link takes one web address (http or https); this share has none" }
        return "a local image cannot go through \(service.name)'s share link; posting images needs the service's API (direct posting, not built yet)"
    }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    /// The shared URLs (in order): web links, pictures (image URLs, for
    /// Weibo), and other addresses (`mailto:`, `tel:`), which are no links
    /// to share and go in the text as written.
    private var urls: (links: [String], pictures: [String], others: [String]) {
        var links: [String] = [], pictures: [String] = [], others: [String] = []
        for case .url(let url) in items {
            if !SocialService.isWeb(url) {
                others.append(url.absoluteString)
            } else if service == .weibo && SocialService.isImageURL(url) {
                pictures.append(url.absoluteString)
            } else {
                links.append(url.absoluteString)
            }
        }
        return (links, pictures, others)
    }

    /// The post's first text: the subject, the text items, and the URLs the
    /// link does not carry on their own, a line each.
    func initialText() -> String {
        var lines: [String] = []
        if let subject = offeredSubject?.trimmingWhitespace(includingNewlines: true), !subject.isEmpty { lines.append(subject) }
        for case .text(let text) in items where !lines.contains(text) { lines.append(text) }
        let (links, _, others) = urls
        switch service.carrying {
        case .inText: lines += links + others
        case .parameter: lines += links.dropFirst() + others
        case .only: break
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The form

    static let post = FormAction(id: "post", label: Localization.text("Post"), progress: Localization.text("Opening…"))

    public func makeForm() -> ActivityForm? {
        var fields: [FormField] = []
        let (links, pictures, _) = urls
        switch service.carrying {
        case .only where !links.isEmpty:
            // The one URL the link carries: the person picks which.
            fields.append(FormField(id: "link", label: Localization.text("Link"), kind: .choice(links), initialValue: links[0]))
        case .parameter where !links.isEmpty:
            // The first URL goes beside the post; the others are in its text.
            fields.append(FormField(id: "link", label: Localization.text("Link"), kind: .preview, initialValue: links[0]))
        default:
            break
        }
        if !pictures.isEmpty {
            fields.append(FormField(id: "picture", label: pictures.count == 1 ? Localization.text("Picture") : Localization.text("Pictures"),
                                    kind: .preview,
                                    initialValue: pictures.joined(separator: "  ")))
        }
        let left = items.compactMap { item -> String? in
            guard let why = leftOut(item) else { return nil }
            return "\(name(of: item)): \(why)"
        }
        if !left.isEmpty {
            fields.append(FormField(id: "left-out", label: Localization.text("Left out"), kind: .preview, initialValue: left.joined(separator: "; ")))
        }
        if service.carrying != .only {
            var post = FormField(id: "post", label: Localization.text("Post"), kind: .multilineText, initialValue: initialText())
            post.placeholder = Localization.text("Write your post here")
            fields.append(post)
        }
        return ActivityForm(title: Localization.text("Post to %@", service.name), fields: fields, actions: [SocialPostActivity.post])
    }

    private func name(of item: ShareItem) -> String {
        switch item {
        case .text(let text): "“" + String(text.prefix(20)) + (text.count > 20 ? "…" : "") + "”"
        case .url(let url): url.absoluteString
        case .image(let file), .file(let file): file.name
        }
    }

    public func count(in field: FormField, value: String) -> FieldCount? {
        guard field.id == "post", let limit = service.limit else { return nil }
        // X counts the link beside the post as 23 whichever it is.
        let link = service.carrying == .parameter ? urls.links.first : nil
        return FieldCount(used: service.count(text: value.trimmingWhitespace(includingNewlines: true), link: link), limit: limit)
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        let values = session.formValues
        let text = (values["post"] ?? initialText()).trimmingWhitespace(includingNewlines: true)
        let (links, pictures, _) = urls
        let link: String? = switch service.carrying {
        case .only: values["link"].flatMap { links.contains($0) ? $0 : nil } ?? links.first
        case .parameter: links.first
        case .inText: nil
        }
        if service.carrying == .only && link == nil {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput, message: "\(service.name)'s share link takes one web address (http or https); this share has none"))
            return
        }
        if let limit = service.limit {
            let used = service.count(text: text, link: service.carrying == .parameter ? link : nil)
            guard used <= limit else {
                session.fail(ActivityError(code: ActivityError.Code.invalidInput,
                                           message: "the post counts \(used) of \(service.name)'s \(limit): shorten it by \(used - limit)"))
                return
            }
        }
        guard !text.isEmpty || link != nil || !pictures.isEmpty else {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput, message: "nothing to post: write something first"))
            return
        }
        guard let shareLink = service.shareLink(text: text, link: link, pictures: pictures, instance: settings.mastodonInstance) else {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput,
                                       message: "no share link can be made for the Mastodon server '\(settings.mastodonInstance ?? "")': check mastodon in the [social] section of the config file"))
            return
        }
        session.finish(.performed, returnedItems: [.url(shareLink)], linkToOpen: shareLink)
    }
}
