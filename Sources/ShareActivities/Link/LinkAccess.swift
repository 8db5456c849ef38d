import ShareCore
import ShareSupport

/// Link's places as another activity reaches them (Mail's and Message's
/// files too big for their servers): the `[link]` sections read, and a
/// problem in them kept for when a place is needed, so that the activity
/// itself works without them.
struct LinkAccess: Sendable {
    /// Link's places; none when no `[link.NAME]` section is written.
    var settings = LinkSettings()
    /// Why Link's sections cannot be used, when they cannot.
    var problem: String?
    /// The place `--place` names, if any.
    var placeName: String?
    var environment: [String: String] = [:]

    /// Link's sections of `context`.
    init(context: ActivityContext, placeName: String?) {
        self.placeName = placeName
        environment = context.environment
        do {
            settings = try LinkActivity.settings(context.section("link"), places: context.subsections("link"), environment: context.environment)
        } catch {
            problem = error.message
        }
    }

    init() {}

    /// Whether a place is there to take the files.
    var canSend: Bool { problem == nil && !settings.places.isEmpty }

    /// The place the files go to: `--place`'s, else Link's default.
    func place() throws(LinkFailure) -> LinkPlace {
        if let problem { throw LinkFailure(code: ActivityError.Code.configuration, problem) }
        if let placeName {
            guard let place = settings.place(placeName) else {
                throw LinkFailure(code: ActivityError.Code.noPlace, "no place called \(placeName): "
                                  + (settings.places.isEmpty ? "add a [link.NAME] section" : "the places are \(settings.places.map(\.name).joined(separator: ", "))"))
            }
            return place
        }
        guard let place = settings.defaultPlace else {
            throw LinkFailure(code: ActivityError.Code.noPlace, "sending files as links needs a place to upload them to: add a [link.NAME] section")
        }
        return place
    }

    /// The shipment through the place (and `[link] fallback`'s) that shows
    /// its progress on `display` under `heading`.
    func shipment(display: LiveDisplay, heading: String, showsNews: Bool) throws(LinkFailure) -> LinkShipment {
        LinkShipment(place: try place(), settings: settings, environment: environment, display: display, heading: heading, showsNews: showsNews)
    }
}
