import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareMail

/// Mail settings from the config: identities, the transport, the folders.
enum MailSetup {
    /// Builds the settings; an unusable value is an error naming the key.
    static func settings(_ configuration: Configuration, environment: [String: String]) throws(ConfigurationError) -> MailSettings {
        let mail = configuration.mail
        let file = configuration.path ?? "config"
        var identities: [MailAddress] = []
        for (index, text) in mail.identities.enumerated() {
            do { identities.append(try MailAddress(parsing: text)) } catch {
                throw ConfigurationError("\(file): [mail] \(index == 0 ? "from" : "from-\(index + 1)"): \(error.description)")
            }
        }
        if identities.isEmpty, let fallback = fallbackIdentity(environment) { identities.append(fallback) }

        var transport: (any MailTransport)?
        do {
            if let url = mail.transport {
                transport = try SMTPTransport(url: url, requireTLS: mail.tls, passwordCommand: mail.passwordCommand, caFile: mail.caFile)
            } else if let command = mail.sendmail {
                transport = try SendmailTransport(commandLine: command)
            }
        } catch {
            throw ConfigurationError("\(file): [mail] \(mail.transport != nil ? "transport" : "sendmail"): \(error.message)")
        }
        let data = Locations(environment: environment).dataHome
        return MailSettings(identities: identities, transport: transport,
                            drafts: Maildir(path: mail.drafts ?? data + "/drafts"),
                            sent: Maildir(path: mail.sent ?? data + "/sent"),
                            outbox: Maildir(path: mail.outbox ?? data + "/outbox"))
    }

    /// `$EMAIL`, or `user@host` as mutt does, when no identity is configured.
    private static func fallbackIdentity(_ environment: [String: String]) -> MailAddress? {
        if let email = environment["EMAIL"], let address = try? MailAddress(parsing: email) { return address }
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

extension ShareCommand {
    /// The mail settings of the user's config (`configPath`, or the default
    /// file), for programs that make their own mail activities.
    public static func mailSettings(environment: [String: String] = ProcessInfo.processInfo.environment,
                                    configPath: String? = nil) throws -> MailSettings {
        let configuration = try Configuration.load(explicitPath: configPath, environment: environment)
        return try MailSetup.settings(configuration, environment: environment)
    }
}
