import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Copy: the items onto the clipboard.
///
/// Text and URLs are copied as text (one item a line). Files are copied as
/// a `text/uri-list` of `file://` URLs, and a lone image as the image
/// itself, when `wl-copy` (Wayland) or `xclip` (X11) is there to take a
/// MIME type; otherwise their paths are copied as text. Without those
/// programs the text goes through OSC 52 on the terminal, which most
/// terminals (and tmux with `set-clipboard on`) put on the clipboard.
@MainActor
public final class CopyActivity: SystemActivity {
    public nonisolated static var systemType: ActivityType { .copyToPasteboard }
    public nonisolated static var errorCodes: [String] { [ActivityError.Code.noClipboard, ActivityError.Code.copyFailed] }

    /// How the clipboard is reached.
    public enum Route: Sendable, Equatable {
        /// `wl-copy` at this path.
        case wlCopy(String)
        /// `xclip` at this path.
        case xclip(String)
        /// OSC 52 written to the terminal.
        case osc52
    }

    /// The route chosen for this run.
    public let route: Route?

    /// Chooses a route from the environment: Wayland, then X11, then the terminal.
    public init(environment: [String: String], hasTerminal: Bool) {
        route = CopyActivity.route(environment: environment, hasTerminal: hasTerminal)
    }

    /// Copy, with a route chosen from the context's environment and terminal.
    public convenience init(context: ActivityContext) {
        self.init(environment: context.environment, hasTerminal: context.hasTerminal)
    }

    public var activityImage: ActivityImage { .glyph("⧉") }
    public var availability: Availability {
        route == nil ? .unavailable("no terminal for OSC 52, and neither wl-copy nor xclip") : .available
    }

    public func perform(_ session: ActivitySession) async {
        guard let route else {
            session.fail(ActivityError(code: ActivityError.Code.noClipboard, message: "no terminal for OSC 52, and neither wl-copy nor xclip"))
            return
        }
        let (data, type) = CopyActivity.payload(session.items, rich: route != .osc52)
        do {
            try CopyActivity.put(data, type: type, through: route)
            session.finish(.performed, summary: session.items.count == 1
                ? Localization.text("Copied %@", CopyActivity.what(session.items[0]))
                : Localization.plural("Copied %@ item", "Copied %@ items", count: session.items.count, String(session.items.count)))
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.copyFailed, message: ErrorText.sentence(error)))
        }
    }

    /// Puts `text` on the clipboard the way Copy would from a terminal (a
    /// link on the screen that shows it); the error's words say why not.
    /// Returns whether it went through the terminal (OSC 52), which the
    /// terminal may ignore without a word.
    @discardableResult
    public static func copy(_ text: String, environment: [String: String]) throws -> Bool {
        guard let route = route(environment: environment, hasTerminal: true) else { throw Failure(description: "no clipboard") }
        try put(Data(text.utf8), type: "text/plain;charset=utf-8", through: route)
        return route == .osc52
    }

    private static func put(_ data: Data, type: String, through route: Route) throws {
        switch route {
        case .wlCopy(let program): try run(program, ["--type", type], input: data)
        case .xclip(let program): try run(program, ["-selection", "clipboard", "-t", type, "-i"], input: data)
        case .osc52: try osc52(data)
        }
    }

    /// What to copy and its MIME type.
    /// One item, as the summary names it: "the text", the URL, the file's name.
    static func what(_ item: ShareItem) -> String {
        switch item {
        case .text: Localization.text("the text")
        case .url(let url): url.absoluteString
        case .image(let file), .file(let file): file.name
        }
    }

    static func payload(_ items: [ShareItem], rich: Bool) -> (Data, String) {
        if rich, items.count == 1, case .image(let file) = items[0] {
            switch file.storage {
            case .path(let url): if let data = FileManager.default.contents(atPath: url.path) { return (data, file.contentType) }
            case .data(let data): return (data, file.contentType)
            }
        }
        let files = items.compactMap(\.fileItem).compactMap(\.path)
        if rich, !files.isEmpty, files.count == items.count {
            return (Data((files.map(\.absoluteString).joined(separator: "\r\n") + "\r\n").utf8), "text/uri-list")
        }
        let lines = items.map { item -> String in
            switch item {
            case .text(let text): text
            case .url(let url): url.absoluteString
            case .image(let file), .file(let file): file.path?.path ?? file.name
            }
        }
        return (Data(lines.joined(separator: "\n").utf8), "text/plain;charset=utf-8")
    }

    static func route(environment: [String: String], hasTerminal: Bool) -> Route? {
        func find(_ name: String) -> String? { ProgramSearch.executable(name, environment: environment) }
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, let program = find("wl-copy") { return .wlCopy(program) }
        if !(environment["DISPLAY"] ?? "").isEmpty, let program = find("xclip") { return .xclip(program) }
        return hasTerminal ? .osc52 : nil
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static func run(_ program: String, _ arguments: [String], input: Data) throws {
        // wl-copy and xclip hand the clipboard to a process of their own and return at once.
        let outcome = try Subprocess.run(program, arguments: arguments, input: Subprocess.feeding(Array(input)),
                                         keepOutput: false, errorLimit: 0, supervision: Subprocess.Supervision(timeout: 10))
        if outcome.timedOut { throw Failure(description: "\(PathText.lastComponent(of: program)) did not finish within 10 s; it was stopped") }
        guard outcome.status == 0 else {
            throw Failure(description: "\(PathText.lastComponent(of: program)) failed (exit \(outcome.status))")
        }
    }

    /// Writes `ESC ] 52 ; c ; BASE64 BEL` to the terminal.
    private static func osc52(_ data: Data) throws {
        let tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { throw Failure(description: "cannot open /dev/tty for OSC 52") }
        defer { close(tty) }
        do {
            try LocalFiles.writeAll("\u{1B}]52;c;\(data.base64EncodedString())\u{07}", to: tty)
        } catch {
            throw Failure(description: "cannot write to /dev/tty: \(error.reason)")
        }
    }
}

extension ActivityError.Code {
    /// Copy: no terminal for OSC 52, and neither wl-copy nor xclip.
    public static let noClipboard = "no-clipboard"

    /// Copy: wl-copy or xclip failed, or the terminal could not be written.
    public static let copyFailed = "copy-failed"
}
