import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// A custom activity from a plugin manifest (SPEC §6): no Swift needed.
///
/// `Exec`'s field codes become argv words (`%f` first file, `%F` all files,
/// `%u` first URL, `%U` all URLs, `%s` the text, `%%` a percent sign);
/// nothing passes through a shell. Exit 0 is `performed`, with stdout's
/// lines (or a JSON array of strings) as returned items; another status is
/// `failed`, with stderr as the message; running past `Timeout` kills the
/// process group and fails.
@MainActor
public final class PluginActivity: Activity, OutputShowing {
    /// The manifest.
    public let manifest: PluginManifest
    /// The program's full path.
    public let program: String
    private let environment: [String: String]

    /// Creates the activity for a checked manifest.
    public init(manifest: PluginManifest, program: String, environment: [String: String]) {
        self.manifest = manifest
        self.program = program
        self.environment = environment
    }

    public var activityType: ActivityType { manifest.type }
    public var activityTitle: String { manifest.name }
    public var localizedActivityTitle: String { manifest.localizedName }
    public var activityCategory: ActivityCategory { manifest.category }
    public var supportedKinds: Set<ItemKind> { manifest.accepts }
    public var activityImage: ActivityImage {
        guard let icon = manifest.icon, !icon.isEmpty else { return .glyph("◆") }
        if icon.lowercased().hasSuffix(".png") {
            let path = icon.hasPrefix("/") ? icon : PathText.parent(of: manifest.path) + "/" + icon
            if let data = FileManager.default.contents(atPath: path) { return .image(Thumbnail(data: data, contentType: "image/png")) }
            return .glyph("◆")
        }
        let lines = icon.split(separator: "\n").map(String.init)
        return lines.count > 1 ? .textArt(lines) : .glyph(icon)
    }

    public func canPerform(with items: [ShareItem]) -> Bool {
        guard items.count >= manifest.minItems, items.count <= (manifest.maxItems ?? Int.max) else { return false }
        guard !manifest.mimeTypes.isEmpty else { return true }
        return items.allSatisfy { item in manifest.mimeTypes.contains { PluginManifest.matches($0, item.contentType) } }
    }

    public func makeForm() -> ActivityForm? {
        guard !manifest.fields.isEmpty else { return nil }
        return ActivityForm(title: manifest.localizedName, fields: manifest.fields.map { id in
            FormField(id: id, label: id.prefix(1).uppercased() + id.dropFirst(),
                      kind: id == "body" || id == "message" ? .multilineText : .text)
        })
    }

    public func perform(_ session: ActivitySession) async {
        let arguments = PluginActivity.expand(Array(manifest.exec.dropFirst()), items: session.items)
        var environment = self.environment
        var fields: [(String, JSONValue)] = []
        for id in manifest.fields {
            let value = session.formValues[id] ?? ""
            environment["SHARE_FIELD_" + id.uppercased().replacing("-", with: "_")] = value
            fields.append((id, .string(value)))
        }
        if let subject = session.subject { environment["SHARE_SUBJECT"] = subject }
        let input = manifest.jsonInput
            ? Array(JSONValue.object([("items", .array(session.items.map(\.json))), ("fields", .object(fields))]).serialized.utf8)
            : nil
        let (program, timeout, maxOutput) = (self.program, manifest.timeout, manifest.maxOutput)
        let outcome: Subprocess.Outcome
        do {
            // Off the main actor: the program may run for `timeout` seconds.
            // Standard error is kept whole: its end becomes the message.
            outcome = try await Task.detached { () throws(Subprocess.LaunchError) -> Subprocess.Outcome in
                try Subprocess.run(program, arguments: arguments, environment: environment, input: input.map(Subprocess.feeding),
                                   outputLimit: maxOutput, errorLimit: 1 << 20, supervision: Subprocess.Supervision(timeout: timeout))
            }.value
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.pluginFailed, message: "\(manifest.name): \(ErrorText.sentence(error))"))
            return
        }
        if outcome.cancelled {
            session.finish(.cancelled, error: ActivityError(code: ActivityError.Code.cancelled, message: "\(manifest.name) was stopped"))
            return
        }
        if outcome.outputExceeded {
            session.fail(ActivityError(code: ActivityError.Code.pluginFailed,
                message: "\(manifest.name) printed more than \(maxOutput) bytes on standard output (MaxOutput) and was stopped"))
            return
        }
        if outcome.timedOut {
            session.fail(ActivityError(code: ActivityError.Code.timeout,
                message: "\(manifest.name) did not finish within \(Int(manifest.timeout)) s and was stopped"))
            return
        }
        guard outcome.status == 0 else {
            let text = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            session.fail(ActivityError(code: ActivityError.Code.pluginFailed,
                message: text.isEmpty ? "\(manifest.name) failed (exit \(outcome.status))" : String(text.suffix(2000))))
            return
        }
        let returned = PluginActivity.returnedItems(outcome.output)
        session.finish(.performed, returnedItems: returned, summary: PluginActivity.summary(returned, name: manifest.name))
    }

    /// `Exec`'s words with field codes expanded; `%F` and `%U` as whole words become several.
    static func expand(_ words: [String], items: [ShareItem]) -> [String] {
        let files = items.compactMap(\.fileItem).compactMap { $0.path?.path }
        let urls = items.compactMap { item -> String? in
            switch item {
            case .url(let url): url.absoluteString
            case .image(let file), .file(let file): file.path?.absoluteString
            case .text: nil
            }
        }
        let text = items.compactMap { item -> String? in if case .text(let text) = item { text } else { nil } }.joined(separator: "\n")
        var result: [String] = []
        for word in words {
            switch word {
            case "%F": result += files
            case "%U": result += urls
            default:
                var out = ""
                var iterator = word.makeIterator()
                while let character = iterator.next() {
                    guard character == "%" else { out.append(character); continue }
                    switch iterator.next() {
                    case "f": out += files.first ?? ""
                    case "u": out += urls.first ?? ""
                    case "s": out += text
                    case "%": out += "%"
                    case "F": out += files.joined(separator: " ")
                    case "U": out += urls.joined(separator: " ")
                    case let other?: out += "%" + String(other)
                    case nil: out += "%"
                    }
                }
                result.append(out)
            }
        }
        return result
    }

    /// A JSON array of strings, or else one item per non-empty line; URLs become URL items.
    /// What a plugin did, for its summary line: the first line it printed, else "NAME: done".
    static func summary(_ returned: [ShareItem], name: String) -> String {
        let first: String? = switch returned.first {
        case .text(let text)?: text
        case .url(let url)?: url.absoluteString
        default: nil
        }
        guard let first else { return Localization.text("%@: done", name) }
        let line = first.count > 200 ? String(first.prefix(199)) + "…" : first
        return returned.count > 1 ? line + " " + Localization.text("(and %@ more)", String(returned.count - 1)) : line
    }

    static func returnedItems(_ output: [UInt8]) -> [ShareItem] {
        let strings: [String]
        if let array = try? JSONDecoder().decode([StringOrOther].self, from: Data(output)) {
            strings = array.compactMap(\.text)
        } else {
            strings = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
                .filter { !$0.trimmingWhitespace().isEmpty }
        }
        return strings.map { text in
            if ItemResolver.scheme(of: text) != nil, text.contains("://"), let url = URL(string: text) { return .url(url) }
            return .text(text)
        }
    }
}

/// Finds `*.activity` manifests in the config and data folders (SPEC §6, §8).
@MainActor
public enum PluginLoader {
    /// The largest manifest read: a manifest is a few lines of INI.
    public static let manifestLimit = 256 << 10
    /// The folders searched, first wins: `$XDG_CONFIG_HOME/share/activities`,
    /// then `share/activities` under each of `$XDG_DATA_DIRS`.
    public static func folders(_ locations: Locations) -> [String] {
        [locations.configHome + "/activities"] + locations.dataDirectories.map { $0 + "/share/activities" }
    }

    /// Every usable plugin, and a problem for every manifest that is not.
    /// Each is titled `Name[xx]` for the language the screens are in
    /// (``Localization/language``), so the two always agree.
    public static func load(environment: [String: String], locations: Locations,
                            language: String? = Localization.language) -> (activities: [PluginActivity], problems: [PluginProblem]) {
        func executable(_ program: String) -> String? { ProgramSearch.executable(program, environment: environment) }
        var activities: [PluginActivity] = []
        var problems: [PluginProblem] = []
        var seen: [ActivityType: String] = [:]
        for folder in folders(locations) {
            guard let names = LocalFiles.names(inFolder: folder) else { continue }
            for name in names.sorted() where name.hasSuffix(".activity") {
                let file = folder + "/" + name
                let text: String
                switch LocalFiles.contents(ofFile: file, limit: PluginLoader.manifestLimit) {
                case .failure(let failure):
                    let limit = failure.code == EFBIG ? " (a manifest is at most \(PluginLoader.manifestLimit >> 10) KiB)" : ""
                    problems.append(PluginProblem(path: file, message: "cannot be read: \(failure.reason)\(limit)"))
                    continue
                case .success(let bytes):
                    guard let read = String(validating: bytes, as: UTF8.self) else {
                        problems.append(PluginProblem(path: file, message: "cannot be read as UTF-8 text"))
                        continue
                    }
                    text = read
                }
                do {
                    let manifest = try PluginManifest(text: text, path: file, language: language, findExecutable: executable)
                    if let earlier = seen[manifest.type] {
                        problems.append(PluginProblem(path: file, message: "Type \(manifest.type.rawValue) is already defined by \(earlier)"))
                        continue
                    }
                    seen[manifest.type] = file
                    guard let program = executable(manifest.exec[0]) else { continue }
                    activities.append(PluginActivity(manifest: manifest, program: program, environment: environment))
                } catch {
                    problems.append(error)
                }
            }
        }
        return (activities, problems)
    }
}

/// An element of a plugin's JSON array: its strings become items, anything else is skipped.
private struct StringOrOther: Decodable {
    var text: String?
    init(from decoder: any Decoder) throws {
        text = try? decoder.singleValueContainer().decode(String.self)
    }
}

extension PluginActivity {
    /// The error codes a plugin's run may end with, beyond the share sheet's.
    public nonisolated static var errorCodes: [String] { [ActivityError.Code.pluginFailed] }
}

extension ActivityError.Code {
    /// The plugin's program could not start or exited with another status than 0.
    public static let pluginFailed = "plugin-failed"
}
