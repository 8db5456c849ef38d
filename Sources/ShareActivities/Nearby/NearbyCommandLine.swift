import ShareCore
import ShareSupport

/// What a user can touch of Nearby from the command line: its options, the
/// request they build and its error codes.
extension NearbyActivity {
    public typealias Request = NearbyRequest

    /// The heading of Nearby's options.
    nonisolated static let group = OptionSpec.Group("Nearby (--activity airDrop)")

    public nonisolated static var options: [OptionSpec] {
        [
            OptionSpec("--bind", value: "ADDR|IFACE", group: group, activity: .airDrop,
                       help: "serve on this address or interface (default: the one with the default route)"),
            OptionSpec("--keep", group: group, activity: .airDrop, help: "keep serving after the first download, until Esc"),
            OptionSpec("--timeout", value: "SECONDS", group: group, activity: .airDrop,
                       help: "give up (failed) when nobody has downloaded within SECONDS"),
        ]
    }

    public nonisolated static var errorCodes: [String] { [ActivityError.Code.noNetwork, ActivityError.Code.serveFailed] }
}

extension ActivityError.Code {
    /// Nearby: no address of this machine to serve on (no default route, or `--bind` names none).
    public static let noNetwork = "no-network"
    /// Nearby: the server could not start, or stopped (too many requests for a wrong link).
    public static let serveFailed = "serve-failed"
}

extension NearbyRequest: ActivityRequest {
    public init() { self.init(bind: nil) }

    /// Nearby's options as given, each value checked.
    public init(arguments: ActivityArguments) throws(UsageError) {
        self.init()
        for value in arguments.values("--bind") {
            guard !value.trimmingWhitespace().isEmpty else { throw UsageError(Localization.text("--bind needs an address or an interface's name")) }
            bind = value
        }
        keep = arguments.has("--keep")
        for value in arguments.values("--timeout") {
            guard let seconds = NearbyRequest.timeout(value) else {
                throw UsageError(Localization.text("--timeout takes whole seconds from 1 to 86400, not '%@'", value))
            }
            timeout = seconds
        }
    }
}
