import Foundation
import Testing

/// A temporary world for a mail test: ``Fixtures`` plus the three Maildirs,
/// a config file that points at them, and helpers to run `share` with it.
final class MailWorld {
    /// The default identity of every test config.
    static let fromLine = "김민수 <kim@example.com>"
    static let fromAddress = "kim@example.com"

    let fixtures: Fixtures
    let drafts: URL
    let sent: URL
    let outbox: URL
    /// The config file; rewritten by ``configure(_:)``.
    let config: URL

    init() throws {
        fixtures = try Fixtures()
        drafts = fixtures.root.appendingPathComponent("Drafts", isDirectory: true)
        sent = fixtures.root.appendingPathComponent("Sent", isDirectory: true)
        outbox = fixtures.root.appendingPathComponent("Outbox", isDirectory: true)
        config = fixtures.root.appendingPathComponent("mail.conf")
        try configure([])
    }

    var root: URL { fixtures.root }

    /// Writes the config: the identity, the Maildirs, and `lines` (transport and friends).
    func configure(_ lines: [String]) throws {
        // Send at once unless a test is about undo send: a countdown would only slow the others.
        let undo = lines.contains { $0.hasPrefix("undo-send") } ? [] : ["undo-send = 0"]
        // A folder the lines set (an IMAP one) is theirs.
        let folders = [("drafts", drafts), ("sent", sent), ("outbox", outbox)].filter { key, _ in
            !lines.contains { $0.hasPrefix(key + " ") || $0.hasPrefix(key + "=") }
        }.map { "\($0) = \($1.path)" }
        let text = (["[mail]", "from = \(MailWorld.fromLine)"] + lines + undo + folders).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: config)
    }

    /// Points the config at a plain-text SMTP server on 127.0.0.1.
    func use(_ server: SMTPServer) throws {
        try configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off"])
    }

    /// Runs `share --config CONFIG ARGUMENTS…` in the fixtures folder.
    func share(_ arguments: [String]) throws -> ShareRun {
        try fixtures.share(["--config", config.path] + arguments)
    }

    /// Writes a file into the fixtures folder.
    func file(_ name: String, _ contents: Data) throws -> URL {
        try fixtures.file(name, contents)
    }

    /// The messages of a Maildir's subfolder (`new`, `cur` or `tmp`), by name.
    func messages(in folder: URL, _ subfolder: String) -> [URL] {
        let directory = folder.appendingPathComponent(subfolder, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Every message of a Maildir, in `tmp`, `new` and `cur`.
    func allMessages(in folder: URL) -> [URL] {
        ["tmp", "new", "cur"].flatMap { messages(in: folder, $0) }
    }

    /// A short listing of the three folders for failure messages.
    var folders: String {
        [("drafts", drafts), ("sent", sent), ("outbox", outbox)].map { name, url in
            "\(name): " + allMessages(in: url).map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent }
                .joined(separator: " ")
        }.joined(separator: "; ")
    }
}

extension MailWorld {
    /// A fresh world and a fresh SMTP server (smtp_server.py with
    /// `arguments`, see ``SMTPServer``) that its config points at, in plain
    /// text. The caller stops the server.
    static func withServer(_ arguments: [String] = []) throws -> (MailWorld, SMTPServer) {
        let world = try MailWorld()
        return (world, try world.startServer(arguments))
    }

    /// Starts an SMTP server (smtp_server.py with `arguments`) in this world
    /// and points the config at it, in plain text. The caller stops it.
    func startServer(_ arguments: [String] = []) throws -> SMTPServer {
        let server = try SMTPServer(directory: root, arguments: arguments)
        do {
            try use(server)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// What one `share` run sent: the run, the one message the server
    /// accepted, and check_mail.py's reading of it.
    struct Delivery {
        var run: ShareRun
        var message: SMTPServer.Message
        var check: MailCheck
    }

    /// Runs `share --config CONFIG ARGUMENTS…`, which must exit 0 having sent
    /// `server` one message with no defects (``SMTPServer/onlyMessage(sourceLocation:)``).
    func send(_ arguments: [String], to server: SMTPServer, sourceLocation: SourceLocation = #_sourceLocation) throws -> Delivery {
        let run = try share(arguments)
        #expect(run.status == 0, "stderr: \(run.err)", sourceLocation: sourceLocation)
        let (message, check) = try server.onlyMessage(sourceLocation: sourceLocation)
        return Delivery(run: run, message: message, check: check)
    }
}

extension MailWorld {
    /// Expects each of `folders` (of drafts, sent and the outbox) to hold no
    /// message; `reason` leads the failure's listing of the folders.
    func expectEmpty(_ folders: URL..., because reason: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        for folder in folders {
            #expect(allMessages(in: folder).isEmpty, "\(reason.isEmpty ? "" : reason + ": ")\(self.folders)", sourceLocation: sourceLocation)
        }
    }

    /// Expects `run` (of `share --json …`) to have failed (exit 3), saying
    /// each of `words` on stderr, and kept its message in drafts: the one
    /// message of drafts' `cur`, flagged D, and nothing in sent or the
    /// outbox. Returns the draft.
    @discardableResult
    func expectFailedKeepingDraft(_ run: ShareRun, saying words: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try expectKept(run, status: 3, outcome: "failed", saying: words, in: drafts, "cur", flagged: "D", sourceLocation: sourceLocation)
    }

    /// Expects `run` (of `share --json …`) to have queued its message (exit
    /// 1), saying each of `words` on stderr: the one message of the outbox,
    /// in its `new`, and nothing in drafts or sent. Returns the queued
    /// message.
    @discardableResult
    func expectQueued(_ run: ShareRun, saying words: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try expectKept(run, status: 1, outcome: "queued", saying: words, in: outbox, "new", sourceLocation: sourceLocation)
    }

    /// Expects `run` to have exited with `status` and `outcome`, not
    /// completed, saying each of `words` on stderr, with its message the one
    /// of `folder` (``onlyMessage(in:_:flagged:sourceLocation:)``) and
    /// nothing in the other two folders. Returns the message.
    private func expectKept(_ run: ShareRun, status: Int32, outcome: String, saying words: [String], in folder: URL, _ subfolder: String,
                            flagged flag: Character? = nil, sourceLocation: SourceLocation) throws -> URL {
        #expect(run.status == status, "stdout: \(run.out) stderr: \(run.err)", sourceLocation: sourceLocation)
        for text in words {
            #expect(run.err.contains(text), "stderr: \(run.err)", sourceLocation: sourceLocation)
        }
        let completion = try Completion.parse(run)
        #expect(completion.outcome == outcome && !completion.completed, "\(completion)", sourceLocation: sourceLocation)
        for other in [drafts, sent, outbox] where other != folder {
            expectEmpty(other, sourceLocation: sourceLocation)
        }
        return try onlyMessage(in: folder, subfolder, flagged: flag, sourceLocation: sourceLocation)
    }

    /// The one message of `folder` (of drafts, sent and the outbox), which
    /// must be in its `subfolder` and, given a `flag`, flagged so (S sent,
    /// D draft).
    func onlyMessage(in folder: URL, _ subfolder: String = "cur", flagged flag: Character? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let all = allMessages(in: folder)
        try #require(all.count == 1, "\(folders)", sourceLocation: sourceLocation)
        #expect(all[0].deletingLastPathComponent().lastPathComponent == subfolder, "\(folders)", sourceLocation: sourceLocation)
        if let flag {
            #expect(maildirFlags(all[0])?.contains(flag) == true, "flags: \(all[0].lastPathComponent)", sourceLocation: sourceLocation)
        }
        return all[0]
    }
}

/// The Maildir flags of a message file name (`…:2,DS` → `DS`), or `nil`.
func maildirFlags(_ file: URL) -> String? {
    let name = file.lastPathComponent
    guard let range = name.range(of: ":2,", options: .backwards) else { return nil }
    return String(name[range.upperBound...])
}

/// The one completion object `share --json` prints on stdout (SPEC §3).
struct Completion: CustomStringConvertible {
    var activityType: String
    var completed: Bool
    var outcome: String
    var returnedItems: [Any]
    var errorCode: String?
    var errorMessage: String?
    var hasError: Bool

    var description: String {
        "\(activityType) completed=\(completed) outcome=\(outcome) error=\(errorCode ?? "nil"): \(errorMessage ?? "")"
    }

    /// Parses stdout, which must be exactly one JSON object with exactly the
    /// keys of SPEC §3, on one line.
    static func parse(_ run: ShareRun) throws -> Completion {
        let text = run.out
        try #require(text.hasSuffix("\n") && text.dropLast().firstIndex(of: "\n") == nil,
                     "stdout must be one line holding the completion object: \(text.debugDescription)")
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let object = try #require(value as? [String: Any], "stdout is not a JSON object: \(text)")
        // The contract's keys, and "warnings" only when there are some.
        var keys = Set(object.keys)
        if let warnings = object["warnings"] as? [String] { #expect(!warnings.isEmpty); keys.remove("warnings") }
        #expect(keys == ["activityType", "completed", "outcome", "returnedItems", "error"],
                "completion keys: \(object.keys.sorted())")
        let activityType = try #require(object["activityType"] as? String, "activityType: \(text)")
        let completed = try #require(object["completed"] as? Bool, "completed: \(text)")
        let outcome = try #require(object["outcome"] as? String, "outcome: \(text)")
        let returned = try #require(object["returnedItems"] as? [Any], "returnedItems: \(text)")
        var completion = Completion(activityType: activityType, completed: completed, outcome: outcome, returnedItems: returned,
                                    errorCode: nil, errorMessage: nil, hasError: false)
        let error = try #require(object["error"], "error: \(text)")
        if !(error is NSNull) {
            let fields = try #require(error as? [String: Any], "error must be null or an object: \(text)")
            completion.hasError = true
            completion.errorCode = try #require(fields["code"] as? String, "error.code: \(text)")
            completion.errorMessage = try #require(fields["message"] as? String, "error.message: \(text)")
        }
        return completion
    }
}

/// The SHA-256 of a file's bytes, in lower-case hex (coreutils' sha256sum).
func sha256(of file: URL) throws -> String {
    let run = try Share.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), ["-b", "--", file.path],
                            environment: ["LANG": "C"], directory: file.deletingLastPathComponent())
    try #require(run.status == 0, "sha256sum \(file.path): \(run.err)")
    let digest = String(run.out.prefix { $0 != " " })
    try #require(digest.count == 64, "sha256sum printed \(run.out)")
    return digest
}

/// The raw structure of a message, read by hand: the header block unfolded
/// and, for a multipart message, every part's own header block, so tests can
/// look at what check_mail.py decodes away (encoded-words, RFC 2231
/// parameters, line lengths).
struct RawMessage {
    /// One header block: field name (as written) and unfolded value, in order,
    /// and the physical lines, for length checks.
    struct Head {
        var fields: [(name: String, value: String)]
        var lines: [String]

        /// Unfolded values of every field called `name` (case-insensitive).
        func values(_ name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        init(_ block: String) {
            lines = block.components(separatedBy: "\r\n")
            fields = []
            for line in lines where !line.isEmpty {
                if line.first == " " || line.first == "\t", !fields.isEmpty {
                    fields[fields.count - 1].value += line
                } else if let colon = line.firstIndex(of: ":") {
                    fields.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
                }
            }
        }
    }

    var head: Head
    /// The header blocks of every part, found by walking the boundaries.
    var partHeads: [Head] = []

    init(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let split = text.components(separatedBy: "\r\n\r\n")
        head = Head(split.first ?? "")
        let body = split.dropFirst().joined(separator: "\r\n\r\n")
        collectParts(head, body: body)
    }

    /// The `boundary` parameter of a Content-Type value.
    static func boundary(_ contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/"),
              let range = contentType.range(of: "boundary=", options: .caseInsensitive) else { return nil }
        var value = contentType[range.upperBound...]
        if value.first == "\"" {
            value = value.dropFirst()
            return String(value.prefix { $0 != "\"" })
        }
        return String(value.prefix { $0 != ";" && $0 != " " })
    }

    private mutating func collectParts(_ head: Head, body: String) {
        guard let contentType = head.values("Content-Type").first, let boundary = RawMessage.boundary(contentType) else { return }
        let delimiter = "\r\n--" + boundary
        let pieces = ("\r\n" + body).components(separatedBy: delimiter)
        // pieces[0] is the preamble; the last piece starts with "--" (the close delimiter).
        for piece in pieces.dropFirst() where !piece.hasPrefix("--") {
            // "\r\n" is one Character in Swift: drop its two bytes.
            let content = piece.hasPrefix("\r\n") ? String(decoding: piece.utf8.dropFirst(2), as: UTF8.self) : piece
            let parts = content.components(separatedBy: "\r\n\r\n")
            let partHead = Head(parts.first ?? "")
            partHeads.append(partHead)
            collectParts(partHead, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
}

extension RawMessage {
    /// One RFC 2047 encoded-word as written, and its decoded bytes.
    struct EncodedWord {
        var text: String
        var charset: String
        var bytes: Data
    }

    /// Every encoded-word (`=?charset?B|Q?text?=`) in `value`, decoded to bytes.
    static func encodedWords(in value: String) -> [EncodedWord] {
        guard let pattern = try? NSRegularExpression(pattern: "=\\?([^?\\s]+)\\?([bBqQ])\\?([^?\\s]*)\\?=") else { return [] }
        let range = NSRange(value.startIndex..., in: value)
        return pattern.matches(in: value, range: range).compactMap { match in
            guard let whole = Range(match.range, in: value), let charset = Range(match.range(at: 1), in: value),
                  let encoding = Range(match.range(at: 2), in: value), let text = Range(match.range(at: 3), in: value) else { return nil }
            let payload = String(value[text])
            let bytes: Data
            if value[encoding].uppercased() == "B" {
                bytes = Data(base64Encoded: payload) ?? Data()
            } else {
                var decoded: [UInt8] = []
                var utf8 = Array(payload.utf8)[...]
                while let byte = utf8.popFirst() {
                    if byte == UInt8(ascii: "_") {
                        decoded.append(0x20)
                    } else if byte == UInt8(ascii: "="), utf8.count >= 2,
                              let high = utf8.popFirst(), let low = utf8.popFirst(),
                              let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                        decoded.append(value)
                    } else {
                        decoded.append(byte)
                    }
                }
                bytes = Data(decoded)
            }
            return EncodedWord(text: String(value[whole]), charset: String(value[charset]), bytes: bytes)
        }
    }

    /// `value` with its encoded-words decoded as RFC 2047 §6.2 says: the
    /// whitespace between two adjacent encoded-words is dropped. (Python's
    /// address parser keeps it as a space, CPython gh-128110, so long
    /// display names are judged with this decoder as well.)
    static func decodingEncodedWords(_ value: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: "=\\?[^?\\s]+\\?[bBqQ]\\?[^?\\s]*\\?=") else { return value }
        let matches = pattern.matches(in: value, range: NSRange(value.startIndex..., in: value))
        var out = ""
        var cursor = value.startIndex
        var previousWasWord = false
        for match in matches {
            guard let range = Range(match.range, in: value) else { continue }
            let gap = value[cursor..<range.lowerBound]
            if !(previousWasWord && gap.allSatisfy { $0 == " " || $0 == "\t" }) { out += gap }
            let word = String(value[range])
            out += RawMessage.encodedWords(in: word).first.map { String(decoding: $0.bytes, as: UTF8.self) } ?? word
            cursor = range.upperBound
            previousWasWord = true
        }
        out += value[cursor...]
        return out
    }

    /// Every encoded-word in the message's and its parts' header fields.
    var allEncodedWords: [EncodedWord] {
        ([head] + partHeads).flatMap { $0.fields.flatMap { RawMessage.encodedWords(in: $0.value) } }
    }
}

/// Checks that every encoded-word of `message` is at most 75 characters and
/// holds whole UTF-8 sequences (SPEC §5: never splitting a UTF-8 sequence).
func expectWholeEncodedWords(_ message: RawMessage, sourceLocation: SourceLocation = #_sourceLocation) {
    for word in message.allEncodedWords {
        #expect(word.text.count <= 75, "encoded-word over 75 characters: \(word.text)", sourceLocation: sourceLocation)
        #expect(String(validating: word.bytes, as: UTF8.self) != nil,
                "encoded-word splits a UTF-8 sequence: \(word.text)", sourceLocation: sourceLocation)
        #expect(!word.bytes.isEmpty, "empty or undecodable encoded-word: \(word.text)", sourceLocation: sourceLocation)
    }
}
