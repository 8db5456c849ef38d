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
            OptionSpec("--device", value: "NAME|ADDR[:PORT]", group: group, activity: .airDrop,
                       help: "send to this LocalSend device without a screen: its name (any case) or its address", values: .completed("devices")),
            OptionSpec("--pin", value: "PIN", group: group, activity: .airDrop,
                       help: "the PIN the LocalSend device asks for (else $SHARE_PIN, which ps does not show)",
                       manual: "the PIN the LocalSend device asks for, with --device or for a device picked on the screen; "
                           + "the environment's SHARE_PIN gives it without putting it on the command line, where ps shows it to every user "
                           + "(--pin wins when both are given)"),
        ]
    }

    public nonisolated static var modes: [ActivityMode] {
        [.of(NearbyActivity.self, OptionSpec("--list-devices", group: group,
                                             help: "list the LocalSend devices that answer within [nearby] discovery-timeout (with --json: JSON)")) { nearby, output in
            .exit(nearby.listDevices(output))
        }]
    }

    public nonisolated static var completions: [ActivityCompletion] {
        [.of(NearbyActivity.self, "devices") { nearby, _ in nearby.discoverDevices().map(\.alias) }]
    }

    public nonisolated static var errorCodes: [String] {
        [ActivityError.Code.noNetwork, ActivityError.Code.serveFailed, ActivityError.Code.noDevice, ActivityError.Code.pinRequired,
         ActivityError.Code.declined, ActivityError.Code.busy]
    }
}

extension ActivityError.Code {
    /// Nearby: no address of this machine to serve on (no default route, or `--bind` names none).
    public static let noNetwork = "no-network"
    /// Nearby: the server could not start, or stopped (too many requests for a wrong link).
    public static let serveFailed = "serve-failed"
    /// Nearby: no LocalSend device of that name or address answered.
    public static let noDevice = "no-device"
    /// Nearby: the LocalSend device asks for a PIN, and none or a wrong one was given.
    public static let pinRequired = "pin-required"
    /// Nearby: the person at the LocalSend device declined the items.
    public static let declined = "declined"
    /// Nearby: the LocalSend device is busy with another transfer.
    public static let busy = "busy"
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
        for value in arguments.values("--device") {
            guard !value.trimmingWhitespace().isEmpty else { throw UsageError(Localization.text("--device needs a device's name or address")) }
            device = value.trimmingWhitespace()
        }
        for value in arguments.values("--pin") {
            guard !value.isEmpty, value.allSatisfy({ !$0.isNewline && $0 != "\0" }) else {
                throw UsageError(Localization.text("--pin needs the PIN the device shows"))
            }
            pin = value
        }
        for value in arguments.values("--timeout") {
            guard let seconds = NearbyRequest.timeout(value) else {
                throw UsageError(Localization.text("--timeout takes whole seconds from 1 to 86400, not '%@'", value))
            }
            timeout = seconds
        }
    }
}
