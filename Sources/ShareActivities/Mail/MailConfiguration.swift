#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareMail
import ShareSupport

/// Mail's `[mail]` section: identities, the transport, the folders, the signature.
extension MailActivity {
    /// The keys an account reads, in `[mail]` and in each `[mail.NAME]`.
    nonisolated static let accountKeys = ["from", "transport", "tls", "ca-file", "password-command", "auth", "token-command",
                                          "imap", "imap-password-command",
                                          "sendmail", "drafts", "sent", "outbox", "signature-file", "command-timeout", "markdown",
                                          "undo-send", "link-over", "pgp-key", "pgp-sign", "pgp-encrypt"]

    /// The keys Mail reads (SPEC §8, §9); `from-2`, `from-3` … are more
    /// identities; `[mail.NAME]` is an account with any key of `[mail]`.
    public nonisolated static let configKeys = [
        ConfigKeys(section: "mail", keys: accountKeys + ["default"], numberedPrefixes: ["from-"]),
        ConfigKeys(section: "mail.*", keys: accountKeys, numberedPrefixes: ["from-"]),
    ]

    /// How long `password-command` and `sendmail` may run (`[mail] command-timeout`).
    public nonisolated static let defaultCommandTimeout = 30.0

    /// The settings in `section` and the accounts `[mail.NAME]`
    /// (`accounts`); an unusable value is an error naming the key.
    ///
    /// `[mail]` is an account of its own when it has a `from`, or when no
    /// `[mail.NAME]` section exists (then with `$EMAIL`, else a made-up
    /// `user@host`, when it has none). Each `[mail.NAME]` takes every key
    /// of `[mail]` it does not set, but not its identities. `[mail] default
    /// = NAME` is the account used when nothing else says; else `[mail]`'s
    /// own, else the first by name. The drafts and the outbox are the
    /// default account's, and shared: a message in them goes through the
    /// account whose identity is its From.
    public static func settings(_ section: ConfigSection, accounts named: [ConfigSection] = [], locations: Locations,
                                environment: [String: String]) throws(ConfigurationError) -> MailSettings {
        let ownIdentities = section.entries.contains { $0.key == "from" || $0.key.hasPrefix("from-") }
        let madeUp = madeUpSender(environment)
        var accounts: [(account: MailAccount, section: ConfigSection)] = []
        if ownIdentities || named.isEmpty {
            var identities = try identities(section)
            if identities.isEmpty, let fallback = fallbackIdentity(environment, madeUp: madeUp) { identities.append(fallback) }
            accounts.append((try account(section, name: "mail", identities: identities, locations: locations, environment: environment), section))
        }
        for subsection in named {
            let name = String(subsection.name.dropFirst("mail.".count))
            let merged = inheriting(subsection, from: section)
            let identities = try identities(merged)
            guard !identities.isEmpty else {
                throw ConfigurationError("\(section.file): [\(subsection.name)] has no from: add `from = Name <address>` for the account")
            }
            accounts.append((try account(merged, name: name, identities: identities, locations: locations, environment: environment), merged))
        }
        if let entry = section.entry("default") {
            let wanted = entry.value.trimmingWhitespace()
            guard let index = accounts.firstIndex(where: { $0.account.name == wanted }) else {
                throw section.error(entry, "default names an account [mail.NAME]; there is no [mail.\(wanted)] (accounts: "
                    + accounts.map(\.account.name).joined(separator: ", ") + ")")
            }
            accounts.insert(accounts.remove(at: index), at: 0)
        }
        // Never empty: [mail] is an account when no [mail.NAME] is.
        let first = accounts[0]
        let data = locations.dataHome
        let folders = first.section
        var settings = MailSettings(account: first.account,
                                    drafts: Maildir(path: try localFolder(folders, "drafts", environment: environment) ?? data + "/drafts"),
                                    outbox: Maildir(path: try localFolder(folders, "outbox", environment: environment) ?? data + "/outbox"))
        settings.accounts = accounts.map(\.account)
        // The form's From offers every identity, the default account's first.
        var seen = Set<String>()
        settings.identities = accounts.flatMap(\.account.identities).filter { seen.insert($0.addrSpec.lowercased()).inserted }
        settings.madeUpSender = madeUp
        return settings
    }

    /// `subsection` with every entry of `base` it does not set, except
    /// `base`'s identities and `default`.
    static func inheriting(_ subsection: ConfigSection, from base: ConfigSection) -> ConfigSection {
        let own = Set(subsection.entries.map(\.key))
        let inherited = base.entries.filter { entry in
            !own.contains(entry.key) && entry.key != "default" && entry.key != "from" && !entry.key.hasPrefix("from-")
        }
        return ConfigSection(file: subsection.file, name: subsection.name, entries: subsection.entries + inherited)
    }

    /// The identities `from`, `from-2`, `from-3` … of `section`, in order.
    static func identities(_ section: ConfigSection) throws(ConfigurationError) -> [MailAddress] {
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
                throw ConfigurationError("\(section.file): [\(section.name)] \(entry.key): \(error.description)")
            }
        }
        return identities.sorted { $0.number < $1.number }.map(\.address)
    }

    /// One account from its section (`[mail]`, or `[mail.NAME]` with what it inherits).
    static func account(_ section: ConfigSection, name: String, identities: [MailAddress], locations: Locations,
                        environment: [String: String]) throws(ConfigurationError) -> MailAccount {
        let transportURL = section.value("transport")
        let sendmail = try section.path("sendmail", environment: environment)
        let requireTLS = try section.flag("tls") ?? true
        let caFile = try section.path("ca-file", environment: environment)
        let timeout = try section.seconds("command-timeout") ?? MailActivity.defaultCommandTimeout
        let login = try loginMethod(section)
        var transport: (any MailTransport)?
        do throws(MailError) {
            if let url = transportURL {
                transport = try SMTPTransport(url: url, requireTLS: requireTLS, caFile: caFile, commandTimeout: timeout, login: login,
                                              section: section.name)
            } else if let command = sendmail {
                transport = try SendmailTransport(commandLine: command, timeout: timeout)
            }
        } catch {
            throw ConfigurationError("\(section.file): [\(section.name)] \(transportURL != nil ? "transport" : "sendmail"): \(error.message)")
        }
        let imapSent = try imapFolder(section, key: "sent", specialUse: "\\Sent", login: login, identities: identities,
                                      requireTLS: requireTLS, caFile: caFile, timeout: timeout)
        let imapDrafts = try imapFolder(section, key: "drafts", specialUse: "\\Drafts", login: login, identities: identities,
                                        requireTLS: requireTLS, caFile: caFile, timeout: timeout)
        // With an IMAP Sent folder, the local Maildir keeps only the copies the server has not stored yet.
        let sent = Maildir(path: imapSent != nil ? locations.dataHome + "/imap-pending"
            : try section.path("sent", environment: environment) ?? locations.dataHome + "/sent")
        var account = MailAccount(name: name, identities: identities, transport: transport, sent: sent, imapSent: imapSent, imapDrafts: imapDrafts)
        account.signatureFile = try section.path("signature-file", environment: environment)
        return account
    }

    /// The local Maildir `key` names (`drafts`, `outbox`), unless it is an IMAP folder.
    static func localFolder(_ section: ConfigSection, _ key: String, environment: [String: String]) throws(ConfigurationError) -> String? {
        if section.value(key).map(isIMAPFolder) == true { return nil }
        return try section.path(key, environment: environment)
    }

    static func isIMAPFolder(_ value: String) -> Bool { value.trimmingWhitespace().lowercased().hasPrefix("imap:") }

    /// `sent = imap:Sent` or `imap:auto` (`drafts` alike): the folder on the
    /// account's `imap` server; `nil` for a Maildir path.
    static func imapFolder(_ section: ConfigSection, key: String, specialUse: String, login: MailLogin.Method, identities: [MailAddress],
                           requireTLS: Bool, caFile: String?, timeout: Double) throws(ConfigurationError) -> IMAPFolder? {
        guard let entry = section.entry(key), isIMAPFolder(entry.value) else { return nil }
        let folder = String(entry.value.trimmingWhitespace().dropFirst(5)).trimmingWhitespace()
        guard !folder.isEmpty else {
            throw section.error(entry, "\(key) = imap: needs a folder: imap:auto (the server's \(specialUse) folder) or imap:NAME")
        }
        guard let imap = section.entry("imap") else {
            throw section.error(entry, "\(key) = \(entry.value) needs imap = imaps://USER@HOST[:PORT] in [\(section.name)]")
        }
        // The IMAP login: the account's OAuth2 token, else imap-password-command, else password-command.
        let method: MailLogin.Method
        switch login {
        case .oauth2: method = login
        case .password(let command): method = .password(command: section.value("imap-password-command") ?? command)
        }
        do {
            var made = try IMAPFolder(url: imap.value.trimmingWhitespace(), name: folder.lowercased() == "auto" ? .specialUse(specialUse) : .named(folder),
                                      login: method, requireTLS: requireTLS, caFile: caFile, section: section.name, commandTimeout: timeout)
            if made.login.username == nil { made.login.username = identities.first?.addrSpec }
            return made
        } catch {
            throw section.error(imap, "imap: \(error.message)")
        }
    }

    /// `auth` with `token-command`, or `password-command`: how the server is logged in to.
    static func loginMethod(_ section: ConfigSection) throws(ConfigurationError) -> MailLogin.Method {
        let token = section.value("token-command").flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        guard let entry = section.entry("auth") else {
            // A token command alone says OAuth2.
            if let token { return .oauth2(mechanism: .any, tokenCommand: token) }
            return .password(command: section.value("password-command"))
        }
        let word = entry.value.trimmingWhitespace().lowercased()
        if word == "password" { return .password(command: section.value("password-command")) }
        guard let mechanism = MailLogin.OAuth2Mechanism(rawValue: word) else {
            throw section.error(entry, "auth is password, oauth2, xoauth2 or oauthbearer, not '\(entry.value)'")
        }
        guard let token else {
            throw section.error(entry, "auth = \(word) needs token-command: a command that prints an OAuth2 access token "
                + "(such as `oama access you@example.com` or `mutt_oauth2.py TOKENFILE`)")
        }
        return .oauth2(mechanism: mechanism, tokenCommand: token)
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
