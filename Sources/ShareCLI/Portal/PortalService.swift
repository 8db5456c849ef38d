import CPortal
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// `share-portal`: the desktop's Email portal backend
/// (`org.freedesktop.impl.portal.Email`, SPEC §9 and README "Use it
/// from…"). xdg-desktop-portal passes each application's ComposeEmail on;
/// every request opens share's compose screen in a terminal of its own
/// (`[portal] terminal`), and is answered when that screen ends: 0 when
/// the mail went (or waits in the outbox), 1 when it was cancelled or
/// kept as a draft, 2 otherwise.
///
/// It is the `share` binary started by the name `share-portal` (a link),
/// as D-Bus starts it on the first request; it leaves after two minutes
/// with nothing to answer.
public enum PortalService {
    /// The bus name of the `.portal` file and the D-Bus service file.
    static let busName = "org.freedesktop.impl.portal.desktop.share"
    /// Seconds with no request open before the service leaves.
    static let idleSeconds = 120.0

    static let usage = """
        usage: share-portal [--help | --version]
        The desktop's Email portal backend: xdg-desktop-portal starts it by D-Bus
        (org.freedesktop.impl.portal.desktop.share); each request opens share's
        compose screen in the terminal of [portal] terminal (x-terminal-emulator -e).

        """

    /// Runs share-portal with `arguments` (without the program name) and exits.
    @MainActor public static func exitAfterRunning(arguments: [String], console: Console) -> Never {
        Localization.followEnvironment()
        exit(run(arguments, console: console))
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        switch arguments {
        case []: break
        case ["--help"], ["-h"]: console.output(usage); return ExitCode.completed
        case ["--version"]: console.output("share-portal" + HelpText.version.dropFirst("share".count) + "\n"); return ExitCode.completed
        default: console.error("share-portal: unknown argument '\(arguments[0])'\n" + usage); return ExitCode.usage
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.load(explicitPath: nil, locations: Locations(environment: console.environment),
                                                   environment: console.environment)
        } catch {
            console.error("share-portal: \(error.message)\n")
            return ExitCode.usage
        }
        var reason = [CChar](repeating: 0, count: 512)
        guard share_portal_open(busName, &reason, reason.count) == 0 else {
            console.error("share-portal: " + PortalError.text(reason) + "\n")
            return ExitCode.failed
        }
        let composer = PortalComposer(terminal: configuration.portalTerminal, environment: console.environment, log: console.error)
        let open = Atomic<Int>(0)
        var idleSince = PortalComposer.now()
        while true {
            var request = share_portal_request()
            let next = share_portal_next(&request, 1000, &reason, reason.count)
            if next < 0 {
                console.error("share-portal: " + PortalError.text(reason) + "\n")
                return ExitCode.failed
            }
            if next == 1 {
                let call = PortalCall(request)
                share_portal_request_free(&request)
                open.add(1, ordering: .sequentiallyConsistent)
                let started = BackgroundThread.start {
                    share_portal_reply(call.id, composer.compose(call).rawValue)
                    open.subtract(1, ordering: .sequentiallyConsistent)
                }
                if !started {
                    console.error("share-portal: cannot start a thread for the request of \(call.applicationName)\n")
                    share_portal_reply(call.id, PortalResponse.other.rawValue)
                    open.subtract(1, ordering: .sequentiallyConsistent)
                }
            }
            if open.load(ordering: .sequentiallyConsistent) > 0 || share_portal_pending() > 0 {
                idleSince = PortalComposer.now()
            } else if PortalComposer.now() - idleSince > idleSeconds {
                return ExitCode.completed
            }
        }
    }
}

/// The portal's answer to a request.
enum PortalResponse: UInt32, Sendable {
    case success = 0
    case cancelled = 1
    case other = 2

    /// The answer for share's result: the mail went or waits in the outbox;
    /// it was cancelled or kept as a draft; anything else.
    init(outcome: String?) {
        switch outcome {
        case "sent", "queued": self = .success
        case "cancelled", "saved": self = .cancelled
        default: self = .other
        }
    }
}

/// One ComposeEmail call, as the frontend passed it on.
struct PortalCall: Sendable, Equatable {
    var id: UInt64
    var application: String
    var handoff: PortalHandoff
    /// The files to attach: paths the frontend made from the application's
    /// descriptors (or `file:` URIs).
    var attachments: [String]

    var applicationName: String { application.isEmpty ? "a program outside a sandbox" : application }

    init(_ request: share_portal_request) {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        func list(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
            guard var item = pointer else { return [] }
            var words: [String] = []
            while let word = item.pointee { words.append(String(cString: word)); item += 1 }
            return words
        }
        id = request.id
        application = text(request.app_id) ?? ""
        attachments = list(request.attachments)
        handoff = PortalHandoff(to: (text(request.address).map { [$0] } ?? []) + list(request.addresses), cc: list(request.cc),
                                bcc: list(request.bcc), subject: text(request.subject), body: text(request.body),
                                attachments: attachments.map(PortalCall.fileName))
    }

    /// The path of an attachment given as a path or a `file:` URI.
    static func path(_ attachment: String) -> String {
        guard attachment.hasPrefix("file:"), let url = URL(string: attachment), url.isFileURL else { return attachment }
        return url.path
    }

    /// The name an attachment goes by: its path's last part.
    static func fileName(_ attachment: String) -> String {
        let path = path(attachment)
        return path.split(separator: "/").last.map(String.init) ?? "attachment"
    }
}
