import Foundation
import Testing

/// Send later against a real SMTP server on 127.0.0.1, in a clock of the
/// test's own (`SHARE_NOW`): `--send-at` and Ctrl-L put the message in
/// the outbox with its time, `--flush` sends it once it is due and never
/// before, and `--undo` takes it back while it waits.
@Suite struct MailSendLaterTests {
    /// The test's "now": Friday 2026-12-04 01:30 UTC.
    static let now = 1_796_347_800

    /// The environment's change that sets the clock `seconds` after ``now``.
    static func at(_ seconds: Int) -> [String: String?] { ["SHARE_NOW": String(now + seconds)] }

    /// A message to park@example.com with `subject`, sent at `time`.
    static func later(_ time: String, subject: String = "later") -> [String] {
        ["--json", "--send-at", time, "--to", "박지성 <park@example.com>", "--subject", subject, "--body", "see you"]
    }

    /// Reads a `Date:` header.
    static var rfc5322: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss Z"
        return formatter
    }

    /// The time in the outbox copy's `X-Share-Send-At`, read as ISO 8601.
    static func sendAt(_ file: URL) throws -> Date {
        let head = RawMessage(try Data(contentsOf: file)).head
        let value = try #require(head.values("X-Share-Send-At").first, "no X-Share-Send-At in \(file.path)")
        return try #require(ISO8601DateFormatter().date(from: value), "X-Share-Send-At: \(value)")
    }

    @Test func aMessageSentAtATimeWaitsInTheOutboxUntilAFlushFromThenOn() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try world.share(Self.later("in 2h"), changes: Self.at(0))
        let queued = try world.expectQueued(run, saying: "waits in the outbox until")
        #expect(try Completion.parse(run).errorCode == "queued")
        #expect(try server.messages().isEmpty, "nothing reaches the server when it is scheduled")
        let due = Date(timeIntervalSince1970: TimeInterval(Self.now + 7_200))
        #expect(try Self.sendAt(queued) == due)

        // An hour on, nothing is due: the flush sends nothing, says what waits, and that is no failure.
        let early = try world.share(["--flush"], changes: Self.at(3_600))
        #expect(early.status == 0, "stderr: \(early.err)")
        let line = early.out.split(separator: "\t").map(String.init)
        #expect(line.count == 3 && line[0] == "waiting" && line[1] == queued.path, "stdout: \(early.out)")
        #expect(line.count == 3 && ISO8601DateFormatter().date(from: line[2].trimmingCharacters(in: .newlines)) == due, "\(early.out)")
        let json = try world.share(["--flush", "--json"], changes: Self.at(3_600))
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]], "\(json.out)")
        #expect(rows.count == 1 && rows.first?["outcome"] as? String == "waiting" && rows.first?["due"] is String, "\(json.out)")
        #expect(try server.messages().isEmpty, "nothing early")

        // The history shows it waiting, with its time.
        let history = try world.share(["--history"], changes: Self.at(3_600))
        #expect(history.out.contains("waiting") && history.out.contains("⏳ until"), "\(history.out)")
        let entries = try JSONSerialization.jsonObject(with: try world.share(["--history", "--json"]).stdout) as? [[String: Any]]
        #expect(entries?.first?["due"] is String, "\(String(describing: entries))")

        // A message sent now flushes the outbox after it: only what is due goes.
        let other = try world.share(["--send", "--to", "lee@example.com", "--subject", "now", "--body", "x"], changes: Self.at(3_600))
        #expect(other.status == 0, "stderr: \(other.err)")
        #expect(try server.messages().map { try server.check($0).header("Subject") } == ["now"])
        #expect(world.allMessages(in: world.outbox) == [queued], "\(world.folders)")

        // Three hours on it goes, once.
        let flush = try world.share(["--flush"], changes: Self.at(3 * 3_600))
        #expect(flush.status == 0 && flush.out.hasPrefix("sent\t") && flush.out.split(separator: "\n").count == 1,
                "stdout: \(flush.out) stderr: \(flush.err)")
        let messages = try server.messages()
        try #require(messages.count == 2, "\(world.folders)")
        let check = try server.check(messages[1])
        #expect(check.header("Subject") == "later" && check.defects.isEmpty, "\(check.defects)")
        #expect(check.header("X-Share-Send-At") == nil, "the time stays at home")
        let date = try #require(RawMessage(messages[1].raw).head.values("Date").first)
        #expect(Self.rfc5322.date(from: date) == due, "its Date is when it went: \(date)")
        world.expectEmpty(world.outbox)
        let copies = world.allMessages(in: world.sent)
        #expect(copies.count == 2 && copies.allSatisfy { RawMessage((try? Data(contentsOf: $0)) ?? Data()).head.values("X-Share-Send-At").isEmpty },
                "the sent copy is the message as it went: \(world.folders)")
        let again = try world.share(["--flush"], changes: Self.at(3 * 3_600))
        #expect(again.status == 0 && again.out.isEmpty && again.err.contains("the outbox is empty"), "\(again.out) \(again.err)")
        #expect(try server.messages().count == 2)
        // Sent by then, it no longer shows as waiting.
        let after = try world.share(["--history", "--limit", "3"], changes: Self.at(3 * 3_600))
        #expect(!after.out.contains("waiting"), "\(after.out)")
    }

    @Test func aTimeThatCannotBeReadOrIsPastSendsNothing() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let unreadable = try world.share(Self.later("soon"), changes: Self.at(0))
        #expect(unreadable.status == 2 && unreadable.err.contains("--send-at: cannot read 'soon' as a time"), "\(unreadable.err)")
        let withDraft = try world.share(Self.later("in 2h") + ["--save-draft"], changes: Self.at(0))
        #expect(withDraft.status == 2 && withDraft.err.contains("--send-at and --save-draft cannot be used together"), "\(withDraft.err)")
        // Past by the run's clock: refused, nothing kept.
        let past = try world.share(Self.later("2026-12-04T01:00Z"), changes: Self.at(0))
        #expect(past.status == 2 && past.err.contains("is past"), "\(past.err)")
        #expect(try Completion.parse(past).errorCode == "invalid-input")
        world.expectEmpty(world.outbox, world.drafts, world.sent)
        #expect(try server.messages().isEmpty)
    }

    @Test func undoTakesAScheduledMessageBackWhileItWaitsAndNotOnceSent() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let queued = try world.expectQueued(try world.share(Self.later("in 2h", subject: "taken back"), changes: Self.at(0)))
        let undo = try world.share(["--undo"], changes: Self.at(60))
        #expect(undo.status == 0 && undo.out.contains("took the message back from the outbox"), "stdout: \(undo.out) stderr: \(undo.err)")
        world.expectEmpty(world.outbox)
        let draft = try world.onlyMessage(in: world.drafts, "cur", flagged: "D")
        #expect(try MailCheck.run(file: draft).header("Subject") == "taken back")
        #expect(RawMessage(try Data(contentsOf: draft)).head.values("X-Share-Send-At").isEmpty, "a draft waits for nothing")
        #expect(!FileManager.default.fileExists(atPath: queued.path))
        let flush = try world.share(["--flush"], changes: Self.at(3 * 3_600))
        #expect(flush.status == 0 && flush.out.isEmpty, "\(flush.out)")
        #expect(try server.messages().isEmpty, "a message taken back is never sent")

        // Once sent, it cannot be taken back, and share says so.
        let second = try world.share(Self.later("in 1h", subject: "gone"), changes: Self.at(0))
        #expect(second.status == 1 && world.allMessages(in: world.outbox).count == 1, "\(second.err) \(world.folders)")
        #expect(try world.share(["--flush"], changes: Self.at(2 * 3_600)).status == 0)
        #expect(try server.messages().count == 1)
        let late = try world.share(["--undo"], changes: Self.at(2 * 3_600))
        #expect(late.status == 3 && late.err.contains("the message was sent already (its copy is \(world.sent.path)"), "stderr: \(late.err)")
    }

    /// A message signed and encrypted waits in the outbox as it will go:
    /// the flush sends it untouched, and gpg still decrypts it and names
    /// its signer (the outbox's time is outside what was signed, and left out).
    @Test func aSignedAndEncryptedMessageIsSoInTheOutboxAndVerifiesOnceSent() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let keyring = try Keyring(world)
        let run = try world.share(["--json", "--send-at", "in 2h", "--sign", "--encrypt", "--to", "lee@example.com", "--subject", "secret",
                                   "--body", "see you"], changes: Self.at(0))
        let queued = try world.expectQueued(run, saying: "until")
        #expect(try keyring.check(queued).type == "multipart/encrypted", "encrypted in the outbox already")
        #expect(try world.share(["--flush"], changes: Self.at(3 * 3_600)).status == 0)
        let (message, _) = try server.onlyMessage()
        #expect(RawMessage(message.raw).head.values("X-Share-Send-At").isEmpty)
        let check = try keyring.check(message.file)
        #expect(check.type == "multipart/encrypted" && check.decrypted == true && check.signer == keyring["kim"].fpr, "\(check)")
        #expect(check.text == "see you\n" && check.defects.isEmpty, "\(check)")
    }

    /// Ctrl-L in the compose screen asks when; an unreadable time keeps the
    /// question open with the reason, a good one puts the message in the
    /// outbox and closes the screen (`queued`), and the next compose screen
    /// says what waits.
    @Test func ctrlLInTheComposeScreenAsksWhenAndTheMessageWaits() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let clock = ["SHARE_NOW": String(Self.now), "TZ": "UTC"]
        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "later", "--text", "hello"], environment: clock)
        #expect(try run.session.capture().lines.last?.contains("^L Send later") == true, "the help bar offers it")
        try run.session.send("C-l")
        try run.session.waitFor("Send later: when?")
        try run.session.sendLiteral("soon")
        try run.session.send("Enter")
        var screen = try run.session.waitFor("cannot read 'soon' as a time")
        #expect(!run.session.hasExited, "screen:\n\(screen.text)")
        try run.session.send("C-u")
        try run.session.sendLiteral("in 2h")
        screen = try run.session.waitFor("→ today 03:30")
        try run.session.send("Enter")
        let (status, completion) = try run.finish()
        #expect(status == 1 && completion.outcome == "queued" && completion.errorCode == "queued", "\(completion)")
        #expect(completion.errorMessage?.contains("until 2026-12-04 03:30") == true, "\(completion)")
        let queued = try world.onlyMessage(in: world.outbox, "new")
        #expect(try Self.sendAt(queued) == Date(timeIntervalSince1970: TimeInterval(Self.now + 7_200)))
        #expect(try server.messages().isEmpty, "nothing reaches the server")
        world.expectEmpty(world.drafts, because: "the autosaved draft goes with it")

        // The next compose screen says what waits, and when the next one goes.
        let next = try ComposeRun.mail(world, ["--to", "lee@example.com", "--text", "next"], environment: clock)
        screen = try next.session.waitUntil("the outbox notice") { ComposeRun.status($0).contains("1 message waits in the outbox") }
        #expect(ComposeRun.status(screen).contains("the next goes today 03:30"), "screen:\n\(screen.text)")
        try next.session.send("Escape")
        #expect(try next.finish().completion.outcome == "cancelled")
    }
}

extension MailWorld {
    /// Runs `share --config CONFIG ARGUMENTS…` with the environment changed by `changes`.
    func share(_ arguments: [String], changes: [String: String?]) throws -> ShareRun {
        try fixtures.share(["--config", config.path] + arguments, changes: changes)
    }
}
