import FoundationEssentials
import ShareCore
import ShareSupport

/// A person's own account at a service (`[social.SERVICE]`), with which
/// share posts directly through the service's API instead of opening its
/// share link. The secrets are never in the file: commands print them
/// (`pass show mastodon-token`), and share reads the first line when it
/// posts, keeping it only in memory for that post.
public struct SocialAccount: Sendable, Equatable {
    /// How the account proves who it is.
    public enum Credentials: Sendable, Equatable {
        /// A bearer token (Mastodon, Vimeo): `token-command`.
        case token(command: String)
        /// A handle and an app password (Bluesky): `handle`, `token-command`.
        case appPassword(handle: String, command: String)
        /// OAuth 1.0a user tokens (Flickr, X): `consumer-key`,
        /// `consumer-secret-command`, `token`, `token-secret-command`.
        case oauth1(consumerKey: String, consumerSecretCommand: String, token: String, tokenSecretCommand: String)
    }

    public var service: SocialService
    public var credentials: Credentials
    /// `api = https://HOST[:PORT]`: where the API's requests go instead of
    /// the service's own host (a compatible server, a private Bluesky PDS).
    public var api: String?
    /// A PEM file of the certificates to trust instead of the system's.
    public var caFile: String?
    /// How long each secret command may run.
    public var commandTimeout = 30.0

    /// The keys of a `[social.SERVICE]` section.
    static let keys = ["token-command", "handle", "consumer-key", "consumer-secret-command", "token", "token-secret-command",
                       "api", "ca-file", "command-timeout"]

    /// The account `section` (`[social.mastodon]`) describes; a missing or
    /// unusable value is an error naming file and line.
    static func read(_ section: ConfigSection, environment: [String: String]) throws(ConfigurationError) -> SocialAccount {
        let name = String(section.name.dropFirst("social.".count))
        // A problem with the section as a whole is told at its first line.
        func problem(_ message: String) -> ConfigurationError {
            guard let first = section.entries.first else { return ConfigurationError("\(section.file): \(message)") }
            return section.error(first, message)
        }
        guard let service = SocialService(rawValue: name) else {
            throw problem("[\(section.name)] names no service: use one of "
                                + SocialService.direct.map(\.rawValue).joined(separator: ", "))
        }
        guard SocialService.direct.contains(service) else {
            throw problem("[\(section.name)]: \(service.name) takes posts only through its share link, so it has no account to set")
        }
        func required(_ key: String, _ example: String) throws(ConfigurationError) -> String {
            guard let value = section.value(key)?.trimmingWhitespace(), !value.isEmpty else {
                throw problem("[\(section.name)] needs \(key) (such as `\(key) = \(example)`)")
            }
            return value
        }
        let allowed: Set<String>
        let credentials: Credentials
        switch service {
        case .mastodon, .vimeo:
            allowed = ["token-command"]
            credentials = .token(command: try required("token-command", "pass show \(name)-token"))
        case .bluesky:
            allowed = ["handle", "token-command"]
            credentials = .appPassword(handle: try required("handle", "kim.bsky.social"),
                                       command: try required("token-command", "pass show bluesky-app-password"))
        default:
            allowed = ["consumer-key", "consumer-secret-command", "token", "token-secret-command"]
            credentials = .oauth1(consumerKey: try required("consumer-key", "YOUR_API_KEY"),
                                  consumerSecretCommand: try required("consumer-secret-command", "pass show \(name)-consumer-secret"),
                                  token: try required("token", "YOUR_ACCESS_TOKEN"),
                                  tokenSecretCommand: try required("token-secret-command", "pass show \(name)-token-secret"))
        }
        let shared: Set<String> = ["api", "ca-file", "command-timeout"]
        for entry in section.entries where !allowed.contains(entry.key) && !shared.contains(entry.key) && keys.contains(entry.key) {
            throw section.error(entry, "\(entry.key) is not used by \(service.name); it reads "
                                + (keys.filter { allowed.contains($0) || shared.contains($0) }).joined(separator: ", "))
        }
        var account = SocialAccount(service: service, credentials: credentials)
        if let entry = section.entry("api") {
            guard let origin = origin(entry.value) else {
                throw section.error(entry, "api is an https:// address such as https://bsky.social (scheme, host and port only), not '\(entry.value)'")
            }
            account.api = origin
        }
        account.caFile = try section.path("ca-file", environment: environment)
        account.commandTimeout = try section.seconds("command-timeout") ?? account.commandTimeout
        return account
    }

    /// `https://HOST[:PORT]` with nothing after it but a slash; `nil` otherwise.
    static func origin(_ text: String) -> String? {
        var value = Substring(text.trimmingWhitespace())
        guard value.lowercased().hasPrefix("https://") else { return nil }
        value = value.dropFirst(8)
        while value.hasSuffix("/") { value = value.dropLast() }
        // localhost is one label, which a server's name is not otherwise.
        let checked = value.lowercased().hasPrefix("localhost") ? "localhost.localdomain" + value.dropFirst(9) : String(value)
        guard SocialSettings.instance(checked) != nil else { return nil }
        return "https://" + value
    }

    /// The address of `path` on the API: at the service's `host`, or at `api` when set.
    func url(host: String, _ path: String) -> String {
        (api ?? "https://" + host) + path
    }

    /// Runs a secret's command (`token-command`) and returns its first line.
    func secret(_ command: String, key: String) throws(SocialFailure) -> String {
        do {
            return try PasswordCommand.run(command, timeout: commandTimeout, section: "social.\(service.rawValue)")
        } catch {
            throw SocialFailure("[social.\(service.rawValue)] \(key): " + error.message.replacingPrefix("password-command ", with: ""))
        }
    }
}

/// Why a direct post failed, in words for people.
struct SocialFailure: Error, Sendable {
    var message: String
    /// The error code (`failed`, `invalid-input`, `cancelled`).
    var code = ActivityError.Code.failed
    /// The person stopped it (Esc).
    var cancelled = false
    /// What was posted before it failed (the first photos of several).
    var posted: [URL] = []
    /// What was done about it, said after the message (an unfinished video deleted).
    var note: String?

    init(_ message: String, code: String = ActivityError.Code.failed) {
        self.message = message
        self.code = code
    }

    static let stopped: SocialFailure = {
        var failure = SocialFailure("stopped")
        failure.cancelled = true
        return failure
    }()
}
