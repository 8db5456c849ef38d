import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A real SMTP server for one test: `Tests/Support/smtp_server.py`
/// (aiosmtpd) on 127.0.0.1, run under `/usr/bin/python3`.
///
/// The server prints `READY <port>` once it listens; ``init(directory:arguments:)``
/// blocks on reading that line, so a test can connect as soon as it returns.
/// Each accepted message is on disk (`N.eml` + `N.json`) before the server
/// answers 250, so once `share` has exited, ``messages()`` sees everything
/// it delivered. The server serves until its stdin closes: ``stop()``.
final class SMTPServer {
    /// One message the server accepted.
    struct Message {
        /// Its number (1, 2, …), in the order accepted.
        var number: Int
        /// The bytes received, after SMTP dot-unstuffing.
        var raw: Data
        /// The SMTP envelope and session facts.
        var envelope: Envelope
        /// Where the bytes are stored (for check_mail.py).
        var file: URL
    }

    /// The envelope JSON the server writes next to each message.
    struct Envelope: Decodable, Equatable {
        var mailFrom: String
        var rcptTos: [String]
        var login: String?
        var tls: Bool
        /// The name the client greeted the server with (EHLO).
        var ehlo: String?
        /// The SASL mechanism of an OAuth2 login (`XOAUTH2`, `OAUTHBEARER`).
        var mechanism: String?

        enum CodingKeys: String, CodingKey {
            case mailFrom = "mail_from"
            case rcptTos = "rcpt_tos"
            case login
            case tls
            case ehlo
            case mechanism
        }
    }

    /// The interpreter that has Debian's python3-aiosmtpd.
    static let python = ServerScript.python

    /// The port the server listens on (127.0.0.1).
    var port: Int { server.port }
    /// Where accepted messages are stored.
    let directory: URL
    private let server: ServerScript

    /// Starts a server storing messages in a fresh folder under `directory`.
    /// - Parameter arguments: mode options: `--rcpt-reply TEXT`, `--data-reply TEXT`,
    ///   `--drop-mid-data`, `--starttls CERT KEY`, `--auth USER:PASS`.
    init(directory base: URL, arguments: [String] = []) throws {
        directory = base.appendingPathComponent("smtp-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = try ServerScript(script: "smtp_server.py", arguments: [directory.path] + arguments,
                                  logFile: base.appendingPathComponent(directory.lastPathComponent + ".log"))
    }

    /// Stops the server: closes its stdin and waits for it to exit.
    func stop() { server.stop() }

    /// The server's stderr so far, for failure messages.
    var log: String { server.log }

    /// The lines of `auth.log` (an `--oauth` server's logins: `accepted
    /// XOAUTH2 USER`, `refused OAUTHBEARER USER`), in order.
    func logins() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("auth.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The messages accepted so far, in order.
    func messages() throws -> [Message] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let numbers = names.compactMap { name -> Int? in
            guard name.hasSuffix(".eml") else { return nil }
            return Int(name.dropLast(4))
        }.sorted()
        let decoder = JSONDecoder()
        return try numbers.map { number in
            let file = directory.appendingPathComponent("\(number).eml")
            let envelope = try decoder.decode(Envelope.self, from: Data(contentsOf: directory.appendingPathComponent("\(number).json")))
            return Message(number: number, raw: try Data(contentsOf: file), envelope: envelope, file: file)
        }
    }

    /// Parses `message` with Python's email package (check_mail.py).
    func check(_ message: Message) throws -> MailCheck {
        try MailCheck.run(file: message.file)
    }

    /// The one message the server accepted, and check_mail.py's reading of
    /// it, which must find no defects; the test stops here when the server
    /// holds none or more than one.
    func onlyMessage(sourceLocation: SourceLocation = #_sourceLocation) throws -> (message: Message, check: MailCheck) {
        let received = try messages()
        try #require(received.count == 1, "the server received \(received.count) messages; log: \(log)", sourceLocation: sourceLocation)
        let check = try self.check(received[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)", sourceLocation: sourceLocation)
        return (received[0], check)
    }
}

enum SMTPServerError: Error {
    case notStarted
}

/// What check_mail.py found in a message (Python's `email`, policy.default).
struct MailCheck: Decodable {
    struct Mailbox: Decodable, Equatable, CustomStringConvertible {
        var name: String
        var addr: String
        var description: String { name.isEmpty ? addr : "\(name) <\(addr)>" }
    }

    struct Part: Decodable {
        var type: String
        var cte: String?
        var filename: String?
        var sha256: String?
        var size: Int?
        var text: String?
        var charset: String?

        /// The text with CRLF line ends normalised to LF.
        var normalizedText: String? { text?.replacingOccurrences(of: "\r\n", with: "\n") }
    }

    var defects: [String]
    /// Header name (lower case) → every value, decoded.
    var headers: [String: [String]]
    /// from/to/cc/bcc → mailboxes.
    var addresses: [String: [Mailbox]]
    /// Every part of `message.walk()`, the multipart containers included.
    var parts: [Part]
    var maxLine: Int
    var maxHeaderLine: Int
    var bareLf: Int
    var longestEncodedWord: Int
    var hasBccHeader: Bool

    enum CodingKeys: String, CodingKey {
        case defects, headers, addresses, parts
        case maxLine = "max_line"
        case maxHeaderLine = "max_header_line"
        case bareLf = "bare_lf"
        case longestEncodedWord = "longest_encoded_word"
        case hasBccHeader = "has_bcc_header"
    }

    /// The one value of header `name`, or `nil`.
    func header(_ name: String) -> String? {
        guard let values = headers[name.lowercased()], values.count == 1 else { return nil }
        return values[0]
    }

    /// The leaf parts that carry a file name.
    var attachments: [Part] { parts.filter { $0.filename != nil } }

    /// The leaf text parts that are not attachments.
    var textParts: [Part] { parts.filter { $0.text != nil } }

    /// Runs check_mail.py on `file` and decodes its report.
    static func run(file: URL) throws -> MailCheck {
        let script = ServerScript.support.appendingPathComponent("check_mail.py")
        let run = try Share.run(SMTPServer.python, [script.path, file.path],
                                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"],
                                directory: file.deletingLastPathComponent())
        try #require(run.status == 0, "check_mail.py \(file.path) failed: \(run.err)")
        do {
            return try JSONDecoder().decode(MailCheck.self, from: run.stdout)
        } catch {
            Issue.record("check_mail.py printed something that is not its report: \(error)\n\(run.out)")
            throw error
        }
    }
}

/// Kills `pid` if ``finish()`` is not called within `seconds`: a hung
/// helper fails one test instead of stalling the suite. Not a sleep: the
/// test never waits on it.
final class ProcessWatchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var fired = false

    init(pid: Int32, seconds: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [self] in
            lock.lock()
            defer { lock.unlock() }
            if !done {
                fired = true
                kill(pid, SIGKILL)
            }
        }
    }

    /// Disarms the watchdog; returns whether it had already killed the process.
    func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        done = true
        return fired
    }
}
