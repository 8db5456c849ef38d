import Foundation
import ShareCLI
import ShareCore
import ShareMail
import ShareSupport
import Testing
@testable import ShareActivities

/// Drafts on an IMAP server (SPEC §9: `drafts = imap:…`): each save
/// replaces the draft before it there (APPEND, then delete by UID), a sent
/// message takes its draft away, and `--resume` finds the newest one,
/// against a real dovecot on 127.0.0.1.
@Suite struct MailIMAPDraftsTests {
    static let draftsFolder = "Drafts"

    static func start(drafts: String = "imap:auto") throws -> (MailWorld, IMAPServer) {
        let world = try MailWorld()
        let imap = try IMAPServer(directory: world.root)
        do {
            let lines = try imap.configLines(in: world, extra: ["drafts = \(drafts)"]).filter { !$0.hasPrefix("sent ") }
            try world.configure(lines)
        } catch {
            imap.stop()
            throw error
        }
        return (world, imap)
    }

    /// Mail as the config makes it, in this process.
    @MainActor static func mail(_ world: MailWorld) throws -> MailActivity {
        let text = try String(contentsOf: world.config, encoding: .utf8)
        var environment = world.fixtures.environment
        environment["PATH"] = "/usr/bin:/bin"
        let configuration = try Configuration(parsing: text, path: world.config.path, environment: environment)
        let settings = try MailActivity.settings(configuration.section("mail"), accounts: configuration.sections(under: "mail"),
                                                 locations: Locations(environment: environment), environment: environment)
        return MailActivity(settings: settings)
    }

    @Test func aSavedDraftIsStoredFlaggedDraft() throws {
        let (world, imap) = try Self.start()
        defer { imap.stop() }
        let run = try world.share(["--save-draft", "--json", "--to", "park@example.com", "--subject", "임시 저장", "--body", "later"])
        #expect(run.status == 1, "stderr: \(run.err)")
        #expect(run.err.contains("and in imaps://localhost:\(imap.tlsPort)/Drafts;UID="), "stderr: \(run.err)")
        let drafts = try imap.messages(in: Self.draftsFolder)
        try #require(drafts.count == 1, "dovecot: \(imap.log)")
        #expect(drafts[0].flags.contains("\\Draft"))
        #expect(drafts[0].subject == "임시 저장")
        #expect(drafts[0].defects.isEmpty)
        // The local draft stays, in the default folder: the key names the server's.
        #expect(world.allMessages(in: world.root.appendingPathComponent("data/share/drafts")).count == 1)
    }

    @Test @MainActor func eachAutosaveReplacesTheDraftBefore() async throws {
        let (world, imap) = try Self.start(drafts: "imap:Drafts")
        defer { imap.stop() }
        let mail = try Self.mail(world)
        for subject in ["first", "second", "third"] {
            let path = try mail.autosaveJob()(["from": MailWorld.fromLine, "to": "park@example.com", "subject": subject, "body": "…"])
            mail.autosaved(at: path)
            let drafts = try imap.messages(in: Self.draftsFolder)
            #expect(drafts.map(\.subject) == [subject], "after saving \(subject)")
            #expect(drafts.first?.flags.contains("\\Draft") == true)
        }
        // Sent (or queued): its draft goes from the server as from the folder.
        await mail.discardIMAPDraft()
        #expect(try imap.messages(in: Self.draftsFolder).isEmpty)
    }

    @Test @MainActor func aDraftLeftOnTheServerOfAMessageThatWentIsNotOfferedAgain() throws {
        let (world, imap) = try Self.start()
        defer { imap.stop() }
        // Sent, but the server could not be reached to take its draft away.
        let message = Data("From: kim@example.com\r\nTo: park@example.com\r\nSubject: went\r\nMessage-ID: <went@example.com>\r\n\r\nsent\r\n".utf8)
        let draft = try world.file("went.eml", message)
        try imap.append(draft, to: Self.draftsFolder)
        let mail = try Self.mail(world)
        let sent = try #require(mail.settings.accounts.first?.sent)
        try sent.create()
        _ = try sent.deliver(copyOf: draft.path, flags: "S")

        let (drafts, unreadable) = mail.savedDrafts()
        #expect(unreadable.isEmpty)
        #expect(!drafts.contains { $0.title == "went" }, "a sent message is not offered to resume: \(drafts)")
        #expect(try imap.messages(in: Self.draftsFolder).isEmpty, "its draft is taken from the server now")

        // A draft of a message that did not go is offered as before.
        let other = try world.file("other.eml", Data("From: kim@example.com\r\nTo: park@example.com\r\nSubject: still here\r\nMessage-ID: <here@example.com>\r\n\r\nnot yet\r\n".utf8))
        try imap.append(other, to: Self.draftsFolder)
        #expect(mail.savedDrafts().drafts.contains { $0.title == "still here" })
    }

    @Test @MainActor func resumeOffersTheNewestDraftOnTheServer() throws {
        let (world, imap) = try Self.start()
        defer { imap.stop() }
        // Written by another device: nothing of it is in the local drafts.
        let older = try world.file("older.eml", Data("From: kim@example.com\r\nTo: lee@example.com\r\nSubject: older\r\nMessage-ID: <older@example.com>\r\n\r\nold\r\n".utf8))
        let newer = try world.file("newer.eml", Data("From: kim@example.com\r\nTo: park@example.com\r\nSubject: from the phone\r\nMessage-ID: <phone@example.com>\r\n\r\nwritten on the bus\r\n".utf8))
        try imap.append(older, to: Self.draftsFolder)
        try imap.append(newer, to: Self.draftsFolder)

        let mail = try Self.mail(world)
        let (drafts, unreadable) = mail.savedDrafts()
        #expect(unreadable.isEmpty)
        let draft = try #require(drafts.first { $0.title == "from the phone" }, "\(drafts)")
        #expect(!drafts.contains { $0.title == "older" }, "only the newest is fetched")
        try mail.resume(draft: draft.path, filesIn: world.root.appendingPathComponent("reopened").path)
        #expect(mail.resumedValues?["subject"] == "from the phone")
        #expect(mail.resumedValues?["body"]?.contains("written on the bus") == true)
        #expect(mail.imapDraft.current?.uid == 2)
        // Asked again, the same draft is not copied twice.
        #expect(mail.savedDrafts().drafts.filter { $0.title == "from the phone" }.count == 1)

        // The form's next save replaces that draft on the server.
        let path = try mail.autosaveJob()(["from": MailWorld.fromLine, "to": "park@example.com", "subject": "from the phone", "body": "finished"])
        mail.autosaved(at: path)
        #expect(try imap.messages(in: Self.draftsFolder).map(\.subject) == ["older", "from the phone"])
        #expect(try imap.messages(in: Self.draftsFolder).map(\.uid) == [1, 3])
    }
}

extension MailIMAPDraftsTests {
    /// `share --resume` opens the newest draft of the IMAP server (written on
    /// another device) in the compose screen; sending it takes it off the server.
    @Test func resumeOpensTheServersDraftAndSendingRemovesIt() throws {
        let (world, imap) = try Self.start()
        defer { imap.stop() }
        let smtp = try SMTPServer(directory: world.root)
        defer { smtp.stop() }
        let lines = try imap.configLines(in: world, extra: ["drafts = imap:auto"]).filter { !$0.hasPrefix("sent ") }
        try world.configure(["transport = smtp://127.0.0.1:\(smtp.port)", "tls = off"] + lines)
        let draft = try world.file("phone.eml", Data("""
            From: \(MailWorld.fromLine)\r
            To: park@example.com\r
            Subject: =?UTF-8?B?7Y+w7JeQ7IScIOyTtCDstIjslYg=?=\r
            Message-ID: <phone-draft@example.com>\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            written on the bus\r

            """.utf8))
        try imap.append(draft, to: Self.draftsFolder)

        let run = try ComposeRun(world, ["--json", "--resume"])
        let screen = try run.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: screen) == "폰에서 쓴 초안", "screen:\n\(screen.text)")
        #expect(ComposeRun.value(ComposeRun.toRow, of: screen) == "park@example.com", "screen:\n\(screen.text)")
        #expect(screen.lines[ComposeRun.bodyRow] == " written on the bus", "screen:\n\(screen.text)")
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (_, check) = try smtp.onlyMessage()
        #expect(check.header("Subject") == "폰에서 쓴 초안")
        #expect(try imap.messages(in: Self.draftsFolder).isEmpty, "the server's draft is gone once sent")
    }
}
