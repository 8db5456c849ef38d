import ShareCore
import ShareSupport

/// What a user can touch of Link from the command line: `--place`, the
/// places a shell completes, and its error codes.
extension LinkActivity {
    public typealias Request = LinkRequest

    /// The heading of Link's options.
    nonisolated static let group = OptionSpec.Group("Link (--activity link)")

    public nonisolated static var options: [OptionSpec] {
        [
            OptionSpec("--place", value: "NAME", group: group, activity: .link, alsoFor: [.mail],
                       help: "upload to this [link.NAME] place (else [link] default; with several, asked on a terminal); with --links, Mail's",
                       values: .completed("places")),
        ]
    }

    public nonisolated static var completions: [ActivityCompletion] {
        [.of(LinkActivity.self, "places") { link, _ in link.placeNames }]
    }

    public nonisolated static var errorCodes: [String] {
        [ActivityError.Code.noPlace, ActivityError.Code.placeUnreachable, ActivityError.Code.uploadRefused,
         ActivityError.Code.uploadFailed, ActivityError.Code.noLink]
    }
}

/// What the command line asks of Link: the place to upload to.
public struct LinkRequest: ActivityRequest, Sendable, Equatable {
    /// `--place NAME`, the last one counting.
    public var place: String?

    public init() {}

    public init(arguments: ActivityArguments) throws(UsageError) {
        place = arguments.values("--place").last
        if let place, place.isEmpty || place.contains(where: { $0 == " " || $0 == "," || $0 == "/" }) {
            throw UsageError(Localization.text("--place: '%@' is not a place's name (the NAME of a [link.NAME] section)", place))
        }
    }
}

extension ActivityError.Code {
    /// Link: no `[link.NAME]` section, or `--place` names none.
    public static let noPlace = "no-place"
    /// Link: the place could not be reached (no such host, connection refused, TLS).
    public static let placeUnreachable = "place-unreachable"
    /// Link: the place refused the upload (HTTP 4xx, with the server's words).
    public static let uploadRefused = "upload-refused"
    /// Link: the place failed (HTTP 5xx, rclone failed, the connection dropped).
    public static let uploadFailed = "upload-failed"
    /// Link: the place took the upload, and its answer holds no link.
    public static let noLink = "no-link"
}
