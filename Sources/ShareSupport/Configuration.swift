#if canImport(Glibc)
import Glibc
#endif

/// A config file that cannot be used; the message names file and line.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where `share` keeps its files (SPEC §8), from the XDG variables.
public struct Locations: Sendable, Equatable {
    /// The user's home folder.
    public var home: String
    /// `$XDG_CONFIG_HOME` (else `~/.config`): every program's settings.
    public var userConfig: String
    /// share's own settings: `share` under ``userConfig``.
    public var configHome: String
    public var dataHome: String
    public var stateHome: String
    /// The system's data folders, most important first (`$XDG_DATA_DIRS`,
    /// else `/usr/local/share` and `/usr/share`); absolute ones only.
    public var dataDirectories: [String]

    /// Reads `XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_STATE_HOME`, `XDG_DATA_DIRS` and `HOME`.
    public init(environment: [String: String]) {
        let home = LocalFiles.homeFolder(environment: environment)
        func xdg(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        self.home = home
        userConfig = xdg("XDG_CONFIG_HOME", ".config")
        configHome = userConfig + "/share"
        dataHome = xdg("XDG_DATA_HOME", ".local/share") + "/share"
        stateHome = xdg("XDG_STATE_HOME", ".local/state") + "/share"
        dataDirectories = ProgramSearch.searchList(environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "/usr/local/share:/usr/share").filter { $0.hasPrefix("/") }
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

/// The keys of one config section that a part of share reads (an
/// activity, the picker). The config check accepts exactly the union of
/// every part's keys, so a typo is an error while each schema lives with
/// the code that reads it.
public struct ConfigKeys: Sendable, Equatable {
    /// The section (`mail`).
    public var section: String
    /// Its keys.
    public var keys: [String]
    /// Prefixes of numbered keys (`from-` for `from-2`, `from-3` …).
    public var numberedPrefixes: [String]

    /// The keys of `section`.
    public init(section: String, keys: [String], numberedPrefixes: [String] = []) {
        self.section = section
        self.keys = keys
        self.numberedPrefixes = numberedPrefixes
    }

    /// Whether `key` is one of these.
    public func accepts(_ key: String) -> Bool {
        keys.contains(key) || numberedPrefixes.contains { key.hasPrefix($0) }
    }
}

/// One section of the config file as its reader sees it: the entries (or
/// none when the section is absent), and errors that name file and line.
public struct ConfigSection: Sendable, Equatable {
    /// The config file, for messages (`config` when there is none).
    public let file: String
    /// The section's name.
    public let name: String
    /// Its entries, in file order.
    public let entries: [IniFile.Entry]

    /// A section of `file`.
    public init(file: String, name: String, entries: [IniFile.Entry] = []) {
        self.file = file
        self.name = name
        self.entries = entries
    }

    /// The entry for `key`, if present.
    public func entry(_ key: String) -> IniFile.Entry? { entries.first { $0.key == key } }

    /// The value of `key`, if present.
    public func value(_ key: String) -> String? { entry(key)?.value }

    /// An error about `entry`: `FILE:LINE: message`.
    public func error(_ entry: IniFile.Entry, _ message: String) -> ConfigurationError {
        ConfigurationError("\(file):\(entry.line): \(message)")
    }

    /// The path in `key` with `~` and `$VAR` expanded, if present.
    public func path(_ key: String, environment: [String: String]) throws(ConfigurationError) -> String? {
        guard let entry = entry(key) else { return nil }
        do { return try PathExpansion.expand(entry.value, environment: environment) } catch {
            throw self.error(entry, error.description)
        }
    }

    /// A number of seconds in `key` (`30`, `2.5`, `30s`), if present: more
    /// than 0 and at most a day.
    public func seconds(_ key: String) throws(ConfigurationError) -> Double? {
        guard let entry = entry(key) else { return nil }
        let text = entry.value.hasSuffix("s") ? String(entry.value.dropLast()) : entry.value
        guard let value = Double(text.trimmingWhitespace()), value > 0, value <= 86_400 else {
            throw error(entry, "\(key) is a number of seconds (such as 30), not '\(entry.value)'")
        }
        return value
    }

    /// A size in bytes in `key`, if present: a whole number, or one with
    /// `K`, `M` or `G` (powers of 1000, as ``ByteCount`` shows sizes; `KB`
    /// too) or `KiB`, `MiB`, `GiB` (powers of 1024); more than 0.
    public func bytes(_ key: String) throws(ConfigurationError) -> Int? {
        guard let entry = entry(key) else { return nil }
        let text = entry.value.trimmingWhitespace()
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count).trimmingWhitespace().lowercased()
        let scale: Int? = switch unit {
        case "", "b": 1
        case "k", "kb": 1000
        case "m", "mb": 1_000_000
        case "g", "gb": 1_000_000_000
        case "kib": 1 << 10
        case "mib": 1 << 20
        case "gib": 1 << 30
        default: nil
        }
        guard let scale, let number = Int(digits), number > 0, number <= Int(Int32.max) else {
            throw error(entry, "\(key) is a size such as 20M (or 20000000, 20MiB), not '\(entry.value)'")
        }
        return number * scale
    }

    /// `on`/`off` (or yes/no, true/false) in `key`, if present.
    public func flag(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let entry = entry(key) else { return nil }
        switch entry.value.lowercased() {
        case "on", "yes", "true": return true
        case "off", "no", "false": return false
        default: throw error(entry, "\(key) is on or off, not '\(entry.value)'")
        }
    }
}
