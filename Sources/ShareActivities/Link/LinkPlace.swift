import FoundationEssentials
import ShareCore
import ShareSupport

/// A place Link uploads to: one `[link.NAME]` section of the config file.
///
/// Its secrets stay commands (`password-command`), run only when an
/// upload needs them; nothing here holds a password.
struct LinkPlace: Sendable, Equatable {
    /// How the place is reached.
    enum Kind: String, Sendable, CaseIterable {
        /// An HTTP form upload to a 0x0-style service; the link is the answer's first line.
        case paste
        /// The fiche protocol: the text sent over TCP, the link read back.
        case termbin
        /// A PUT to a WebDAV folder, then a public share (Nextcloud, ownCloud) or the file's URL.
        case webdav
        /// `rclone copyto` then `rclone link`.
        case rclone
    }

    /// The server whose share API makes a WebDAV file's public link.
    enum ShareAPI: String, Sendable {
        case nextcloud, owncloud
    }

    /// The section's name after `link.` (`dav`).
    var name: String
    var kind: Kind
    /// `paste`: the form's address; `webdav`: the folder's address.
    var url: String?
    /// `paste`: the form field the file goes in.
    var field = "file"
    /// `paste`: the `expires` form field (hours, or a date the service reads), when set.
    var expires: String?
    /// `termbin`: where the text goes.
    var host: String?
    var port: Int?
    /// `webdav`: the account, and the command that prints its password.
    var user: String?
    var passwordCommand: String?
    var share: ShareAPI?
    /// `rclone`: `remote:path`, the folder files are copied into.
    var remote: String?
    /// `rclone`: the program (`rclone`, found on PATH, unless a path is given).
    var program = "rclone"
    /// A PEM file of the certificates to trust instead of the system's.
    var caFile: String?
    /// How long the place may stay silent (and `password-command` or rclone may run).
    var timeout: Double = 60

    /// Whether the place takes several files, each with a link of its own;
    /// otherwise several files go up as one zip.
    var takesSeveral: Bool { kind == .webdav || kind == .rclone }
}

/// Link's settings: its places in file order and which one is the default.
struct LinkSettings: Sendable, Equatable {
    var places: [LinkPlace] = []
    /// `[link] default`, when set.
    var defaultName: String?
    /// `[link] fallback`: the places tried in turn when the one used fails.
    var fallback: [String] = []

    /// The place used when none is named: `[link] default`, else the first.
    var defaultPlace: LinkPlace? {
        if let defaultName { return places.first { $0.name == defaultName } }
        return places.first
    }

    /// The place called `name`.
    func place(_ name: String) -> LinkPlace? { places.first { $0.name == name } }
}

extension LinkActivity {
    /// The keys Link reads.
    public nonisolated static let configKeys = [
        ConfigKeys(section: "link", keys: ["default", "fallback"]),
        ConfigKeys(section: "link.*", keys: ["type", "url", "field", "expires", "host", "port", "user", "password-command", "share",
                                             "remote", "rclone", "ca-file", "timeout"]),
    ]

    /// The settings of `[link]` and the `[link.NAME]` sections; an unusable
    /// value is an error naming file and line.
    nonisolated static func settings(_ section: ConfigSection, places sections: [ConfigSection],
                                     environment: [String: String]) throws(ConfigurationError) -> LinkSettings {
        var settings = LinkSettings()
        // In the order they are written (the first is the default), which their first lines tell.
        let written = sections.sorted { ($0.entries.first?.line ?? .max) < ($1.entries.first?.line ?? .max) }
        for section in written { settings.places.append(try place(section, environment: environment)) }
        if let entry = section.entry("default") {
            let name = entry.value.trimmingWhitespace()
            guard settings.place(name) != nil else {
                let known = settings.places.map(\.name)
                throw section.error(entry, "default names no place: there is no [link.\(name)] section"
                                    + (known.isEmpty ? "" : " (the places are \(known.joined(separator: ", ")))"))
            }
            settings.defaultName = name
        }
        if let entry = section.entry("fallback") {
            let names = entry.value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            if let unknown = names.first(where: { settings.place($0) == nil }) {
                throw section.error(entry, "fallback names no place: there is no [link.\(unknown)] section")
            }
            settings.fallback = names
        }
        return settings
    }

    /// One `[link.NAME]` section.
    nonisolated static func place(_ section: ConfigSection, environment: [String: String]) throws(ConfigurationError) -> LinkPlace {
        let name = String(section.name.dropFirst("link.".count))
        guard !name.isEmpty, !name.contains(where: { $0 == "," || $0 == " " || $0 == "/" }) else {
            throw ConfigurationError("\(section.file): [\(section.name)]: a place's name has no comma, space or '/'")
        }
        guard let typeEntry = section.entry("type") else {
            throw ConfigurationError("\(section.file): [\(section.name)] needs `type = paste`, `termbin`, `webdav` or `rclone`")
        }
        guard let kind = LinkPlace.Kind(rawValue: typeEntry.value.lowercased()) else {
            let s3 = typeEntry.value.lowercased() == "s3" ? " (for S3, use type = rclone with an S3 remote)" : ""
            throw section.error(typeEntry, "type is paste, termbin, webdav or rclone, not '\(typeEntry.value)'" + s3)
        }
        var place = LinkPlace(name: name, kind: kind)
        place.caFile = try section.path("ca-file", environment: environment)
        place.timeout = try section.seconds("timeout") ?? place.timeout
        func required(_ key: String) throws(ConfigurationError) -> String {
            guard let value = section.value(key)?.trimmingWhitespace(), !value.isEmpty else {
                throw ConfigurationError("\(section.file): [\(section.name)] (type = \(kind.rawValue)) needs `\(key) = …`")
            }
            return value
        }
        func address(_ key: String) throws(ConfigurationError) -> String {
            let value = try required(key)
            let scheme = value.prefix { $0 != ":" }.lowercased()
            guard scheme == "https" || scheme == "http", value.contains("://") else {
                throw ConfigurationError("\(section.file): [\(section.name)] \(key) is an http:// or https:// address, not '\(value)'")
            }
            return value
        }
        switch kind {
        case .paste:
            place.url = try address("url")
            if let field = section.value("field")?.trimmingWhitespace() {
                guard !field.isEmpty, HTTPClient.isOneLine(field), !field.contains("\"") else {
                    throw ConfigurationError("\(section.file): [\(section.name)] field is a form field's name, not '\(field)'")
                }
                place.field = field
            }
            place.expires = section.value("expires")?.trimmingWhitespace()
        case .termbin:
            place.host = try required("host")
            let port = try required("port")
            guard let number = Int(port), (1...65535).contains(number) else {
                throw ConfigurationError("\(section.file): [\(section.name)] port is a number from 1 to 65535, not '\(port)'")
            }
            place.port = number
        case .webdav:
            place.url = try address("url")
            place.user = section.value("user")?.trimmingWhitespace()
            place.passwordCommand = section.value("password-command")
            if place.user != nil && (place.passwordCommand ?? "").trimmingWhitespace().isEmpty {
                throw ConfigurationError("\(section.file): [\(section.name)] sets user but not password-command: add `password-command = …`")
            }
            if let entry = section.entry("share") {
                guard let api = LinkPlace.ShareAPI(rawValue: entry.value.lowercased().trimmingWhitespace()) else {
                    throw section.error(entry, "share is nextcloud or owncloud, not '\(entry.value)'")
                }
                place.share = api
            }
        case .rclone:
            let remote = try required("remote")
            guard remote.contains(":") else {
                throw ConfigurationError("\(section.file): [\(section.name)] remote is REMOTE:PATH (as `rclone listremotes` names it), not '\(remote)'")
            }
            place.remote = remote
            if let program = try section.path("rclone", environment: environment) { place.program = program }
        }
        return place
    }
}
