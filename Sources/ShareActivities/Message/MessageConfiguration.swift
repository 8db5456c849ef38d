import ShareCore
import ShareSupport

/// Message's `[message]` section: the XMPP account.
public struct MessageSettings: Sendable {
    /// An XMPP account: who, where, and how its password is found.
    public struct Account: Sendable {
        public var jid: String
        /// Prints the password (never stored, never in argv).
        public var passwordCommand: String
        public var caFile: String?
        /// `server = xmpps://…`: TLS from the first byte instead of STARTTLS.
        public var directTLS = false
        /// `server = xmpp://HOST:PORT`; otherwise the domain's SRV records.
        public var host: String?
        public var port: Int?
    }

    /// The account, when `jid` is set.
    public var account: Account?
    /// The team chats of the `[message.NAME]` sections.
    public var webhooks: [Webhook] = []
    /// The Matrix accounts (`type = matrix` sections).
    public var matrix: [MatrixAccount] = []
    /// Where Matrix tokens logged in for are kept (`$XDG_STATE_HOME/share/matrix`).
    public var matrixTokens = "matrix"
    /// How long `password-command` may run.
    public var commandTimeout = MessageActivity.defaultCommandTimeout
    /// How long the server may take to connect and to answer each step.
    public var networkTimeout = 30.0
}

extension MessageActivity {
    /// The keys Message reads.
    public nonisolated static let configKeys = [
        ConfigKeys(section: "message", keys: ["jid", "password-command", "server", "ca-file", "command-timeout"]),
        ConfigKeys(section: "message.*", keys: ["type", "url", "url-command", "ca-file", "token-command", "chat", "api", "homeserver", "user",
                                                "password-command"]),
    ]

    /// How long `password-command` may run (`[message] command-timeout`).
    public nonisolated static let defaultCommandTimeout = 30.0

    /// The settings in `section`; an unusable value is an error naming file and line.
    nonisolated static func settings(_ section: ConfigSection, webhooks: [ConfigSection] = [], stateHome: String = "",
                                     environment: [String: String]) throws(ConfigurationError) -> MessageSettings {
        var settings = MessageSettings()
        settings.commandTimeout = try section.seconds("command-timeout") ?? defaultCommandTimeout
        let isMatrix = { (section: ConfigSection) in section.value("type")?.lowercased().trimmingWhitespace() == "matrix" }
        settings.webhooks = try Webhook.all(webhooks.filter { !isMatrix($0) }, environment: environment)
        for matrix in webhooks where isMatrix(matrix) {
            settings.matrix.append(try MatrixAccount.parse(matrix, name: String(matrix.name.dropFirst("message.".count)), environment: environment))
        }
        settings.matrixTokens = stateHome + "/matrix"
        guard let jidEntry = section.entry("jid") else { return settings }
        let jid = jidEntry.value.trimmingWhitespace()
        guard XMPPAddress.isBareJID(jid) else {
            throw section.error(jidEntry, "jid is an XMPP address such as kim@example.com, not '\(jidEntry.value)'")
        }
        guard let command = section.value("password-command"), !command.trimmingWhitespace().isEmpty else {
            throw section.error(jidEntry, "jid is set but password-command is not: add `password-command = …` (for example `pass show xmpp`)")
        }
        var account = MessageSettings.Account(jid: jid, passwordCommand: command, caFile: try section.path("ca-file", environment: environment))
        if let server = section.entry("server") {
            guard let parsed = serverAddress(server.value) else {
                throw section.error(server, "server is xmpp://HOST[:PORT] (STARTTLS) or xmpps://HOST[:PORT] (direct TLS), not '\(server.value)'")
            }
            (account.directTLS, account.host, account.port) = parsed
        }
        settings.account = account
        return settings
    }

    /// `xmpp://HOST[:PORT]` or `xmpps://HOST[:PORT]` (an IPv6 address in brackets).
    nonisolated static func serverAddress(_ text: String) -> (directTLS: Bool, host: String, port: Int?)? {
        let lowered = text.lowercased()
        let directTLS: Bool
        let rest: Substring
        if lowered.hasPrefix("xmpps://") {
            directTLS = true
            rest = text.dropFirst(8)
        } else if lowered.hasPrefix("xmpp://") {
            directTLS = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        var host = rest
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
        }
        if let port, !(1...65535).contains(port) { return nil }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == "@" || $0 == " " || $0 == "?" || $0 == "#" }) else { return nil }
        return (directTLS, String(host), port)
    }
}
