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
        let (world, server) = try MailWorld.withServer()
        // Nothing listens on the port the config names.
        server.stop()

        let run = try world.share(Self.message)
        let draft = try world.expectFailedKeepingDraft(run)
        let completion = try Completion.parse(run)
        #expect(completion.hasError && !(completion.errorMessage ?? "").isEmpty, "\(completion)")
        #expect(!run.err.isEmpty)
        let check = try MailCheck.run(file: draft)
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "다시 보내기")
        #expect(check.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "the kept draft keeps Bcc")
    }

    @Test func temporaryRefusalQueuesThenFlushDelivers() throws {
        let (world, refusing) = try MailWorld.withServer(["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { refusing.stop() }

        try world.expectQueued(try world.share(Self.message))
        #expect(try refusing.messages().isEmpty)

        // A working server; share --flush delivers the outbox.
        let server = try world.startServer()
        defer { server.stop() }
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stdout: \(flush.out) stderr: \(flush.err)")

        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.mailFrom == MailWorld.fromAddress)
        #expect(message.envelope.rcptTos.sorted() == ["hidden@example.com", "park@example.com"])
        #expect(!check.hasBccHeader, "Bcc is never transmitted, also from the outbox")
        #expect(!String(decoding: message.raw, as: UTF8.self).contains("hidden@example.com"))
        #expect(check.header("Subject") == "다시 보내기")
        #expect(check.addresses["to"] == [.init(name: "박지성", addr: "park@example.com")])

        world.expectEmpty(world.outbox)
        let sentCheck = try MailCheck.run(file: world.onlyMessage(in: world.sent, flagged: "S"))
        #expect(sentCheck.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "the sent copy keeps Bcc")
        #expect(sentCheck.header("Message-ID") == check.header("Message-ID"))

        // The history shows the queued share, then the flush that sent it, to the people it named.
        let history = try JSONDecoder().decode([HistoryTests.Entry].self, from: try world.share(["--history", "--json"]).stdout)
        #expect(history.map(\.outcome) == ["sent", "queued"], "\(history)")
        #expect(history.first?.activity == "mail")
        #expect(history.first?.recipients == ["박지성 <park@example.com>", "hidden@example.com"], "\(history)")
        let listed = try world.share(["--history", "--limit", "1"])
        #expect(listed.out.contains("sent") && listed.out.contains("→ 박지성 <park@example.com>"), "stdout: \(listed.out)")
    }

    /// A message queued before any address was set goes from the made-up
    /// `user@host`; once the config names one, --flush sends it from that.
    @Test func aMessageQueuedFromTheMadeUpSenderGoesFromTheOneSetSince() throws {
        let world = try MailWorld()
        let bare = "[mail]\ndrafts = \(world.drafts.path)\nsent = \(world.sent.path)\noutbox = \(world.outbox.path)\n"
        try Data(bare.utf8).write(to: world.config)
        let queued = try world.fixtures.share(["--config", world.config.path, "--activity", "mail", "--send", "--to", "park@example.com",
                                               "--subject", "Q4", "--body", "hi"], changes: ["USER": "kimsu"])
        #expect(queued.status == 1, "queued: \(queued.err)")
        let waiting = try String(contentsOf: world.onlyMessage(in: world.outbox, "new"), encoding: .utf8)
        #expect(waiting.contains("From: kimsu@"), "\(waiting)")

        let server = try world.startServer()
        defer { server.stop() }
        let flush = try world.fixtures.share(["--config", world.config.path, "--flush"], changes: ["USER": "kimsu"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.mailFrom == MailWorld.fromAddress)
        #expect(check.addresses["from"] == [.init(name: "김민수", addr: MailWorld.fromAddress)], "\(check.addresses)")
        #expect(check.header("Subject") == "Q4")
        #expect(!String(decoding: message.raw, as: UTF8.self).contains("kimsu@"))

        // Sent at once from the made-up address, with a transport and no from: said, not silent.
        try Data((bare + "transport = smtp://127.0.0.1:\(server.port)\ntls = off\n").utf8).write(to: world.config)
        let direct = try world.fixtures.share(["--config", world.config.path, "--activity", "mail", "--send", "--to", "park@example.com",
                                               "--subject", "Q4", "--body", "hi"], changes: ["USER": "kimsu"])
        #expect(direct.status == 0, "stderr: \(direct.err)")
        #expect(direct.err.contains("warning: sent from kimsu@") && direct.err.contains("set from in the [mail] section"), "stderr: \(direct.err)")
    }

    @Test func permanentRefusalFailsWithServerWordsAndKeepsDraft() throws {
        let (world, server) = try MailWorld.withServer(["--data-reply", "554 5.7.1 Rejected as spam"])
        defer { server.stop() }

        let run = try world.share(Self.message)
        // stderr carries the server's words.
        try world.expectFailedKeepingDraft(run, saying: "Rejected as spam")
        #expect(try server.messages().isEmpty)
    }

    @Test func connectionDroppedMidDataFailsAndKeepsDraft() throws {
        let (world, server) = try MailWorld.withServer(["--drop-mid-data"])
        defer { server.stop() }
        // Enough bytes that the drop really comes in the middle of DATA.
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
        let big = try world.file("big.bin", bytes)

        let draft = try world.expectFailedKeepingDraft(try world.share(Self.message + ["--attach", big.path]))
        let check = try MailCheck.run(file: draft)
        #expect(check.attachments.first?.sha256 == (try sha256(of: big)), "the kept draft is the whole message")
    }

    @Test func noTransportQueuesInOutbox() throws {
        let world = try MailWorld()
        try world.configure([])

        let run = try world.share(Self.message)
        // share says the message waits in the outbox.
        let queued = try world.expectQueued(run, saying: "outbox")
        let check = try MailCheck.run(file: queued)
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "다시 보내기")
    }

    /// SPEC §5: "share --flush (or the next send with a transport) delivers it".
    @Test func nextSendWithTransportDeliversTheOutbox() throws {
        let world = try MailWorld()
        try world.configure([])
        try world.expectQueued(try world.share(Self.message))

        let server = try world.startServer()
        defer { server.stop() }
        let run = try world.share(["--send", "--json", "--to", "lee@example.com", "--subject", "second", "--body", "next"])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")

        let subjects = try server.messages().map { try server.check($0).header("Subject") ?? "" }
        #expect(subjects.sorted() == ["second", "다시 보내기"].sorted(), "the queued message goes with the next send: \(subjects)")
        world.expectEmpty(world.outbox)
        #expect(world.allMessages(in: world.sent).count == 2, "\(world.folders)")
    }

    /// An outbox message the server refuses stays in the outbox: 4xx → exit 1, 5xx → exit 3.
    @Test func flushThatIsRefusedKeepsTheOutbox() throws {
        let world = try MailWorld()
        try world.configure([])
        let before = [try world.expectQueued(try world.share(Self.message))]

        let later = try world.startServer(["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { later.stop() }
        let temporary = try world.share(["--flush"])
        #expect(temporary.status == 1, "stdout: \(temporary.out) stderr: \(temporary.err)")
        #expect(world.allMessages(in: world.outbox) == before, "\(world.folders)")

        let spam = try world.startServer(["--data-reply", "554 5.7.1 Rejected as spam"])
        defer { spam.stop() }
        let permanent = try world.share(["--flush"])
        #expect(permanent.status == 3, "stdout: \(permanent.out) stderr: \(permanent.err)")
        #expect((permanent.out + permanent.err).contains("Rejected as spam"), "the server's words: \(permanent.out) \(permanent.err)")
        #expect(world.allMessages(in: world.outbox) == before, "nothing lost: \(world.folders)")
        world.expectEmpty(world.sent)
        #expect(try later.messages().isEmpty && spam.messages().isEmpty)
    }
}
