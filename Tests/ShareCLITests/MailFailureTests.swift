import Foundation
import Testing

/// Nothing is lost (SPEC §5): a server that is down, refuses for now (4xx),
/// refuses for good (5xx) or drops the connection mid-DATA leaves the
/// message in drafts (failed, exit 3) or the outbox (queued, exit 1), and
/// never in sent.
@Suite struct MailFailureTests {
    static let message = ["--send", "--json", "--to", "박지성 <park@example.com>", "--bcc", "hidden@example.com",
                          "--subject", "다시 보내기", "--body", "This one must not get lost."]

    @Test func serverDownFailsAndKeepsDraft() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        let port = server.port
        server.stop()
        try world.configure(["transport = smtp://127.0.0.1:\(port)", "tls = off"])

        let run = try world.share(Self.message)
        #expect(run.status == 3, "stdout: \(run.out) stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "failed")
        #expect(!completion.completed)
        #expect(completion.hasError && !(completion.errorMessage ?? "").isEmpty, "\(completion)")
        #expect(!run.err.isEmpty)

        let drafts = world.messages(in: world.drafts, "cur")
        try #require(drafts.count == 1, "\(world.folders)")
        #expect(maildirFlags(drafts[0])?.contains("D") == true, "\(drafts[0].lastPathComponent)")
        let check = try MailCheck.run(file: drafts[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "다시 보내기")
        #expect(check.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "the kept draft keeps Bcc")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
    }

    @Test func temporaryRefusalQueuesThenFlushDelivers() throws {
        let world = try MailWorld()
        let refusing = try SMTPServer(directory: world.root, arguments: ["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { refusing.stop() }
        try world.use(refusing)

        let run = try world.share(Self.message)
        #expect(run.status == 1, "stdout: \(run.out) stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "queued")
        #expect(!completion.completed)
        #expect(try refusing.messages().isEmpty)
        let queued = world.messages(in: world.outbox, "new")
        #expect(queued.count == 1, "\(world.folders)")
        #expect(world.messages(in: world.outbox, "cur").isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.drafts).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")

        // A working server; share --flush delivers the outbox.
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stdout: \(flush.out) stderr: \(flush.err)")

        let received = try server.messages()
        try #require(received.count == 1, "server received \(received.count) messages; log: \(server.log)")
        #expect(received[0].envelope.mailFrom == MailWorld.fromAddress)
        #expect(received[0].envelope.rcptTos.sorted() == ["hidden@example.com", "park@example.com"])
        let check = try server.check(received[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(!check.hasBccHeader, "Bcc is never transmitted, also from the outbox")
        #expect(!String(decoding: received[0].raw, as: UTF8.self).contains("hidden@example.com"))
        #expect(check.header("Subject") == "다시 보내기")
        #expect(check.addresses["to"] == [.init(name: "박지성", addr: "park@example.com")])

        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
        let sent = world.allMessages(in: world.sent)
        try #require(sent.count == 1, "\(world.folders)")
        let sentCheck = try MailCheck.run(file: sent[0])
        #expect(sentCheck.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "the sent copy keeps Bcc")
        #expect(sentCheck.header("Message-ID") == check.header("Message-ID"))
    }

    @Test func permanentRefusalFailsWithServerWordsAndKeepsDraft() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--data-reply", "554 5.7.1 Rejected as spam"])
        defer { server.stop() }
        try world.use(server)

        let run = try world.share(Self.message)
        #expect(run.status == 3, "stdout: \(run.out) stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "failed")
        #expect(run.err.contains("Rejected as spam"), "stderr must carry the server's words: \(run.err)")
        #expect(try server.messages().isEmpty)
        let drafts = world.messages(in: world.drafts, "cur")
        #expect(drafts.count == 1, "\(world.folders)")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
    }

    @Test func connectionDroppedMidDataFailsAndKeepsDraft() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--drop-mid-data"])
        defer { server.stop() }
        try world.use(server)
        // Enough bytes that the drop really comes in the middle of DATA.
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        let big = try world.file("big.bin", bytes)

        let run = try world.share(Self.message + ["--attach", big.path])
        #expect(run.status == 3, "stdout: \(run.out) stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "failed")
        #expect(!completion.completed)
        let drafts = world.messages(in: world.drafts, "cur")
        try #require(drafts.count == 1, "\(world.folders)")
        let check = try MailCheck.run(file: drafts[0])
        #expect(check.attachments.first?.sha256 == (try sha256(of: big)), "the kept draft is the whole message")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
    }

    @Test func noTransportQueuesInOutbox() throws {
        let world = try MailWorld()
        try world.configure([])

        let run = try world.share(Self.message)
        #expect(run.status == 1, "stdout: \(run.out) stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "queued")
        #expect(!completion.completed)
        #expect(run.err.contains("outbox"), "share must say the message waits in the outbox: \(run.err)")
        let queued = world.messages(in: world.outbox, "new")
        try #require(queued.count == 1, "\(world.folders)")
        let check = try MailCheck.run(file: queued[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "다시 보내기")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.drafts).isEmpty, "\(world.folders)")
    }

    /// SPEC §5: "share --flush (or the next send with a transport) delivers it".
    @Test func nextSendWithTransportDeliversTheOutbox() throws {
        let world = try MailWorld()
        try world.configure([])
        let queued = try world.share(Self.message)
        #expect(queued.status == 1, "stderr: \(queued.err)")
        try #require(world.messages(in: world.outbox, "new").count == 1, "\(world.folders)")

        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)
        let run = try world.share(["--send", "--json", "--to", "lee@example.com", "--subject", "second", "--body", "next"])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")

        let subjects = try server.messages().map { try server.check($0).header("Subject") ?? "" }
        #expect(subjects.sorted() == ["second", "다시 보내기"].sorted(), "the queued message goes with the next send: \(subjects)")
        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.sent).count == 2, "\(world.folders)")
    }

    /// An outbox message the server refuses stays in the outbox: 4xx → exit 1, 5xx → exit 3.
    @Test func flushThatIsRefusedKeepsTheOutbox() throws {
        let world = try MailWorld()
        try world.configure([])
        let queued = try world.share(Self.message)
        #expect(queued.status == 1, "stderr: \(queued.err)")
        let before = world.messages(in: world.outbox, "new")
        try #require(before.count == 1, "\(world.folders)")

        let later = try SMTPServer(directory: world.root, arguments: ["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { later.stop() }
        try world.use(later)
        let temporary = try world.share(["--flush"])
        #expect(temporary.status == 1, "stdout: \(temporary.out) stderr: \(temporary.err)")
        #expect(world.allMessages(in: world.outbox) == before, "\(world.folders)")

        let spam = try SMTPServer(directory: world.root, arguments: ["--data-reply", "554 5.7.1 Rejected as spam"])
        defer { spam.stop() }
        try world.use(spam)
        let permanent = try world.share(["--flush"])
        #expect(permanent.status == 3, "stdout: \(permanent.out) stderr: \(permanent.err)")
        #expect((permanent.out + permanent.err).contains("Rejected as spam"), "the server's words: \(permanent.out) \(permanent.err)")
        #expect(world.allMessages(in: world.outbox) == before, "nothing lost: \(world.folders)")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
        #expect(try later.messages().isEmpty && spam.messages().isEmpty)
    }
}
