import FoundationEssentials
import ShareCore
import ShareSupport

/// Telegram bots and Discord webhooks as Message's `[message.NAME]`
/// sections: what each takes (sizes checked before anything is sent),
/// the requests their published APIs describe, their answers read for the
/// message's id, and their refusals in words that say what to do.
extension Webhook {
    /// The largest file a bot may send (Telegram's Bot API).
    static let telegramFileLimit = 50_000_000
    /// The largest picture `sendPhoto` takes; bigger ones go as documents.
    static let telegramPhotoLimit = 10_000_000
    /// The most a Discord webhook's message carries, its files together.
    static let discordLimit = 25_000_000
    /// The longest text each takes in one message.
    static let telegramTextLimit = 4096
    static let discordTextLimit = 2000

    /// A `type = telegram` section: `token-command` and `chat` (and `api`, `ca-file`).
    static func telegram(_ section: ConfigSection, name: String, environment: [String: String]) throws(ConfigurationError) -> Webhook {
        for key in ["url", "url-command"] where section.entry(key) != nil {
            throw ConfigurationError("\(section.file): [\(section.name)] (type = telegram) takes token-command and chat, not \(key)")
        }
        guard let command = section.value("token-command"), !command.trimmingWhitespace().isEmpty else {
            throw ConfigurationError("\(section.file): [\(section.name)] (type = telegram) needs `token-command = …` (a command that prints the bot's token)")
        }
        guard let chat = section.value("chat")?.trimmingWhitespace(), !chat.isEmpty, !chat.contains(where: { $0 == " " || $0 == "/" }) else {
            throw ConfigurationError("\(section.file): [\(section.name)] (type = telegram) needs `chat = …` (a chat id such as -1001234567890, or @channel)")
        }
        var hook = Webhook(name: name, kind: .telegram, url: nil, urlCommand: nil, caFile: try section.path("ca-file", environment: environment),
                           tokenCommand: command, chat: chat, configFile: LocalFiles.absolutePath(section.file))
        if let entry = section.entry("api") {
            let value = entry.value.trimmingWhitespace()
            let scheme = value.prefix { $0 != ":" }.lowercased()
            guard scheme == "https" || scheme == "http", value.contains("://") else {
                throw section.error(entry, "api is an http:// or https:// address (a Bot API server), not '\(entry.value)'")
            }
            hook.api = value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        return hook
    }

    /// The files that make a Discord message too big: the biggest first,
    /// until what is left fits.
    static func overDiscordLimit(_ files: [XMPPDelivery.Upload]) -> [XMPPDelivery.Upload] {
        var total = files.reduce(0) { $0 + $1.size }
        var over: [XMPPDelivery.Upload] = []
        for file in files.sorted(by: { $0.size > $1.size }) where total > discordLimit {
            over.append(file)
            total -= file.size
        }
        return over
    }

    /// Why Telegram or Discord cannot take `files`, if they cannot.
    func chatRefusal(of files: [XMPPDelivery.Upload]) -> String? {
        switch kind {
        case .telegram:
            return files.first { $0.size > Webhook.telegramFileLimit }.map {
                "\($0.name) is \(ByteCount.words(Int64($0.size))); Telegram bots send files up to \(ByteCount.words(Int64(Webhook.telegramFileLimit)))"
            }
        case .discord:
            let total = files.reduce(0) { $0 + $1.size }
            guard total > Webhook.discordLimit else { return nil }
            return "the files are \(ByteCount.words(Int64(total))); a Discord webhook's message carries up to \(ByteCount.words(Int64(Webhook.discordLimit)))"
        case .slack, .ntfy, .json:
            return nil
        }
    }

    /// The text as it goes: the subject in bold (Discord's Markdown) or on a line of its own.
    private func content(subject: String?, text: String, bold: Bool) -> String {
        guard let subject, !subject.isEmpty else { return text }
        let line = bold ? "**\(subject)**" : subject
        return text.isEmpty ? line : line + "\n" + text
    }

    /// `sendMessage` with the text, then `sendPhoto` for each picture of
    /// at most 10 MB and `sendDocument` for every other file (multipart,
    /// read from disk as it is sent).
    func telegramRequests(subject: String?, text: String, files: [XMPPDelivery.Upload]) throws(XMPPFailure) -> [Request] {
        let message = content(subject: subject, text: text, bold: false)
        if message.utf16.count > Webhook.telegramTextLimit {
            throw XMPPFailure(message: "the text is \(message.utf16.count) characters; Telegram takes \(Webhook.telegramTextLimit) in a message")
        }
        let chat = self.chat ?? ""
        var requests: [Request] = []
        if !message.isEmpty || files.isEmpty {
            let body = JSONValue.object([("chat_id", .string(chat)), ("text", .string(message))])
            requests.append(Request(method: "POST", headers: [("Content-Type", "application/json")], body: .json(body), path: "/sendMessage"))
        }
        for file in files {
            let photo = ["image/jpeg", "image/png", "image/webp"].contains(file.contentType.lowercased()) && file.size <= Webhook.telegramPhotoLimit
            let field = photo ? "photo" : "document"
            let parts: [HTTPClient.Body.Part] = [.text("chat_id", chat),
                                                 HTTPClient.Body.Part(name: field, value: .file(path: file.path, offset: 0, length: file.size),
                                                                      filename: file.name, type: file.contentType)]
            requests.append(Request(method: "POST", headers: [], body: .multipart(parts), path: photo ? "/sendPhoto" : "/sendDocument"))
        }
        return requests
    }

    /// One multipart request: `payload_json` with the text and the
    /// attachments' list, then `files[N]`, each read from disk as it is
    /// sent; `?wait=true`, so the message comes back with its id.
    func discordRequests(subject: String?, text: String, files: [XMPPDelivery.Upload]) throws(XMPPFailure) -> [Request] {
        let message = content(subject: subject, text: text, bold: true)
        if message.count > Webhook.discordTextLimit {
            throw XMPPFailure(message: "the text is \(message.count) characters; Discord takes \(Webhook.discordTextLimit) in a message")
        }
        let attachments = files.enumerated().map { index, file in JSONValue.object([("id", .number(index)), ("filename", .string(file.name))]) }
        let payload = JSONValue.object([("content", .string(message)), ("attachments", .array(attachments))])
        var parts = [HTTPClient.Body.Part(name: "payload_json", value: .bytes(Array(payload.serialized.utf8)), type: "application/json")]
        for (index, file) in files.enumerated() {
            parts.append(HTTPClient.Body.Part(name: "files[\(index)]", value: .file(path: file.path, offset: 0, length: file.size),
                                              filename: file.name, type: file.contentType))
        }
        return [Request(method: "POST", headers: [], body: .multipart(parts), path: "?wait=true")]
    }

    /// The message id in a Telegram or Discord answer, or the refusal in words.
    func chatAnswer(_ response: HTTPClient.Response) throws(XMPPFailure) -> String? {
        struct TelegramAnswer: Decodable {
            struct Result: Decodable { var message_id: Int? }
            struct Parameters: Decodable { var retry_after: Int? }
            var ok: Bool
            var result: Result?
            var description: String?
            var parameters: Parameters?
        }
        struct DiscordAnswer: Decodable {
            var id: String?
            var message: String?
            var retry_after: Double?
        }
        let service = kind == .telegram ? "Telegram" : "Discord"
        if kind == .telegram, let answer = response.decoded(TelegramAnswer.self) {
            if answer.ok, response.isSuccess, let id = answer.result?.message_id { return String(id) }
            throw XMPPFailure(message: refusal(service, status: response.status, said: answer.description,
                                               retryAfter: answer.parameters?.retry_after.map(Double.init)))
        }
        if kind == .discord, let answer = response.decoded(DiscordAnswer.self) {
            if response.isSuccess, let id = answer.id { return id }
            throw XMPPFailure(message: refusal(service, status: response.status, said: answer.message, retryAfter: answer.retry_after))
        }
        throw XMPPFailure(message: response.isSuccess ? "\(service) answered without the message's id: \(response.excerpt)"
            : refusal(service, status: response.status, said: response.excerpt, retryAfter: nil))
    }

    /// A refusal of `service` in words that say what to do.
    private func refusal(_ service: String, status: Int, said: String?, retryAfter: Double?) -> String {
        let words = said.map { ": \(Webhook.printable(String($0.prefix(200))))" } ?? ""
        switch (kind, status) {
        case (.telegram, 401), (.telegram, 403):
            return "\(service) refused the bot's token (HTTP \(status)\(words)); check [message.\(name)] token-command"
        case (.discord, 401), (.discord, 404):
            return "\(service) refused the webhook (HTTP \(status)\(words)); it was deleted, or [message.\(name)]'s address is wrong"
        case (_, 413):
            return "\(service) refused the message as too large (HTTP 413\(words))"
        case (_, 429):
            let wait = retryAfter.map { " (retry after \($0 == $0.rounded() ? String(Int($0)) : String($0)) s)" } ?? ""
            return "\(service) asks to slow down: too many messages\(wait)"
        default:
            return "\(service) answered HTTP \(status)\(words)"
        }
    }

    /// `text` with control characters shown as `?`, for a message.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }
}
