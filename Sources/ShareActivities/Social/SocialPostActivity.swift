import FoundationEssentials
import ShareCore
import ShareSupport

/// A post to a social service, in one of two ways:
///
/// - **Directly**, when `[social.SERVICE]` holds an account: the form (the
///   post or a title and description, the pictures or videos, their alt
///   text), then the service's API takes the post; the outcome is `sent`
///   with the post's address as the returned item. Uploads show their
///   progress, and Esc stops them.
/// - **Through its share link** otherwise: the form, then the link, which
///   the front end opens in a browser or shows with a QR code to finish on
///   a phone. The post itself happens in the service's composer, so the
///   outcome is `performed` with the link as the returned item, never
///   `sent`. A link carries no local image; Facebook's takes one URL.
///
/// What a way cannot carry is shown in the form; a share with nothing it
/// can carry is `unsupported-items` with the reason.
@MainActor
public final class SocialPostActivity: FormCounting, SubjectReceiving, MetadataReceiving, ActivityExplaining {
    /// The service.
    public let service: SocialService
    private let settings: SocialSettings
    private var items: [ShareItem] = []
    public var offeredSubject: String?
    public var offeredMetadata: [LinkMetadata] = []
    /// The most the post may count: the service's, or the Mastodon server's own.
    private var limit: Int?
    /// Made once per form, at its first try: the tries of one post share
    /// Mastodon's idempotency key through it. Not at start-up, where each
    /// service's activity would read /dev/urandom before the first paint.
    private lazy var formIdentity = UUID().uuidString
    /// How many bytes each of Vimeo's PATCH requests carries.
    var vimeoChunkSize = VimeoPoster.defaultChunkSize

    /// The activity for `service`, as `settings` configure it.
    public init(service: SocialService, settings: SocialSettings) {
        self.service = service
        self.settings = settings
        limit = service.limit
    }

    /// One activity per service, from the context's `[social]` and `[social.SERVICE]` sections.
    public static func all(context: ActivityContext) throws(ConfigurationError) -> [SocialPostActivity] {
        let settings = try SocialSettings.read(context.section("social"), accounts: context.subsections("social"),
                                               environment: context.environment)
        return SocialService.allCases.map { SocialPostActivity(service: $0, settings: settings) }
    }

    /// The account that posts directly, when one is configured.
    var account: SocialAccount? { settings.accounts[service] }

    public var explanation: String {
        guard let account else { return "through its share link; [social.\(service.rawValue)] would post directly" }
        switch account.credentials {
        case .appPassword(let handle, _): return "directly through its API as \(handle)"
        default: return "directly through its API with the account of [social.\(service.rawValue)]"
        }
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
        if !service.hasShareLink && account == nil {
            return .unavailable("\(service.name) has no share link: posting needs your account in a [social.\(service.rawValue)] section (README: Social posts)")
        }
        return .available
    }

    // MARK: - What the link carries

    /// The words for an item the post cannot carry, or `nil` when it can.
    func leftOut(_ item: ShareItem) -> String? {
        if account != nil { return SocialPostActivity.leftOutDirectly(item, by: service) }
        return switch item {
        case .image, .file:
            "a local image cannot go through a share link; " + service.directHint
        case .text where service.carrying == .only:
            "\(service.name)'s share link takes one URL and no text; write the words on \(service.name)"
        case .url(let url) where service.carrying == .only && !url.isWebAddress:
            "\(service.name)'s share link takes a web address (http or https)"
        case .text, .url:
            nil
        }
    }

    /// What a direct post cannot carry: Vimeo takes videos only, Flickr and
    /// Vimeo put the words in the description of their media.
    static func leftOutDirectly(_ item: ShareItem, by service: SocialService) -> String? {
        return switch (service, item) {
        case (.vimeo, .image(let file)), (.vimeo, .file(let file)):
            file.contentType.lowercased().hasPrefix("video/") ? nil : "Vimeo takes videos (video/*), and this is \(file.contentType)"
        case (_, .file(let file)):
            "\(service.name) takes pictures here, and this is \(file.contentType)"
        default:
            nil
        }
    }

    public func refusal(of items: [ShareItem]) -> String? {
        if account != nil {
            let media = items.contains { item in
                switch item {
                case .image, .file: leftOut(item) == nil
                case .text, .url: false
                }
            }
            switch service {
            case .vimeo where !media: return "Vimeo takes videos (files of a video/* type); this share has none"
            case .flickr where !media: return "Flickr takes photos; this share has none"
            default: return items.contains { leftOut($0) == nil } ? nil : "\(service.name) cannot take any of these items"
            }
        }
        // A service with no link at all is unavailable without an account, whatever the items.
        guard service.hasShareLink, !items.contains(where: { leftOut($0) == nil }) else { return nil }
        let local = items.contains { item in
            switch item {
            case .image, .file: true
            case .text, .url: false
            }
        }
        if service.carrying == .only && !local { return "\(service.name)'s share link takes one web address (http or https); this share has none" }
        return "a local image cannot go through \(service.name)'s share link; " + service.directHint
    }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
        // Mastodon servers set their own limit: asked before the form counts against it.
        if service == .mastodon, let account, let host = settings.mastodonInstance {
            let api = SocialAPI(account: account, display: LiveDisplay { _ in })
            if let own = await Task.detached(operation: { MastodonPoster(api: api, host: host).characterLimit() }).value { limit = own }
        }
    }

    /// The pictures and videos a direct post takes, in order.
    private var media: [FileItem] {
        guard account != nil else { return [] }
        return items.compactMap { item in
            switch item {
            case .image(let file), .file(let file): leftOut(item) == nil ? file : nil
            case .text, .url: nil
            }
        }
    }

    /// Whether the service takes a title and a description (Flickr, Vimeo), not a post.
    private var describes: Bool { service == .flickr || service == .vimeo }

    /// The field of a direct post's words, and what it starts with.
    private var wordsField: String { describes ? "description" : "post" }
    private func firstWords() -> String { describes ? descriptionText() : initialText() }

    /// A media file's first alt text: the title of the item source that gave it.
    private func alt(for file: FileItem) -> String {
        if let url = file.path, let title = offeredMetadata.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL })?.title {
            return title
        }
        let titled = offeredMetadata.compactMap(\.title)
        return media.count == 1 && titled.count == 1 ? titled[0] : ""
    }

    /// The shared URLs (in order): web links, pictures (image URLs, for
    /// Weibo), and other addresses (`mailto:`, `tel:`), which are no links
    /// to share and go in the text as written.
    private var urls: (links: [String], pictures: [String], others: [String]) {
        var links: [String] = [], pictures: [String] = [], others: [String] = []
        for case .url(let url) in items {
            if !url.isWebAddress {
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
        switch account == nil ? service.carrying : .inText {
        case .inText: lines += links + others
        case .parameter: lines += links.dropFirst() + others
        case .only: break
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The form

    static let post = FormAction(id: "post", label: Localization.text("Post"), progress: Localization.text("Opening…"))
    static let postDirectly = FormAction(id: "post", label: Localization.text("Post"), progress: Localization.text("Posting…"), stoppable: true)

    public func makeForm() -> ActivityForm? {
        guard account == nil else { return directForm() }
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

    /// The form of a direct post: the post (or a title and description),
    /// the media with their alt text, and what is left out.
    private func directForm() -> ActivityForm {
        var fields: [FormField] = []
        if describes {
            let subject = offeredSubject?.trimmingWhitespace(includingNewlines: true) ?? ""
            let title = subject.isEmpty ? media.lazy.map { self.alt(for: $0) }.first { !$0.isEmpty } ?? "" : subject
            fields.append(FormField(id: "title", label: Localization.text("Title"), kind: .text, initialValue: title))
        }
        let files = media
        if !files.isEmpty {
            let label = service == .vimeo ? (files.count == 1 ? Localization.text("Video") : Localization.text("Videos"))
                : (files.count == 1 ? Localization.text("Picture") : Localization.text("Pictures"))
            fields.append(FormField(id: "media", label: label, kind: .preview,
                                    initialValue: files.map { "\($0.name) (\(ByteCount.words($0.size)))" }.joined(separator: "  ")))
        }
        if service == .mastodon || service == .bluesky {
            for (index, file) in files.enumerated() {
                var alt = FormField(id: "alt-\(index)", label: Localization.text("Alt text for %@", file.name), kind: .text, initialValue: alt(for: file))
                alt.placeholder = Localization.text("What the picture shows, for those who cannot see it")
                fields.append(alt)
            }
        }
        let left = items.compactMap { item -> String? in
            guard let why = leftOut(item) else { return nil }
            return "\(name(of: item)): \(why)"
        }
        if !left.isEmpty {
            fields.append(FormField(id: "left-out", label: Localization.text("Left out"), kind: .preview, initialValue: left.joined(separator: "; ")))
        }
        var words = FormField(id: wordsField, label: describes ? Localization.text("Description") : Localization.text("Post"),
                              kind: .multilineText, initialValue: firstWords())
        words.placeholder = describes ? Localization.text("Say something about it") : Localization.text("Write your post here")
        fields.append(words)
        return ActivityForm(title: Localization.text("Post to %@", service.name), fields: fields, actions: [SocialPostActivity.postDirectly])
    }

    /// The first description (Flickr, Vimeo): the text items and the URLs, a line each.
    private func descriptionText() -> String {
        var lines: [String] = []
        for item in items {
            switch item {
            case .text(let text) where !lines.contains(text): lines.append(text)
            case .url(let url): lines.append(url.absoluteString)
            default: break
            }
        }
        return lines.joined(separator: "\n")
    }

    private func name(of item: ShareItem) -> String {
        switch item {
        case .text(let text): "“" + String(text.prefix(20)) + (text.count > 20 ? "…" : "") + "”"
        case .url(let url): url.absoluteString
        case .image(let file), .file(let file): file.name
        }
    }

    public func count(in field: FormField, value: String) -> FieldCount? {
        guard field.id == "post", let limit else { return nil }
        // X counts the link beside the post as 23 whichever it is.
        let link = account == nil && service.carrying == .parameter ? urls.links.first : nil
        return FieldCount(used: service.count(text: value.trimmingWhitespace(includingNewlines: true), link: link), limit: limit)
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        if let account { return await performDirectly(session, account: account) }
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
        if let limit {
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

    /// Posts through the service's API with `account`, showing the
    /// uploads on the session's display; `sent` with the post's address.
    private func performDirectly(_ session: ActivitySession, account: SocialAccount) async {
        let values = session.formValues
        let text = (values[wordsField] ?? firstWords())
            .trimmingWhitespace(includingNewlines: true)
        if !describes, let limit {
            let used = service.count(text: text, link: nil)
            guard used <= limit else {
                session.fail(ActivityError(code: ActivityError.Code.invalidInput,
                                           message: "the post counts \(used) of \(service.name)'s \(limit): shorten it by \(used - limit)"))
                return
            }
        }
        let files = media.enumerated().map { index, file in
            SocialMedia(file, alt: (values["alt-\(index)"] ?? alt(for: file)).trimmingWhitespace(includingNewlines: true))
        }
        guard !text.isEmpty || !files.isEmpty else {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput, message: "nothing to post: write something first"))
            return
        }
        let api = SocialAPI(account: account, display: session.display)
        let key = SHA256.hex(Array(([formIdentity, text] + files.map { "\($0.name)\t\($0.size)\t\($0.alt ?? "")" }).joined(separator: "\n").utf8))
        let service = service, host = settings.mastodonInstance ?? ""
        let title = (values["title"] ?? "").trimmingWhitespace(includingNewlines: true), chunkSize = vimeoChunkSize
        let display = session.display
        let work = Task.detached { () -> Result<URL, SocialFailure> in
            do throws(SocialFailure) {
                switch service {
                case .mastodon: return .success(try MastodonPoster(api: api, host: host).post(text: text, media: files, key: key))
                case .bluesky: return .success(try BlueskyPoster(api: api).post(text: text, media: files))
                case .twitter: return .success(try XPoster(api: api).post(text: text, media: files))
                case .flickr: return .success(try FlickrPoster(api: api).post(title: title, description: text, media: files))
                case .vimeo: return .success(try VimeoPoster(api: api, chunkSize: chunkSize).post(title: title, description: text, media: files))
                default: return .failure(SocialFailure("\(service.name) takes no direct posts"))
                }
            } catch {
                return .failure(error)
            }
        }
        // A share that is itself cancelled (the front end going away) stops the upload as Esc would.
        let posted = await withTaskCancellationHandler { await work.value } onCancel: { display.cancel() }
        switch posted {
        case .success(let address):
            session.finish(.sent, returnedItems: [.url(address)], summary: Localization.text("Posted %@", address.absoluteString))
        case .failure(let failure):
            let said = (failure.cancelled ? "stopped" : failure.message) + (failure.note.map { "; " + $0 } ?? "")
            if !failure.posted.isEmpty {
                // Some of it is posted: that stands, and the rest is told.
                session.finish(.sent, returnedItems: failure.posted.map(ShareItem.url),
                               warnings: [said + (failure.cancelled ? "; the rest was not posted" : "")])
            } else if failure.cancelled {
                session.finish(.cancelled, error: ActivityError(code: ActivityError.Code.cancelled, message: said + "; nothing was posted"))
            } else {
                session.fail(ActivityError(code: failure.code, message: said))
            }
        }
    }
}

extension SocialPostActivity {
    /// The error codes a post may end with, beyond the share sheet's.
    public nonisolated static var errorCodes: [String] {
        [ActivityError.Code.unauthorized, ActivityError.Code.rateLimited, ActivityError.Code.mediaRejected]
    }
}

extension ActivityError.Code {
    /// A service refused the account's credentials (HTTP 401 or 403).
    public static let unauthorized = "unauthorized"

    /// A service's rate limit is reached (HTTP 429); the message says when to try again.
    public static let rateLimited = "rate-limited"

    /// A service refused a picture or video (its type, size or content).
    public static let mediaRejected = "media-rejected"
}
