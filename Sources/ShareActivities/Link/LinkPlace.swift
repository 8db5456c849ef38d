import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// A place Link uploads to: one `[link.NAME]` section of the config file.
///
/// Its secrets stay commands (`password-command`, `secret-key-command`),
/// run only when an upload needs them; nothing here holds a password.
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
        /// A PUT into an S3 bucket signed with AWS Signature Version 4; the link is a presigned GET.
        case s3
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
    /// `s3`: the service's address, `http(s)://HOST[:PORT]` (lower case, no
    /// default port: as the `Host` header names it), and the bucket there.
    var endpoint: String?
    var bucket: String?
    /// `s3`: the region the signature's scope names.
    var region = "us-east-1"
    /// `s3`: the access key ID, and the command that prints its secret key.
    var accessKey: String?
    var secretKeyCommand: String?
    /// `s3`: the folder inside the bucket the files go in (no '/' at either end), when set.
    var prefix: String?
    /// `s3`: how many seconds a presigned link stays valid (at most ``LinkPlace/longestLink``).
    var linkSeconds = LinkPlace.longestLink
    /// A PEM file of the certificates to trust instead of the system's.
    var caFile: String?
    /// How long the place may stay silent (and `password-command` or rclone may run).
    var timeout: Double = 60

    /// Whether the place takes several files, each with a link of its own;
    /// otherwise several files go up as one zip.
    var takesSeveral: Bool { kind == .webdav || kind == .rclone || kind == .s3 }

    /// The longest an S3 presigned link can last: 7 days, in seconds
    /// (Signature Version 4 refuses a longer `X-Amz-Expires`).
    static let longestLink = 604_800
}

/// Link's settings: its places in file order and which one is the default.
struct LinkSettings: Sendable, Equatable {
    var places: [LinkPlace] = []
    /// `[link] default`, when set.
    var defaultName: String?
    /// `[link] fallback`: the places tried in turn when the one used fails.
    var fallback: [String] = []
    /// The config file the places are written in, which `share --undo`
    /// reads again for a place's secrets (`config` when there is none).
    var configFile = "config"

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
                                             "remote", "rclone", "endpoint", "bucket", "region", "access-key",
                                             "secret-key-command", "prefix", "ca-file", "timeout"]),
    ]

    /// The settings of `[link]` and the `[link.NAME]` sections; an unusable
    /// value is an error naming file and line.
    nonisolated static func settings(_ section: ConfigSection, places sections: [ConfigSection],
                                     environment: [String: String]) throws(ConfigurationError) -> LinkSettings {
        var settings = LinkSettings()
        // In the order they are written (the first is the default), which their first lines tell.
        let written = sections.sorted { ($0.entries.first?.line ?? .max) < ($1.entries.first?.line ?? .max) }
        for section in written { settings.places.append(try place(section, environment: environment)) }
        settings.configFile = LocalFiles.absolutePath(written.first?.file ?? section.file)
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
            throw ConfigurationError("\(section.file): [\(section.name)] needs `type = paste`, `termbin`, `webdav`, `rclone` or `s3`")
        }
        guard let kind = LinkPlace.Kind(rawValue: typeEntry.value.lowercased()) else {
            throw section.error(typeEntry, "type is paste, termbin, webdav, rclone or s3, not '\(typeEntry.value)'")
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
        case .s3:
            try s3(section, into: &place)
        }
        return place
    }

    /// The keys of an `s3` place: `endpoint`, `bucket`, `region`,
    /// `access-key`, `secret-key-command`, `prefix` and `expires`.
    nonisolated static func s3(_ section: ConfigSection, into place: inout LinkPlace) throws(ConfigurationError) {
        /// The entry for `key`, which must have a value.
        func required(_ key: String) throws(ConfigurationError) -> IniFile.Entry {
            guard let entry = section.entry(key), !entry.value.trimmingWhitespace().isEmpty else {
                throw ConfigurationError("\(section.file): [\(section.name)] (type = s3) needs `\(key) = …`")
            }
            return entry
        }
        let endpoint = try required("endpoint")
        guard let address = s3Endpoint(endpoint.value.trimmingWhitespace()) else {
            throw section.error(endpoint, "endpoint is the S3 service's http:// or https:// address without a path "
                                + "(https://s3.eu-west-1.amazonaws.com; the bucket goes in bucket = …), not '\(endpoint.value)'")
        }
        place.endpoint = address
        let bucket = try required("bucket")
        let name = bucket.value.trimmingWhitespace()
        guard name.utf8.count <= 255, name.utf8.first.map({ isWord($0) && $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }) == true,
              name.utf8.allSatisfy({ isWord($0) || $0 == UInt8(ascii: ".") }) else {
            throw section.error(bucket, "bucket is a bucket's name (letters, digits, '.', '-' and '_', starting with a letter or digit), not '\(bucket.value)'")
        }
        place.bucket = name
        if let region = section.entry("region") {
            let value = region.value.trimmingWhitespace()
            guard !value.isEmpty, value.utf8.allSatisfy(isWord) else {
                throw section.error(region, "region is a region's name (us-east-1, eu-west-1, garage), not '\(region.value)'")
            }
            place.region = value
        }
        let accessKey = try required("access-key")
        let key = accessKey.value.trimmingWhitespace()
        guard key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw section.error(accessKey, "access-key is the access key's ID (AKIA…), without spaces or '/'")
        }
        place.accessKey = key
        place.secretKeyCommand = try required("secret-key-command").value
        if let prefix = section.entry("prefix") {
            var value = Substring(prefix.value.trimmingWhitespace())
            while value.hasPrefix("/") { value = value.dropFirst() }
            while value.hasSuffix("/") { value = value.dropLast() }
            let segments = value.split(separator: "/", omittingEmptySubsequences: false)
            guard !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
                  value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw section.error(prefix, "prefix is a folder inside the bucket (shared/2026), without '//', '.' or '..', not '\(prefix.value)'")
            }
            place.prefix = value.isEmpty ? nil : String(value)
        }
        if let expires = section.entry("expires") {
            place.linkSeconds = try linkSeconds(expires, in: section)
        }
    }

    /// A letter, digit, '-' or '_'.
    private nonisolated static func isWord(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// An S3 endpoint as requests name it: `http(s)://HOST[:PORT]` in lower
    /// case, without the scheme's default port; `nil` when `text` is not an
    /// http(s) address of a server alone (a path, a user or a query in it).
    nonisolated static func s3Endpoint(_ text: String) -> String? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = Substring(text[separator.upperBound...].lowercased())
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        let allowed = authority.utf8.allSatisfy { isWord($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "[")
            || $0 == UInt8(ascii: "]") }
        guard allowed, !authority.isEmpty else { return nil }
        // A port after the host (not a colon inside an IPv6 address's brackets).
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let host = authority[..<colon]
            guard !host.isEmpty, let port = Int(authority[authority.index(after: colon)...]), (1...65535).contains(port) else { return nil }
            if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { authority = host }
        }
        return scheme + "://" + authority
    }

    /// `expires` of an `s3` place: seconds (`3600`) or a duration (`90m`,
    /// `12h`, `7d`, `1w`), from 1 second to 7 days.
    nonisolated static func linkSeconds(_ entry: IniFile.Entry, in section: ConfigSection) throws(ConfigurationError) -> Int {
        let text = entry.value.trimmingWhitespace().lowercased()
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? text : String(text.dropLast()).trimmingWhitespace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(digits),
              number > 0 else {
            throw section.error(entry, "expires is how long the link stays valid, in seconds or as 12h or 7d, not '\(entry.value)'")
        }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow, seconds <= LinkPlace.longestLink else {
            throw section.error(entry, "expires is at most 7d (604800 s), the longest an S3 presigned link lasts, not '\(entry.value)'")
        }
        return seconds
    }
}
