import Foundation
import Testing
import TestSupport

/// Drafts reopened: `share --resume` after Ctrl-O opens the saved draft
/// (its attachments too, from the draft itself), and `--resume --draft`
/// asks which one when there are several.
@Suite(.serialized)
struct DraftResumeTests {
    static let park = "park@example.com"

    @Test func ctrlOThenResumeOpensTheDraftAndSendingItRemovesIt() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let bytes = Data((0..<5000).map { UInt8($0 % 251) })
        let file = try world.file("측정값.bin", bytes)
        let first = try ComposeRun.mail(world, ["--to", Self.park, "--subject", "초안: 3분기", "--text", "숫자는 첨부에 있습니다.", file.path])
        try first.session.send("C-o")
        let (saved, _) = try first.finish()
        #expect(saved == 1, "saved as a draft: \(first.session.stderr)")
        #expect(world.allMessages(in: world.drafts).count == 1, "\(world.folders)")
        // The draft holds the file: the original may go.
        let digest = try sha256(of: file)
        try FileManager.default.removeItem(at: file)

        let second = try ComposeRun(world, ["--json", "--resume"])
        let screen = try second.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.toRow, of: screen) == Self.park, "screen:\n\(screen.text)")
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: screen) == "초안: 3분기", "screen:\n\(screen.text)")
        #expect(screen.lines[ComposeRun.bodyRow] == " 숫자는 첨부에 있습니다.", "screen:\n\(screen.text)")
        #expect(screen.contains("📎 측정값.bin") && screen.contains("Attachments (1)"), "screen:\n\(screen.text)")
        try second.session.send("C-x")
        let (status, completion) = try second.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(second.session.stderr)")
        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.rcptTos == [Self.park])
        #expect(check.header("Subject") == "초안: 3분기")
        #expect(check.attachments.first?.filename == "측정값.bin")
        #expect(check.attachments.first?.sha256 == digest, "the attachment's bytes come back from the draft unchanged")
        world.expectEmpty(world.drafts, because: "the reopened draft is gone once sent")
    }

    @Test func resumeDraftAsksWhichOfSeveral() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        for subject in ["Budget for Q1", "Offsite plans"] {
            let run = try world.share(["--activity", "mail", "--save-draft", "--to", Self.park, "--subject", subject, "--text", subject + " body"])
            #expect(run.status == 1, "\(run.err)")
        }
        let run = try ComposeRun(world, ["--json", "--resume", "--draft"])
        var screen = try run.session.waitFor("Choose a draft")
        #expect(screen.contains("Budget for Q1") && screen.contains("Offsite plans") && screen.contains(Self.park), "screen:\n\(screen.text)")
        #expect(screen.lines[0].contains("Resume a draft"))
        // The newest first: typing narrows the list to the older one.
        try run.session.sendLiteral("budget")
        screen = try run.session.waitUntil("the list narrowed") { !$0.contains("Offsite plans") }
        #expect(screen.contains("Budget for Q1"))
        try run.session.send("Enter")
        screen = try run.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: screen) == "Budget for Q1", "screen:\n\(screen.text)")
        try run.session.send("C-x")
        #expect(try run.finish().status == 0, "stderr: \(run.session.stderr)")
        #expect(try server.onlyMessage().1.header("Subject") == "Budget for Q1")
        let left = try world.checks(in: world.drafts)
        #expect(left.map { $0.header("Subject") } == ["Offsite plans"], "the other draft stays")

        // One draft left: it opens at once; saved again, it replaces itself.
        let single = try ComposeRun(world, ["--json", "--resume", "--draft"])
        let only = try single.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: only) == "Offsite plans")
        try single.session.send("C-o")
        #expect(try single.finish().status == 1)
        #expect(try world.checks(in: world.drafts).map { $0.header("Subject") } == ["Offsite plans"], "saved over itself, not twice")

        // Esc on the chooser reopens nothing and changes nothing.
        #expect(try world.share(["--activity", "mail", "--save-draft", "--to", Self.park, "--subject", "Third", "--text", "3"]).status == 1)
        let closed = try ComposeRun(world, ["--json", "--resume", "--draft"])
        try closed.session.waitFor("Choose a draft")
        try closed.session.send("Escape")
        let (status, completion) = try closed.finish()
        #expect(status == 1 && completion.outcome == "cancelled", "stderr: \(closed.session.stderr)")
        #expect(Set(try world.checks(in: world.drafts).compactMap { $0.header("Subject") }) == ["Offsite plans", "Third"])
    }

    @Test func nothingToResumeAndADraftWithoutResumeAreUsageErrors() throws {
        let world = try MailWorld()
        let none = try world.share(["--resume", "--draft"])
        #expect(none.status == 2 && none.err.contains("there is no unfinished message and no saved draft to resume"),
                "\(none.err)")
        let alone = try world.share(["--draft", "--text", "hi"])
        #expect(alone.status == 2 && alone.err.contains("--draft goes with --resume"), "\(alone.err)")
    }
}
