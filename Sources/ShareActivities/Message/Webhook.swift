import FoundationEssentials
import ShareCore
import ShareSupport

/// A team chat reached by a webhook: a `[message.NAME]` section.
///
/// - `slack`: Slack's and Mattermost's incoming webhooks: a JSON POST of
///   `{"text": …}`. They take text only, so a share with files is refused.
/// - `ntfy`: a plain POST of the text with a `Title`; each file is PUT as
///   an attachment (`Filename`), as ntfy takes them.
/// - `json`: one POST of a documented JSON body (README, "Webhooks"): the
///   subject, the text, the URLs, and each file with its bytes in base64.
/// - `telegram`: a bot's `sendMessage`, `sendPhoto` and `sendDocument` to
///   one `chat` (`ChatServices.swift`).
/// - `discord`: a Discord webhook: the text and the files in one multipart
///   request, whose message id comes back (`?wait=true`).
public struct Webhook: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case slack, ntfy, json, telegram, discord
    }

    /// The section's NAME: what `--to` and the form's To call it.
    public var name: String
    public var kind: Kind
    /// The address, or the command that prints it (`url-command`).
    public var url: String?
    public var urlCommand: String?
    public var caFile: String?
    /// `telegram`: the command that prints the bot's token, the chat it
    /// posts to, and the Bot API's address (Telegram's unless `api` says).
    public var tokenCommand: String?
    public var chat: String?
    public var api = "https://api.telegram.org"
    /// The config file the section is in, which `share --undo` reads again for its secret.
    public var configFile = "config"

    /// The largest file the `json` type carries (base64 in memory).
    static let jsonFileLimit = 25 * 1024 * 1024

    /// The webhooks of the `[message.NAME]` sections.
    static func all(_ sections: [ConfigSection], environment: [String: String]) throws(ConfigurationError) -> [Webhook] {
        var hooks: [Webhook] = []
        for section in sections {
            let name = String(section.name.dropFirst("message.".count))
            guard !name.isEmpty, !name.contains("@"), !name.contains(where: { $0 == "," || $0 == " " }) else {
                throw ConfigurationError("\(section.file): [\(section.name)]: a webhook's name has no '@', comma or space")
            }
            guard let typeEntry = section.entry("type") else {
                throw ConfigurationError("\(section.file): [\(section.name)] needs `type = slack`, `ntfy`, `json`, `telegram`, `discord` or `matrix`")
            }
            guard let kind = Kind(rawValue: typeEntry.value.lowercased()) else {
                throw section.error(typeEntry, "type is slack, ntfy, json, telegram, discord or matrix, not '\(typeEntry.value)'")
            }
            if kind == .telegram {
                hooks.append(try telegram(section, name: name, environment: environment))
                continue
            }
            let url = section.value("url")
            let command = section.value("url-command")
            guard (url == nil) != (command == nil) else {
                throw ConfigurationError("\(section.file): [\(section.name)] needs exactly one of url and url-command")
            }
            if let entry = section.entry("url") {
                let scheme = entry.value.prefix { $0 != ":" }.lowercased()
                guard scheme == "https" || scheme == "http", entry.value.contains("://") else {
                    throw section.error(entry, "url is an http:// or https:// address, not '\(entry.value)'")
                }
            }
            hooks.append(Webhook(name: name, kind: kind, url: url, urlCommand: command,
                                 caFile: try section.path("ca-file", environment: environment), configFile: LocalFiles.absolutePath(section.file)))
        }
        return hooks
    }

    /// One request of a delivery.
    struct Request {
        var method: String
        var headers: [(String, String)]
        var body: HTTPClient.Body
        /// What follows the address (`/sendMessage`, `?wait=true`).
        var path = ""
    }

    /// The files of `files` this webhook cannot take (all of them for
    /// Slack, those over the json type's limit).
    func refused(_ files: [XMPPDelivery.Upload]) -> [XMPPDelivery.Upload] {
        switch kind {
        case .slack: files
        case .json: files.filter { $0.size > Webhook.jsonFileLimit }
        case .ntfy: []
        case .telegram: files.filter { $0.size > Webhook.telegramFileLimit }
        case .discord: Webhook.overDiscordLimit(files)
        }
    }

    /// Why this webhook cannot take `files`, if it cannot: known before anything is sent.
    func refusal(of files: [XMPPDelivery.Upload]) -> String? {
        switch kind {
        case .slack:
            return files.first.map { "\(name) is a Slack-style webhook, which takes text only; \($0.name) cannot go there" }
        case .json:
            return files.first { $0.size > Webhook.jsonFileLimit }.map {
                "\($0.name) is \(ByteCount.words(Int64($0.size))); the json webhook \(name) carries files up to "
                    + ByteCount.words(Int64(Webhook.jsonFileLimit))
            }
        case .ntfy:
            return nil
        case .telegram, .discord:
            return chatRefusal(of: files)
        }
    }

    /// The requests that carry `text` (and `urls`, already in the text) and
    /// `files` to this webhook, or why it cannot take them.
    func requests(subject: String?, text: String, urls: [String], files: [XMPPDelivery.Upload]) throws(XMPPFailure) -> [Request] {
        if let refusal = refusal(of: files) { throw XMPPFailure(message: refusal) }
        switch kind {
        case .slack:
            let text = subject.map { "*\($0)*\n" + text } ?? text
            return [Request(method: "POST", headers: [("Content-Type", "application/json")],
                            body: .bytes(Array(JSONValue.object([("text", .string(text))]).serialized.utf8), type: nil))]
        case .ntfy:
            // The title is a header: one line of ASCII or RFC 2047 is all ntfy reads.
            let title = (subject ?? "share").split(whereSeparator: \.isNewline).joined(separator: " ")
            var requests: [Request] = []
            if !text.isEmpty || files.isEmpty {
                requests.append(Request(method: "POST", headers: [("Title", Webhook.headerValue(title)), ("Content-Type", "text/plain; charset=utf-8")],
                                        body: .bytes(Array(text.utf8), type: nil)))
            }
            for file in files {
                requests.append(Request(method: "PUT", headers: [("Title", Webhook.headerValue(title)), ("Filename", Webhook.headerValue(file.name))],
                                        body: .file(file.path, size: file.size)))
            }
            return requests
        case .json:
            var attached: [JSONValue] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file.path), data.count == file.size else {
                    throw XMPPFailure(message: "cannot read \(file.path)")
                }
                attached.append(.object([("name", .string(file.name)), ("type", .string(file.contentType)), ("size", .number(file.size)),
                                         ("base64", .string(data.base64EncodedString()))]))
            }
            let body = JSONValue.object([("subject", .optional(subject)), ("text", .string(text)),
                                         ("urls", .array(urls.map(JSONValue.string))), ("files", .array(attached))])
            return [Request(method: "POST", headers: [("Content-Type", "application/json")], body: .bytes(Array(body.serialized.utf8), type: nil))]
        case .telegram:
            return try telegramRequests(subject: subject, text: text, files: files)
        case .discord:
            return try discordRequests(subject: subject, text: text, files: files)
        }
    }

    /// A header value as ntfy reads it: ASCII as is, anything else as one RFC 2047 encoded-word.
    static func headerValue(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return "=?UTF-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }

    /// Sends the requests to the webhook's address: the ids of the
    /// messages made, where the service says them (Telegram, Discord).
    func deliver(_ requests: [Request], commandTimeout: Double) throws(XMPPFailure) -> [String] {
        let address = try self.address(commandTimeout: commandTimeout)
        var ids: [String] = []
        for request in requests {
            let response: HTTPClient.Response
            do {
                response = try HTTPClient(protocols: "http,https", caFile: caFile)
                    .perform(request.method, address + request.path, headers: request.headers, body: request.body)
            } catch {
                throw XMPPFailure(message: error.reason)
            }
            if let id = try answer(response) { ids.append(id) }
        }
        return ids
    }

    /// The address requests go to: `url`, `url-command`'s first line, or
    /// Telegram's Bot API with the token `token-command` prints. It is a
    /// secret: never repeated in a message.
    func address(commandTimeout: Double) throws(XMPPFailure) -> String {
        if kind == .telegram {
            let token: String
            do {
                token = try PasswordCommand.run(tokenCommand ?? "", timeout: commandTimeout, section: "message.\(name)").trimmingWhitespace()
            } catch {
                throw XMPPFailure(message: "[message.\(name)] token-command: " + error.message.replacingPrefix("password-command ", with: ""))
            }
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ":" || $0 == "_" || $0 == "-") }) else {
                throw XMPPFailure(message: "[message.\(name)] token-command's first line is not a bot token (NUMBER:SECRET, from @BotFather)")
            }
            return api + "/bot" + token
        }
        let address: String
        if let url {
            address = url
        } else {
            do {
                address = try PasswordCommand.run(urlCommand ?? "", timeout: commandTimeout, section: "message").trimmingWhitespace()
            } catch {
                throw XMPPFailure(message: "[message.\(name)] url-command: " + error.message.replacingPrefix("password-command ", with: ""))
            }
            // Its output is a secret: never repeated, even when it is not an address.
            let scheme = address.prefix { $0 != ":" }.lowercased()
            guard (scheme == "http" || scheme == "https") && address.contains("://") else {
                throw XMPPFailure(message: "[message.\(name)] url-command's first line is not an http:// or https:// address")
            }
        }
        return address
    }

    /// What an answer means: the message's id (Telegram, Discord), or
    /// nothing; a refusal in the service's words.
    func answer(_ response: HTTPClient.Response) throws(XMPPFailure) -> String? {
        switch kind {
        case .telegram, .discord: return try chatAnswer(response)
        case .slack, .ntfy, .json:
            do { try response.requireSuccess() } catch { throw XMPPFailure(message: error.reason) }
            return nil
        }
    }
}

extension String {
    /// The string with `prefix` replaced by `replacement`, when it starts with it.
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
