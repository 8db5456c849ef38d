import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareMail
import ShareSupport
import ShareTerminal

/// The user's settings from the INI config file (SPEC §8).
///
/// Every key is checked when the file is read: an unknown section or key,
/// a bad activity type or an unset `$VAR` in a path is an error naming the
/// file and line, so a typo is never silently ignored. The sections the
/// command line reads itself (`[contacts]`, `[picker]`, `[history]`,
/// `[keys]`) are parsed here; an activity's own sections (`[mail]`) are
/// checked against the keys it declares and handed to it to read.
public struct Configuration: Sendable, Equatable {
    /// `[contacts]`.
    public struct Contacts: Sendable, Equatable {
        public var vcardDirectory: String?
        public var aliases: String?
        public var queryCommand: String?
    }

    /// The file the settings came from, or `nil` for the defaults.
    public var path: String?
    public var contacts = Contacts()
    /// `[picker] pinned`.
    public var pinned: [ActivityType] = []
    /// `[picker] exclude`.
    public var excluded: [ActivityType] = []
    /// `[picker] suggestions`: whether the people row shows (on by default).
    public var suggestions = true
    /// `[history] keep`: how long the share history keeps entries (90 days by default).
    public var historyKeep: ShareHistory.Keep = .days(90)
    /// `[keys]`: action → the keys bound to it, checked when read.
    public var keys: [String: [InputEvent]] = [:]
    /// `[portal] terminal`: the command share-portal opens the compose
    /// screen in, as words, the share command's words appended.
    public var portalTerminal = ["x-terminal-emulator", "-e"]
    /// Every section as read, by name, for the activities that own them.
    private var sections: [String: ConfigSection] = [:]

    /// The settings when there is no config file.
    public init() {}

    /// The keys the command line reads itself; `[keys]` takes the names of
    /// ``KeyActions/all`` and is checked on its own.
    static let commandLineKeys: [ConfigKeys] = [
        ConfigKeys(section: "contacts", keys: ["vcard-dir", "aliases", "query-command"]),
        ConfigKeys(section: "picker", keys: ["pinned", "exclude", "suggestions"]),
        ConfigKeys(section: "history", keys: ["keep"]),
        ConfigKeys(section: "keys", keys: []),
        ConfigKeys(section: "portal", keys: ["terminal"]),
    ]

    /// Every key a config may hold: the command line's and the system activities'.
    public static var schema: [ConfigKeys] { commandLineKeys + SharingOptions.configKeys + SystemActivities.configKeys }

    /// The section `name` as its reader sees it (empty when the file has none).
    public func section(_ name: String) -> ConfigSection {
        sections[name] ?? ConfigSection(file: path ?? "config", name: name)
    }

    /// The sections named `PREFIX.NAME` (`[message.team]`), by name.
    public func sections(under prefix: String) -> [ConfigSection] {
        sections.values.filter { $0.name.hasPrefix(prefix + ".") }.sorted { $0.name < $1.name }
    }

    /// Reads settings from INI text, naming `path` in errors; `schema` is
    /// every key that may appear.
    public init(parsing text: String, path: String, environment: [String: String],
                schema: [ConfigKeys] = Configuration.schema) throws(ConfigurationError) {
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch { throw ConfigurationError(error.description) }
        self.path = path
        var valid: [String: [ConfigKeys]] = [:]
        for part in schema { valid[part.section, default: []].append(part) }
        for section in file.sections {
            // `[message.team]` is one of the sections the schema names `message.*`.
            let family = section.name.firstIndex(of: ".").map { String(section.name[..<$0]) + ".*" }
            guard let parts = valid[section.name] ?? family.flatMap({ valid[$0] }) else {
                throw ConfigurationError("\(path):\(section.line): unknown section [\(section.name)]; valid sections: "
                    + valid.keys.sorted().map { "[\($0.hasSuffix(".*") ? $0.dropLast() + "NAME" : $0[...])]" }.joined(separator: ", "))
            }
            let read = ConfigSection(file: path, name: section.name, entries: section.entries)
            sections[section.name] = read
            for entry in section.entries {
                if section.name == "keys" {
                    keys[entry.key] = try Configuration.keyBinding(entry.key, entry.value, fail: { read.error(entry, $0) })
                    continue
                }
                guard parts.contains(where: { $0.accepts(entry.key) }) else {
                    let names = parts.flatMap { $0.keys + $0.numberedPrefixes.map { $0 + "N" } }
                    throw read.error(entry, "unknown key '\(entry.key)' in [\(section.name)]; valid keys: " + names.joined(separator: ", "))
                }
            }
        }
        let contactsSection = section("contacts")
        contacts.vcardDirectory = try contactsSection.path("vcard-dir", environment: environment)
        contacts.aliases = try contactsSection.path("aliases", environment: environment)
        contacts.queryCommand = contactsSection.value("query-command")
        let picker = section("picker")
        if let entry = picker.entry("pinned") { pinned = try Configuration.types(entry, in: picker) }
        if let entry = picker.entry("exclude") { excluded = try Configuration.types(entry, in: picker) }
        if let entry = picker.entry("suggestions") {
            switch entry.value.lowercased() {
            case "on", "yes", "true": suggestions = true
            case "off", "no", "false": suggestions = false
            default: throw picker.error(entry, "suggestions takes on or off, not '\(entry.value)'")
            }
        }
        let history = section("history")
        if let entry = history.entry("keep") {
            guard let keep = ShareHistory.Keep(entry.value) else {
                throw history.error(entry, "keep takes a time such as 90d, 12w, 6m or 1y, or off; not '\(entry.value)'")
            }
            historyKeep = keep
        }
        let portal = section("portal")
        if let entry = portal.entry("terminal") {
            let words = entry.value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { throw portal.error(entry, "terminal takes a command, such as x-terminal-emulator -e") }
            portalTerminal = words
        }
    }

    /// Loads the config: `explicitPath` (which must exist) or the default
    /// `$XDG_CONFIG_HOME/share/config` (which may be absent).
    public static func load(explicitPath: String?, locations: Locations,
                            environment: [String: String]) throws(ConfigurationError) -> Configuration {
        let path = explicitPath ?? locations.configFile
        let bytes: [UInt8]
        switch LocalFiles.contents(ofFile: path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            // No config file is the defaults; a named one must exist.
            if (failure.code == ENOENT || failure.code == ENOTDIR) && explicitPath == nil { return Configuration() }
            let limit = failure.code == EFBIG ? " (a config is at most 1 MiB)" : ""
            throw ConfigurationError("cannot read config \(path): \(failure.reason)\(limit)")
        }
        // A byte-order mark (some editors write one) is not part of the text.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw ConfigurationError("cannot read config \(path): it is not UTF-8 text")
        }
        return try Configuration(parsing: text, path: path, environment: environment)
    }

    /// One `[keys]` line: a known action, and keys it can use. The forms'
    /// commands must not be plain characters, which are typed text.
    private static func keyBinding(_ action: String, _ value: String,
                                   fail: (String) -> ConfigurationError) throws(ConfigurationError) -> [InputEvent] {
        guard KeyActions.all.contains(where: { $0.name == action }) else {
            throw fail("unknown key action '\(action)'; valid actions: " + KeyActions.all.map(\.name).joined(separator: ", "))
        }
        var events: [InputEvent] = []
        for name in list(value) {
            guard let event = KeyNames.event(name) else {
                throw fail("'\(name)' is not a key; write C-x, M-f, Enter, Esc, Tab, S-Tab, Up, Down, Left, Right, Home, End, Space or one character")
            }
            if KeyMap.form.names.contains(action), case .character = event {
                throw fail("\(action) needs a key that is not typed text, such as C-x or Esc; '\(name)' would be typed into the message")
            }
            events.append(event)
        }
        guard !events.isEmpty else { throw fail("\(action) needs at least one key") }
        return events
    }

    private static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    private static func types(_ entry: IniFile.Entry, in section: ConfigSection) throws(ConfigurationError) -> [ActivityType] {
        var result: [ActivityType] = []
        for word in list(entry.value) {
            do { result.append(try ActivityType(parsing: word)) } catch { throw section.error(entry, error.description) }
        }
        return result
    }
}

extension ShareCommand {
    /// What system activities are made from, with the user's config
    /// (`configPath`, or the default file) and no command-line request, for
    /// programs that make their own (`MailActivity(context:)`).
    public static func activityContext(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       configPath: String? = nil, hasTerminal: Bool = true) throws -> ActivityContext {
        let locations = Locations(environment: environment)
        let configuration = try Configuration.load(explicitPath: configPath, locations: locations, environment: environment)
        var context = ActivityContext(environment: environment, locations: locations, hasTerminal: hasTerminal,
                                      detector: MagicContentTypeDetector(), section: configuration.section)
        context.subsections = configuration.sections(under:)
        return context
    }
}
