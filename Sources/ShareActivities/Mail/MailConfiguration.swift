#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareMail
import ShareSupport

/// Mail's `[mail]` section: identities, the transport, the folders, the signature.
extension MailActivity {
    /// The keys Mail reads (SPEC §8); `from-2`, `from-3` … are more identities.
    public nonisolated static let configKeys = [
        ConfigKeys(section: "mail", keys: ["from", "transport", "tls", "ca-file", "password-command", "sendmail",
                                           "drafts", "sent", "outbox", "signature-file", "command-timeout", "markdown", "undo-send", "link-over",
                                           "pgp-key", "pgp-sign", "pgp-encrypt"],
                   numberedPrefixes: ["from-"]),
    ]

    /// How long `password-command` and `sendmail` may run (`[mail] command-timeout`).
    public nonisolated static let defaultCommandTimeout = 30.0

    /// The settings in `section`; an unusable value is an error naming the key.
    public static func settings(_ section: ConfigSection, locations: Locations,
                                environment: [String: String]) throws(ConfigurationError) -> MailSettings {
        var identities: [(number: Int, address: MailAddress)] = []
        for entry in section.entries where entry.key == "from" || entry.key.hasPrefix("from-") {
            let number: Int
            if entry.key == "from" {
                number = 1
            } else {
                guard let numbered = Int(entry.key.dropFirst(5)), numbered >= 2 else {
                    throw section.error(entry, "identity keys are from, from-2, from-3 …; found '\(entry.key)'")
                }
                number = numbered
            }
            do { identities.append((number, try MailAddress(parsing: entry.value))) } catch {
                throw ConfigurationError("\(section.file): [mail] \(entry.key): \(error.description)")
            }
        }
        var addresses = identities.sorted { $0.number < $1.number }.map(\.address)
        let madeUp = madeUpSender(environment)
        if addresses.isEmpty, let fallback = fallbackIdentity(environment, madeUp: madeUp) { addresses.append(fallback) }

        let transportURL = section.value("transport")
        let sendmail = try section.path("sendmail", environment: environment)
        let requireTLS = try section.flag("tls") ?? true
        let caFile = try section.path("ca-file", environment: environment)
        let timeout = try section.seconds("command-timeout") ?? MailActivity.defaultCommandTimeout
        var transport: (any MailTransport)?
        do throws(MailError) {
            if let url = transportURL {
                transport = try SMTPTransport(url: url, requireTLS: requireTLS, passwordCommand: section.value("password-command"),
                                              caFile: caFile, commandTimeout: timeout)
            } else if let command = sendmail {
                transport = try SendmailTransport(commandLine: command, timeout: timeout)
            }
        } catch {
            throw ConfigurationError("\(section.file): [mail] \(transportURL != nil ? "transport" : "sendmail"): \(error.message)")
        }
        let data = locations.dataHome
        var settings = MailSettings(identities: addresses, transport: transport,
                                    drafts: Maildir(path: try section.path("drafts", environment: environment) ?? data + "/drafts"),
                                    sent: Maildir(path: try section.path("sent", environment: environment) ?? data + "/sent"),
                                    outbox: Maildir(path: try section.path("outbox", environment: environment) ?? data + "/outbox"))
        settings.madeUpSender = madeUp
        return settings
    }

    /// The text of `signature-file`, if set and readable.
    static func signature(_ section: ConfigSection, environment: [String: String]) throws(ConfigurationError) -> String? {
        guard let path = try section.path("signature-file", environment: environment),
              case .success(let bytes) = LocalFiles.contents(ofFile: path) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `$EMAIL`, or `user@host` as mutt does, when no identity is configured.
    private static func fallbackIdentity(_ environment: [String: String], madeUp: MailAddress?) -> MailAddress? {
        if let email = environment["EMAIL"], let address = try? MailAddress(parsing: email) { return address }
        return madeUp
    }

    /// `user@host` for the account share runs as: an address nobody chose.
    private static func madeUpSender(_ environment: [String: String]) -> MailAddress? {
        guard let user = environment["USER"] ?? environment["LOGNAME"] ?? accountName() else { return nil }
        return MailAddress.localUser(user)
    }

    /// The name of the account share runs as, from the password database
    /// (root under tmux or in CI has no `$USER`).
    private static func accountName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        let text = String(cString: name)
        return text.isEmpty ? nil : text
    }
}
