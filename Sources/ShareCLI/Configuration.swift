import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareTerminal

/// The user's settings from the INI config file (SPEC §8).
///
/// Every key is checked when the file is read: an unknown section or key,
/// a bad activity type, a bad `tls` value or an unset `$VAR` in a path is
/// an error naming the file and line, so a typo is never silently ignored.
public struct Configuration: Sendable, Equatable {
    /// `[mail]`.
    public struct Mail: Sendable, Equatable {
        /// Sending identities: `from`, then `from-2`, `from-3` … in number order.
        public var identities: [String] = []
        /// `transport`: an `smtp://` or `smtps://` URL.
        public var transport: String?
        /// `tls`: false only when written `off`.
        public var tls = true
        /// `ca-file`: a CA bundle to trust for the transport instead of the system's, expanded.
        public var caFile: String?
        /// `password-command`: its first stdout line is the password.
        public var passwordCommand: String?
        /// `sendmail`: a sendmail-compatible command.
        public var sendmail: String?
        /// Maildir paths, expanded.
        public var drafts: String?
        public var sent: String?
        public var outbox: String?
        /// `signature-file`, expanded.
        public var signatureFile: String?
    }

    /// `[contacts]`.
    public struct Contacts: Sendable, Equatable {
        public var vcardDirectory: String?
        public var aliases: String?
        public var queryCommand: String?
    }

    /// The file the settings came from, or `nil` for the defaults.
    public var path: String?
    public var mail = Mail()
    public var contacts = Contacts()
    /// `[picker] pinned`.
    public var pinned: [ActivityType] = []
    /// `[picker] exclude`.
    public var excluded: [ActivityType] = []
    /// `[social] enabled`: service names such as `twitter`.
    public var enabledServices: [String] = []
    /// `[keys]`: action → the keys bound to it, checked when read.
    public var keys: [String: [InputEvent]] = [:]

    /// The settings when there is no config file.
    public init() {}

    /// The service names `[social] enabled` accepts.
    public static let services = ["facebook", "flickr", "tencentweibo", "twitter", "vimeo", "weibo"]

    private static let schema: [String: [String]] = [
        "mail": ["from", "transport", "tls", "ca-file", "password-command", "sendmail", "drafts", "sent", "outbox",
                 "signature-file"],
        "contacts": ["vcard-dir", "aliases", "query-command"],
        "picker": ["pinned", "exclude"],
        "social": ["enabled"],
        "keys": [],
    ]

    /// Reads settings from INI text, naming `path` in errors.
    public init(parsing text: String, path: String, environment: [String: String]) throws(ConfigurationError) {
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch { throw ConfigurationError(error.description) }
        self.path = path
        var numberedIdentities: [(Int, String)] = []
        for section in file.sections {
            guard let validKeys = Configuration.schema[section.name] else {
                throw ConfigurationError("\(path):\(section.line): unknown section [\(section.name)]; valid sections: "
                    + Configuration.schema.keys.sorted().map { "[\($0)]" }.joined(separator: ", "))
            }
            for entry in section.entries {
                let fail: (String) -> ConfigurationError = { ConfigurationError("\(path):\(entry.line): \($0)") }
                func expand() throws(ConfigurationError) -> String {
                    do { return try PathExpansion.expand(entry.value, environment: environment) } catch { throw fail(error.description) }
                }
                if section.name == "keys" {
                    keys[entry.key] = try Configuration.keyBinding(entry.key, entry.value, fail: fail)
                    continue
                }
                if section.name == "mail", entry.key.hasPrefix("from-") {
                    guard let number = Int(entry.key.dropFirst(5)), number >= 2 else {
                        throw fail("identity keys are from, from-2, from-3 …; found '\(entry.key)'")
                    }
                    numberedIdentities.append((number, entry.value))
                    continue
                }
                guard validKeys.contains(entry.key) else {
                    throw fail("unknown key '\(entry.key)' in [\(section.name)]; valid keys: " + validKeys.joined(separator: ", "))
                }
                switch (section.name, entry.key) {
                case ("mail", "from"): numberedIdentities.append((1, entry.value))
                case ("mail", "transport"): mail.transport = entry.value
                case ("mail", "tls"):
                    switch entry.value.lowercased() {
                    case "on", "yes", "true": mail.tls = true
                    case "off", "no", "false": mail.tls = false
                    default: throw fail("tls is on or off, not '\(entry.value)'")
                    }
                case ("mail", "ca-file"): mail.caFile = try expand()
                case ("mail", "password-command"): mail.passwordCommand = entry.value
                case ("mail", "sendmail"): mail.sendmail = try expand()
                case ("mail", "drafts"): mail.drafts = try expand()
                case ("mail", "sent"): mail.sent = try expand()
                case ("mail", "outbox"): mail.outbox = try expand()
                case ("mail", "signature-file"): mail.signatureFile = try expand()
                case ("contacts", "vcard-dir"): contacts.vcardDirectory = try expand()
                case ("contacts", "aliases"): contacts.aliases = try expand()
                case ("contacts", "query-command"): contacts.queryCommand = entry.value
                case ("picker", "pinned"): pinned = try Configuration.types(entry.value, fail: fail)
                case ("picker", "exclude"): excluded = try Configuration.types(entry.value, fail: fail)
                case ("social", "enabled"):
                    for name in Configuration.list(entry.value) {
                        guard Configuration.services.contains(name) else {
                            throw fail("unknown service '\(name)'; valid services: " + Configuration.services.joined(separator: ", "))
                        }
                        enabledServices.append(name)
                    }
                default: break
                }
            }
        }
        mail.identities = numberedIdentities.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Loads the config: `explicitPath` (which must exist) or the default
    /// `$XDG_CONFIG_HOME/share/config` (which may be absent).
    public static func load(explicitPath: String?, environment: [String: String]) throws(ConfigurationError) -> Configuration {
        let path = explicitPath ?? Locations(environment: environment).configFile
        let bytes: [UInt8]
        switch LocalFiles.contents(ofFile: path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            // No config file is the defaults; a named one must exist.
            if (failure.code == ENOENT || failure.code == ENOTDIR) && explicitPath == nil { return Configuration() }
            throw ConfigurationError("cannot read config \(path): \(failure.reason)")
        }
        // A byte-order mark (some editors write one) is not part of the text.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw ConfigurationError("cannot read config \(path): it is not UTF-8 text")
        }
        return try Configuration(parsing: text, path: path, environment: environment)
    }

    /// One `[keys]` line: a known action, and keys it can use. The compose
    /// screen's commands must not be plain characters, which are typed text.
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
            if ["send", "save", "attach", "editor", "cancel"].contains(action), case .character = event {
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

    private static func types(_ value: String, fail: (String) -> ConfigurationError) throws(ConfigurationError) -> [ActivityType] {
        var result: [ActivityType] = []
        for word in list(value) {
            do { result.append(try ActivityType(parsing: word)) } catch { throw fail(error.description) }
        }
        return result
    }
}

/// A config file that cannot be used; the message names file and line.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where `share` keeps its files (SPEC §8), from the XDG variables.
public struct Locations: Sendable, Equatable {
    public var configHome: String
    public var dataHome: String
    public var stateHome: String

    /// Reads `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_STATE_HOME` and `HOME`.
    public init(environment: [String: String]) {
        let home = LocalFiles.homeFolder(environment: environment)
        func xdg(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configHome = xdg("XDG_CONFIG_HOME", ".config") + "/share"
        dataHome = xdg("XDG_DATA_HOME", ".local/share") + "/share"
        stateHome = xdg("XDG_STATE_HOME", ".local/state") + "/share"
    }

    /// The default config file.
    public var configFile: String { configHome + "/config" }
}

/// `~` and `$VAR` / `${VAR}` expansion for paths in the config.
public enum PathExpansion {
    /// A variable used in a path is not set.
    public struct UnsetVariable: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "$\(name) is not set" }
    }

    /// Expands a leading `~` or `~/` to `$HOME` and every `$VAR` / `${VAR}`.
    public static func expand(_ path: String, environment: [String: String]) throws(UnsetVariable) -> String {
        var text = path
        if text == "~" || text.hasPrefix("~/") {
            guard let home = environment["HOME"] else { throw UnsetVariable(name: "HOME") }
            text = home + text.dropFirst()
        }
        var out = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "$" else { out.unicodeScalars.append(scalar); continue }
            var name = ""
            if scalars.first == "{" {
                scalars.removeFirst()
                while let next = scalars.popFirst(), next != "}" { name.unicodeScalars.append(next) }
            } else {
                while let next = scalars.first, next.isASCII, next.properties.isAlphabetic || ("0"..."9").contains(next) || next == "_" {
                    name.unicodeScalars.append(next)
                    scalars.removeFirst()
                }
            }
            if name.isEmpty { out += "$"; continue }
            guard let value = environment[name] else { throw UnsetVariable(name: name) }
            out += value
        }
        return out
    }
}
