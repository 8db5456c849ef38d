import FoundationEssentials
import ShareCore
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// Link: the items uploaded to a place of the person's (a paste service,
/// termbin, a WebDAV folder, an rclone remote, an S3 bucket) and the link
/// handed back.
///
/// The place is `--place NAME`, else `[link] default`, else the first
/// `[link.NAME]` section. Text and URLs become one text file; one file
/// goes as itself; several go as one zip, or each on its own where the
/// place gives every file a link (WebDAV, rclone, S3). The upload is read
/// from disk as it is sent. On a terminal the screen shows the progress
/// (Esc stops) and then the link with its QR code until Esc; the result's
/// returned items are the links.
@MainActor
public final class LinkActivity: SystemActivity, LiveActivity, QuestionAsking {
    public nonisolated static var systemType: ActivityType { .link }

    private let settings: LinkSettings
    private let request: LinkRequest
    private let environment: [String: String]
    private let hasTerminal: Bool
    private let title: String?
    /// The place chosen on the question's screen.
    private var chosen: LinkPlace?

    /// Link for the context's `[link]` and `[link.NAME]` sections and command line.
    public init(context: ActivityContext) throws(ConfigurationError) {
        settings = try LinkActivity.settings(context.section("link"), places: context.subsections("link"), environment: context.environment)
        request = context.request(for: LinkActivity.self)
        environment = context.environment
        hasTerminal = context.hasTerminal
        title = context.title
    }

    public var activityImage: ActivityImage { .glyph("🔗") }

    /// Available when a place is configured.
    public var availability: Availability {
        settings.places.isEmpty ? .unavailable("no place configured: add a [link.NAME] section") : .available
    }

    /// The places' names, in file order (what `--place` completes).
    var placeNames: [String] { settings.places.map(\.name) }

    public func prepare(with items: [ShareItem]) async throws {}

    /// With several places, none named by `--place` or `[link] default`,
    /// and a terminal: which one.
    public var questionBeforePerforming: ActivityQuestion? {
        guard hasTerminal, request.place == nil, settings.defaultName == nil, settings.places.count > 1 else { return nil }
        return ActivityQuestion(title: localizedActivityTitle, heading: Localization.text("Upload to"),
                                none: Localization.text("no place matches"), options: settings.places.map(LinkActivity.describe))
    }

    public func answer(_ index: Int) {
        if settings.places.indices.contains(index) { chosen = settings.places[index] }
    }

    /// A place as the question lists it: its name and where it is
    /// (`paste · https://0x0.st/`, `s3 · https://s3.example.com/bucket`).
    static func describe(_ place: LinkPlace) -> String {
        let whereTo: String = switch place.kind {
        case .paste, .webdav: place.url ?? ""
        case .termbin: "\(place.host ?? ""):\(place.port ?? 0)"
        case .rclone: place.remote ?? ""
        case .s3: "\(place.endpoint ?? "")/\(place.bucket ?? "")"
        }
        return "\(place.name) · \(place.kind.rawValue) · \(whereTo)"
    }

    public func perform(_ session: ActivitySession, display: LiveDisplay) async {
        let place: LinkPlace
        do throws(LinkFailure) { place = try chosenPlace() } catch {
            session.fail(error.activityError)
            return
        }
        let heading = localizedActivityTitle
        let items = session.items
        let name = LinkPayload.baseName(subject: session.subject ?? title)
        let environment = self.environment, hasTerminal = self.hasTerminal, settings = self.settings
        let shipment = LinkShipment(place: place, settings: settings, environment: environment, display: display, heading: heading,
                                    showsNews: hasTerminal)
        let work = Task.detached { shipment.send(items, baseName: name) }
        let outcome = await withTaskCancellationHandler { await work.value } onCancel: { display.cancel() }
        switch outcome {
        case .success(let delivery):
            let place = delivery.place, failed = delivery.failed, links = delivery.files.map(\.link)
            var summary = Localization.text("Uploaded to %@: %@", place.name, links.map(\.absoluteString).joined(separator: " "))
            if !failed.isEmpty { summary += " " + Localization.text("(after %@ failed)", failed.map { String($0.prefix { $0 != ":" }) }.joined(separator: ", ")) }
            if hasTerminal && !display.isCancelled {
                display.show(LiveStatus(title: heading, instruction: Localization.text("Uploaded to %@. Esc closes.", place.name)
                                            + (failed.isEmpty ? "" : " " + Localization.text("(after %@ failed)", failed.joined(separator: "; "))),
                                        offers: links.map { LiveStatus.Offer(heading: place.name, text: $0.absoluteString, code: $0.absoluteString,
                                                                             isLink: true) }, isDone: true))
                await display.cancellation()
            }
            // `share --undo` deletes each upload where the place allows, reading the place again from the config file.
            let undo = delivery.files.map { LinkUndo.action(for: $0.leftover, name: $0.name, link: $0.link, place: place, config: settings.configFile) }
            session.finish(.performed, returnedItems: links.map(ShareItem.url), warnings: failed.map { "tried first: " + $0 },
                           undo: undo, summary: summary)
        case .failure(let failure):
            if failure.stopped {
                session.finish(.cancelled, error: ActivityError(code: ActivityError.Code.cancelled,
                                                                message: "the upload to \(place.name) was stopped; no link was made"))
            } else {
                session.fail(failure.activityError)
            }
        }
    }

    /// `--place`'s place, else the default one.
    func chosenPlace() throws(LinkFailure) -> LinkPlace {
        let known = placeNames.joined(separator: ", ")
        if let name = request.place {
            guard let place = settings.place(name) else {
                throw LinkFailure(code: ActivityError.Code.noPlace, settings.places.isEmpty
                    ? "no place called \(name): no place is configured (add a [link.NAME] section)"
                    : "no place called \(name): the places are \(known)")
            }
            return place
        }
        if let chosen { return chosen }
        guard let place = settings.defaultPlace else {
            throw LinkFailure(code: ActivityError.Code.noPlace, "no place configured: add a [link.NAME] section")
        }
        return place
    }
}

/// Why an upload gave no link, with the result's error code.
struct LinkFailure: Error, Sendable {
    var code: String
    var message: String
    /// The person asked to stop.
    var stopped = false

    init(code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    static let stop: LinkFailure = {
        var failure = LinkFailure(code: ActivityError.Code.cancelled, "stopped")
        failure.stopped = true
        return failure
    }()

    var activityError: ActivityError { ActivityError(code: code, message: message) }
}
