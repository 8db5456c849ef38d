import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Delivery over SMTP with libcurl: `smtp://` with STARTTLS (required
/// unless `tls` is off) or `smtps://` with implicit TLS, AUTH when the URL
/// has a user, certificate checks always on.
public struct SMTPTransport: MailTransport {
    /// The server URL without user or password (`smtp://mail.example.com:587`).
    public let serverURL: String
    /// The user name from the URL, if any.
    public var username: String? { login.username }
    /// Whether STARTTLS is required on `smtp://`.
    public let requireTLS: Bool
    /// How the server is logged in to: a password or an OAuth2 token, from a command.
    public let login: MailLogin
    /// A CA bundle to trust instead of the system's.
    public let caFile: String?

    /// Reads a transport URL: `smtp://[user@]host[:port]` or `smtps://…`.
    /// - Throws: ``MailError`` for another scheme, a missing host, or a password in the URL.
    /// `login` is how to log in (a password from `password-command` by
    /// default); `section` names the config section its keys are in.
    public init(url: String, requireTLS: Bool = true, passwordCommand: String? = nil, caFile: String? = nil,
                commandTimeout: Double = 30, login method: MailLogin.Method? = nil, section: String = "mail") throws(MailError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "smtp" || scheme == "smtps" else {
            throw MailError(.configuration, "transport '\(url)' is not an smtp:// or smtps:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw MailError(.configuration, "transport '\(url)' names no server")
        }
        if components.password != nil {
            throw MailError(.configuration, "transport '\(url)' has a password in it; use password-command instead")
        }
        let port = components.port.map { ":\($0)" } ?? ""
        let bracketed = host.contains(":") ? "[\(host)]" : host
        serverURL = "\(scheme)://\(bracketed)\(port)"
        login = MailLogin(username: components.user,
                          method: method ?? .password(command: passwordCommand), section: section, commandTimeout: commandTimeout)
        self.requireTLS = requireTLS
        self.caFile = caFile
    }

    public var summary: String { serverURL }

    public func send(_ file: MessageFile, envelope: Envelope) throws(MailError) -> String {
        try send(envelope: envelope) { () throws(MailError) -> any MessageReading in try TransmissionReader(file) }
    }

    /// Sends what `reader` hands out (a draft still being written), once:
    /// a second try needs a reader that has handed out nothing yet.
    func send(streaming reader: any MessageReading, envelope: Envelope) throws(MailError) -> String {
        try send(envelope: envelope) { () throws(MailError) -> any MessageReading in
            guard reader.bytesRead == 0 else { throw MailError(.rejected, "\(serverURL) dropped the message part way; it is kept in drafts") }
            return reader
        }
    }

    /// One delivery, the message's bytes from `makeReader` (made again for a second try).
    private func send(envelope: Envelope, makeReader: () throws(MailError) -> any MessageReading) throws(MailError) -> String {
        try CurlRuntime.start()  // before the recipients' list, which libcurl makes
        var login = self.login
        // OAuth2 names the account in the SASL string: the sender's address when the URL names no user.
        if login.isOAuth2 && login.username == nil { login.username = envelope.sender }
        var recipients: UnsafeMutablePointer<curl_slist>?
        for recipient in envelope.recipients { recipients = share_curl_slist_append(recipients, "<\(recipient)>") }
        defer { share_curl_slist_free_all(recipients) }
        // An OAuth2 token the server calls stale (334 with an error, then 535) is asked
        // for once more, as a refresh command makes a new one: the login failed before
        // MAIL FROM, so nothing was sent and trying again sends nothing twice.
        var attempt = 0
        while true {
            attempt += 1
            let reader = ReaderBox(try makeReader())
            var secret = try login.secret()
            defer { secret = nil }
            let (code, log, curlMessage) = try session(greeting: envelope.sender) { handle in
                share_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(envelope.sender)>")
                share_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients)
                share_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
                login.apply(secret, to: handle)
                share_curl_setopt_read_function(handle) { buffer, size, count, context in
                    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
                    let box = Unmanaged<ReaderBox>.fromOpaque(context).takeUnretainedValue()
                    let read = box.reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
                    return read < 0 ? Int(CURL_READFUNC_ABORT) : read
                }
                share_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(reader).toOpaque())
            }
            withExtendedLifetime(reader) {}
            if code == CURLE_OK { return log.lastReply }
            if code == CURLE_LOGIN_DENIED && secret != nil {
                if login.isOAuth2 && attempt == 1 { continue }
                throw login.refused(serverURL, reply: log.refusal?.reply ?? "")
            }
            throw SMTPTransport.failure(code: code, curlMessage: curlMessage, log: log, serverURL: serverURL)
        }
    }

    /// The largest message the server takes, as its greeting's `SIZE`
    /// says (RFC 1870): a session that greets (EHLO, STARTTLS where
    /// required), sends NOOP and leaves, without logging in, so no
    /// password is asked for. `nil` when the server states no limit.
    public func sizeLimit(greeting sender: String) throws(MailError) -> Int? {
        let (code, log, curlMessage) = try session(greeting: sender) { handle in
            share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP")
            share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 15)
            share_curl_setopt_long(handle, CURLOPT_TIMEOUT, 30)
            // NOOP's answer is not wanted: only the greeting's lines, which the log keeps.
            share_curl_setopt_write_function(handle) { _, size, count, _ in size * count }
        }
        // The greeting came before NOOP: its SIZE counts even if NOOP was refused.
        if let limit = log.sizeLimit { return limit == 0 ? nil : limit }
        guard code == CURLE_OK else { throw SMTPTransport.failure(code: code, curlMessage: curlMessage, log: log, serverURL: serverURL) }
        return nil
    }

    /// One libcurl session with the server, greeting it as `sender`'s
    /// domain: TLS as configured and certificates checked, the commands and
    /// replies kept in the log; `setUp` adds what the session does. The
    /// result code, the log and libcurl's words for a failure.
    private func session(greeting sender: String,
                         setUp: (UnsafeMutableRawPointer) -> Void) throws(MailError) -> (CURLcode, ServerLog, String) {
        try CurlRuntime.start()
        guard let handle = share_curl_easy_init() else { throw MailError(.io, "libcurl could not start") }
        defer { share_curl_easy_cleanup(handle) }
        let log = ServerLog()
        let (code, failure) = MailServerTransfer.perform(on: handle, url: SMTPTransport.url(serverURL, greeting: sender),
                                                         tls: requireTLS || serverURL.hasPrefix("smtps"), caFile: caFile,
                                                         transcript: log.append, setUp: setUp)
        // Forget the password or token as soon as the connection is done.
        MailLogin.forget(on: handle)
        return (code, log, failure)
    }

    /// The URL libcurl is given: the configured one, with the sender's
    /// domain as its path when it has none, which libcurl greets the server
    /// with (EHLO). Without it libcurl sends the machine's bare host name,
    /// which servers may refuse (RFC 5321 §4.1.1.1 asks for a fully
    /// qualified domain or an address literal).
    static func url(_ serverURL: String, greeting sender: String) -> String {
        guard let scheme = serverURL.firstRange(of: "://") else { return serverURL }
        let rest = serverURL[scheme.upperBound...]
        if let slash = rest.firstIndex(of: "/"), rest.index(after: slash) < rest.endIndex { return serverURL }
        let domain = sender.split(separator: "@").last.map(String.init) ?? ""
        let greeting = domain.isEmpty || domain == sender || !domain.allSatisfy({ $0.isASCII }) ? "[127.0.0.1]" : domain
        return (serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL) + "/" + greeting
    }

    /// The error for a failed transfer, in the words a person can act on:
    /// the server's reply that failed (not the last of the session, which
    /// is the goodbye), with the recipient it refused; a connection that
    /// closed during DATA; an untrusted certificate and what to set.
    static func failure(code: CURLcode, curlMessage: String, log: ServerLog, serverURL: String) -> MailError {
        if code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE {
            return MailError(.rejected, "certificate verification failed for \(serverURL) (set ca-file for a private server): \(curlMessage)")
        }
        if code == CURLE_USE_SSL_FAILED {
            return MailError(.rejected, "\(serverURL) does not offer STARTTLS; share will not send in clear text (set tls = off only for a local test server)")
        }
        if code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_OPERATION_TIMEDOUT {
            return MailError(.rejected, "cannot reach \(serverURL): \(curlMessage)")
        }
        if let refusal = log.refusal {
            let recipient = refusal.command.uppercased().hasPrefix("RCPT TO:")
                ? " (recipient " + refusal.command.dropFirst("RCPT TO:".count).trimmingWhitespace() + ")" : ""
            let kind: MailError.Kind = refusal.reply.hasPrefix("4") ? .temporary : .rejected
            let verdict = kind == .temporary ? "refused for now" : "did not accept the message"
            return MailError(kind, "\(refusal.reply)\(recipient) — \(serverURL) \(verdict)")
        }
        if log.lastCommand.uppercased() == "DATA" || log.lastReply.hasPrefix("354") {
            return MailError(.rejected, "the connection closed during DATA (\(curlMessage)); \(serverURL) may not have the message")
        }
        return MailError(.rejected, "\(serverURL) did not accept the message: \(curlMessage)")
    }
}

/// A reader behind one pointer, for libcurl's read callback.
final class ReaderBox {
    let reader: any MessageReading
    init(_ reader: any MessageReading) { self.reader = reader }
}

/// The session as it went: the server's reply lines and the commands sent,
/// kept for error messages (bounded). Never the message itself: libcurl
/// reports only the commands and replies as headers.
final class ServerLog {
    private var replies: [String] = []
    /// The first refusal (a 4xx or 5xx reply) and the command it answered.
    private(set) var refusal: (reply: String, command: String)?
    /// The last command sent (`RCPT TO:<…>`, `DATA`).
    private(set) var lastCommand = ""
    /// Between AUTH and the reply that ends it, when what is sent is a credential.
    private var authenticating = false

    func append(_ bytes: UnsafeRawBufferPointer, sent: Bool) {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
        guard !text.isEmpty else { return }
        if sent {
            // AUTH lines carry credentials, and so do the lines that answer its
            // 334 challenges (a password, a token): never kept.
            if text.uppercased().hasPrefix("AUTH") { authenticating = true }
            lastCommand = authenticating ? "AUTH" : text
            return
        }
        if !text.hasPrefix("334") { authenticating = false }
        replies.append(text)
        if replies.count > 20 { replies.removeFirst(replies.count - 20) }
        // "550-…" continues; "550 …" ends a reply. The first refusal is the one that failed.
        if refusal == nil, let first = text.first, first == "4" || first == "5", text.count >= 4,
           text[text.index(text.startIndex, offsetBy: 3)] != "-" {
            refusal = (text, lastCommand)
        }
    }

    /// The last reply line the server sent.
    var lastReply: String { replies.last ?? "" }

    /// The `SIZE` the server's last greeting stated (`250-SIZE 10240000`;
    /// 0 for no fixed limit), if it stated one.
    var sizeLimit: Int? {
        for reply in replies.reversed() {
            for line in reply.split(whereSeparator: \.isNewline) {
                let words = line.dropFirst(4).split(separator: " ")
                guard line.hasPrefix("250"), words.first?.uppercased() == "SIZE" else { continue }
                return words.count > 1 ? Int(words[1]) : 0
            }
        }
        return nil
    }
}

/// Loads libcurl on first use (and runs `curl_global_init` once).
enum CurlRuntime {
    static func start() throws(MailError) {
        var error = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&error, error.count) == 0 else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MailError(.configuration, "cannot load libcurl for SMTP (\(reason)); install it: apt install libcurl4")
        }
    }
}
