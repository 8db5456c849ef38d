import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Mail's compose screen end to end (SPEC §5, §7, §8): the real binary in a
/// real terminal (tmux), typed at like a person would, sending to a real SMTP
/// server (aiosmtpd), with the message judged by Python's email package and
/// the Maildirs and the autosave file looked at on disk.
@Suite struct ComposeEndToEndTests {
    static let park = "park@example.com"

    // MARK: - 1. Picker → compose → send

    @Test func pickMailTypeAndSendRoundTripsKoreanSubjectBodyAndAttachment() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let pdf = try world.file("3분기 보고서.pdf", FixtureBytes.pdf)
        let bodyText = "분기 보고서를 보냅니다"
        let subject = "3분기 보고서"
        let addedLine = "금요일까지 검토 부탁드립니다. Thanks!"

        let run = try ComposeRun(world, ["--json", "--text", bodyText, pdf.path])
        let session = run.session
        // The picker: move the selection to Mail (reverse video), then Enter.
        try session.waitFor("Mail")
        var presses = 0
        while try !session.capture(colors: true).isSelected("Mail") {
            presses += 1
            let before = try session.capture(colors: true).text
            try #require(presses <= 8, "Right never selected Mail; screen:\n\(before)")
            try session.send("Right")
            try session.waitUntil("the selection to move", colors: true) { $0.text != before }
        }
        try session.send("Enter")

        // The compose screen: the text item is the body, the PDF an attachment row.
        var screen = try run.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.fromRow, of: screen) == MailWorld.fromLine, "screen:\n\(screen.text)")
        #expect(screen.lines[ComposeRun.bodyRow] == " " + bodyText, "the body shows the text item; screen:\n\(screen.text)")
        let attachmentRow = screen.lines.firstIndex { $0.contains("📎 3분기 보고서.pdf") }
        #expect(attachmentRow.map { screen.lines[$0].contains("application/pdf") } == true,
                "the attachment row names the file and its type; screen:\n\(screen.text)")
        #expect(screen.contains("Attachments (1)"), "screen:\n\(screen.text)")
        try run.type(Self.park, into: ComposeRun.toRow, "To (the first empty field)")
        try session.send("Tab")
        try run.waitForCursor(row: ComposeRun.ccRow, "Cc")
        try session.send("Tab")
        try run.waitForCursor(row: ComposeRun.bccRow, "Bcc")
        try session.send("Tab")
        try run.type(subject, into: ComposeRun.subjectRow, "Subject")
        // Tab into the body: the cursor waits on a fresh line after the shared text.
        try session.send("Tab")
        try run.waitForCursor(row: ComposeRun.bodyRow + 1, "the body's fresh line")
        try session.sendLiteral(addedLine)
        screen = try session.waitUntil("the typed body line") { $0.lines[ComposeRun.bodyRow + 1] == " " + addedLine }
        #expect(screen.lines[ComposeRun.bodyRow] == " " + bodyText, "screen:\n\(screen.text)")

        try session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0, "stderr: \(session.stderr)")
        #expect(completion.activityType == "mail" && completion.outcome == "sent" && completion.completed && !completion.hasError,
                "\(completion)")

        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.mailFrom == MailWorld.fromAddress)
        #expect(message.envelope.rcptTos == [Self.park])
        #expect(check.header("Subject") == subject)
        #expect(check.addresses["to"] == [.init(name: "", addr: Self.park)])
        #expect(check.addresses["from"] == [.init(name: "김민수", addr: MailWorld.fromAddress)])
        let text = check.textParts.first?.normalizedText.map(Self.trimmingTrailingNewlines)
        #expect(text == bodyText + "\n" + addedLine, "body: \(check.textParts.map(\.text))")
        #expect(check.attachments.count == 1, "parts: \(check.parts.map(\.type))")
        #expect(check.attachments.first?.filename == "3분기 보고서.pdf")
        #expect(check.attachments.first?.type == "application/pdf")
        #expect(check.attachments.first?.sha256 == (try sha256(of: pdf)), "the attachment's bytes arrive unchanged")

        // The sent copy is filed; nothing is left in drafts, the outbox or the autosave file.
        let sent = try world.checks(in: world.sent)
        #expect(sent.count == 1 && sent.first?.header("Subject") == subject, "\(world.folders)")
        world.expectEmpty(world.drafts, world.outbox, because: "drafts must be empty after a send")
        #expect(!FileManager.default.fileExists(atPath: ComposeRun.stateFile(world).path), "compose.json must be gone after a send")
    }

    // MARK: - 2. kill -9, then --resume

    @Test func killDashNineMidComposeIsRecoveredByResume() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let subject = "복구된 초안"
        let body = "Here are the numbers."

        let first = try ComposeRun.mail(world, ["--text", body])
        try first.type(Self.park, into: ComposeRun.toRow, "To")
        try first.session.send("Tab", "Tab", "Tab")
        try first.type(subject, into: ComposeRun.subjectRow, "Subject")

        // The autosave (within a second of the last change): compose.json with
        // the typed values, and one draft in the drafts Maildir that has them.
        let stateFile = ComposeRun.stateFile(world)
        try first.poll("compose.json with the typed To and Subject, and the draft") {
            guard let saved = Self.savedValues(stateFile), saved["to"] == Self.park, saved["subject"] == subject else { return false }
            guard let drafts = try world.settledChecks(in: world.drafts) else { return false }
            return drafts.count == 1 && drafts[0].header("Subject") == subject
        }
        let pid = try first.pid()
        #expect(kill(pid, SIGKILL) == 0, "kill -9 \(pid): errno \(errno)")
        #expect(try first.session.waitForExit() == 128 + SIGKILL, "share was killed by SIGKILL")
        #expect(Self.savedValues(stateFile)?["subject"] == subject, "compose.json outlives the kill")
        #expect(try server.messages().isEmpty, "nothing was sent before the kill")

        let second = try ComposeRun(world, ["--json", "--resume"])
        let screen = try second.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.toRow, of: screen) == Self.park, "screen:\n\(screen.text)")
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: screen) == subject, "screen:\n\(screen.text)")
        #expect(screen.lines[ComposeRun.bodyRow] == " " + body, "screen:\n\(screen.text)")
        try second.session.send("C-x")
        let (status, completion) = try second.finish()
        #expect(status == 0, "stderr: \(second.session.stderr)")
        #expect(completion.outcome == "sent" && completion.completed, "\(completion)")

        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.rcptTos == [Self.park])
        #expect(check.header("Subject") == subject)
        #expect(check.addresses["to"] == [.init(name: "", addr: Self.park)])
        #expect(check.textParts.first?.normalizedText.map(Self.trimmingTrailingNewlines) == body)
        world.expectEmpty(world.drafts, because: "the recovered draft is gone once sent")
        #expect(world.allMessages(in: world.sent).count == 1, "\(world.folders)")
        #expect(!FileManager.default.fileExists(atPath: stateFile.path), "compose.json must be gone after a send")
    }

    // MARK: - 3. An invalid address

    /// No recipient is asked about before an empty subject, in the form's
    /// words (no command-line advice inside the screen).
    @Test func aMissingRecipientComesBeforeAnEmptySubject() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try ComposeRun.mail(world, ["--text", "Hello"])
        let session = run.session
        try run.waitForCursor(row: ComposeRun.toRow, "To")
        try session.send("C-x")
        var screen = try session.waitUntil("the refusal on the status line") { ComposeRun.status($0).contains("No recipient") }
        #expect(ComposeRun.status(screen).contains("No recipient: add one in To, Cc or Bcc"), "screen:\n\(screen.text)")
        #expect(!screen.text.contains("subject is empty") && !screen.text.contains("--to"), "screen:\n\(screen.text)")
        #expect(!session.hasExited)
        #expect(try server.messages().isEmpty)

        // With a recipient, the empty subject is the next question.
        try session.sendLiteral("kim@example.com")
        try run.waitForValue("kim@example.com", row: ComposeRun.toRow)
        try session.send("C-x")
        screen = try session.waitUntil("the empty subject asked about") { $0.text.contains("The subject is empty.") }
        #expect(!session.hasExited, "stdout: \(session.stdout)")
    }

    /// Without a transport the form says, before Send, where the message will go.
    @Test func withoutATransportTheFormSaysSendQueues() throws {
        let world = try MailWorld()
        let run = try ComposeRun.mail(world, ["--to", "kim@example.com", "--subject", "Hi", "--text", "Hello"])
        let screen = try run.session.waitUntil("the notice on the status line") { ComposeRun.status($0).contains("No transport") }
        #expect(ComposeRun.status(screen).contains("No transport is set: Send puts the message in the outbox"), "screen:\n\(screen.text)")
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 1 && completion.outcome == "queued", "stderr: \(run.session.stderr)")

        // With a transport, nothing is said.
        let (served, server) = try MailWorld.withServer()
        defer { server.stop() }
        let sending = try ComposeRun.mail(served, ["--to", "kim@example.com", "--subject", "Hi", "--text", "Hello"])
        #expect(!ComposeRun.status(try sending.waitForCompose()).contains("No transport"))
        try sending.session.send("C-x")
        #expect(try sending.finish().0 == 0)
    }

    /// Ctrl-T starts where the person is: Tab completes from the current
    /// folder, and a relative name attaches the file there.
    @Test func attachStartsInTheCurrentFolder() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try ComposeRun.mail(world, ["--to", "kim@example.com", "--subject", "Q4", "--text", "Hello"])
        let session = run.session
        try session.send("C-t")
        try session.waitUntil("the attach prompt") { $0.text.contains("Attach a file") }
        try session.sendLiteral("Q4 P")
        try session.send("Tab")
        try session.waitUntil("the name completed from the current folder") { $0.text.contains("Q4 Projections.pdf") }
        try session.send("Enter")
        let screen = try session.waitUntil("the file attached") { screen in
            !screen.text.contains("Attach a file") && screen.text.contains("Q4 Projections.pdf")
        }
        #expect(!session.hasExited, "screen:\n\(screen.text)")
        try session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(session.stderr)")
        let (message, _) = try server.onlyMessage()
        #expect(String(decoding: message.raw, as: UTF8.self).contains("Q4 Projections.pdf"), "the file from the current folder is attached")
    }

    @Test func invalidAddressIsMarkedAndNotSentUntilFixed() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let bad = "kim@@example.com"
        let good = "kim@example.com"

        let run = try ComposeRun.mail(world, ["--subject", "주소 확인", "--text", "Hello"])
        let session = run.session
        try run.waitForCursor(row: ComposeRun.toRow, "To")
        try session.sendLiteral(bad)
        var screen = try session.waitUntil("To marked with \"!\"") { screen in
            ComposeRun.value(ComposeRun.toRow, of: screen) == bad && screen.lines[ComposeRun.toRow].hasPrefix("!")
        }
        #expect(screen.lines[ComposeRun.toRow].hasPrefix("!To:"), "screen:\n\(screen.text)")
        #expect(ComposeRun.status(screen).hasPrefix(" ⚠ "), "the focused field's problem is on the status line; screen:\n\(screen.text)")

        // Leave To (the status line then shows news, not the field's problem), and send.
        try session.send("Tab")
        try run.waitForCursor(row: ComposeRun.ccRow, "Cc")
        try session.send("C-x")
        screen = try session.waitUntil("the reason on the status line") { screen in
            let status = ComposeRun.status(screen)
            return status.hasPrefix(" ⚠ ") && status.contains(bad)
        }
        #expect(screen.lines[0].contains("New Message"), "the screen stays open; screen:\n\(screen.text)")
        #expect(screen.lines[ComposeRun.toRow].hasPrefix("!To:"), "To is still marked; screen:\n\(screen.text)")
        #expect(!session.hasExited, "stdout: \(session.stdout)")
        #expect(try server.messages().isEmpty, "nothing reaches the server")
        world.expectEmpty(world.sent, world.outbox)

        // Fix it: back to To, C-a C-k, type the right address; the mark goes; Ctrl-X sends.
        try session.send("BTab")
        try run.waitForCursor(row: ComposeRun.toRow, "To")
        try session.send("C-a", "C-k")
        try run.waitForValue("", row: ComposeRun.toRow)
        try session.sendLiteral(good)
        try run.waitForValue(good, row: ComposeRun.toRow)
        try session.waitUntil("the mark gone") { $0.lines[ComposeRun.toRow].hasPrefix(" To:") }
        try session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0, "stderr: \(session.stderr)")
        #expect(completion.outcome == "sent" && completion.completed, "\(completion)")
        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.rcptTos == [good])
        #expect(check.addresses["to"] == [.init(name: "", addr: good)])
        #expect(check.header("Subject") == "주소 확인")
    }

    // MARK: - 4. "see attached" with nothing attached

    @Test func attachmentWarningAsksAndNGoesBackYSends() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let body = "Hi Park, please see attached."
        let warning = "The message mentions an attachment, but nothing is attached."

        let run = try Self.composeToPark(world, subject: "보고서", text: body)
        let session = run.session
        try session.send("C-x")
        var screen = try session.waitFor("Send anyway?")
        #expect(screen.contains(warning), "screen:\n\(screen.text)")
        #expect(screen.contains("Send anyway?  y send   n go back"), "screen:\n\(screen.text)")
        #expect(!screen.contains("The subject is empty."), "the subject is not empty; screen:\n\(screen.text)")

        try session.send("n")
        screen = try session.waitUntil("the dialog closed") { !$0.contains("Send anyway?") }
        #expect(screen.lines[0].contains("New Message"), "back in the compose screen; screen:\n\(screen.text)")
        #expect(!session.hasExited, "n does not send; stdout: \(session.stdout)")
        #expect(try server.messages().isEmpty, "n does not send")
        world.expectEmpty(world.sent, world.outbox)

        try session.send("C-x")
        try session.waitFor("Send anyway?")
        try session.send("y")
        let (status, completion) = try run.finish()
        #expect(status == 0, "stderr: \(session.stderr)")
        #expect(completion.outcome == "sent" && completion.completed, "\(completion)")
        let check = try server.onlyMessage().check
        #expect(check.attachments.isEmpty)
        #expect(check.textParts.first?.normalizedText.map(Self.trimmingTrailingNewlines) == body)
    }

    // MARK: - 5. Esc on a changed message, then discard

    @Test func escapeOnAChangedMessageAsksAndDiscardCancels() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let run = try Self.composeToPark(world, subject: "취소할 메시지", text: "Not going anywhere.")
        let session = run.session
        try run.waitForCursor(row: ComposeRun.toRow, "To")
        try session.sendLiteral(", lee@example.com")
        try run.waitForValue(Self.park + ", lee@example.com", row: ComposeRun.toRow)
        // Let the autosave write its draft first, so discarding has something to remove.
        try run.poll("the autosave draft") { try world.settledChecks(in: world.drafts)?.count == 1 }

        try session.send("Escape")
        let screen = try session.waitFor("There are unsaved changes.")
        #expect(screen.contains("s save draft   d discard   Esc keep editing"), "screen:\n\(screen.text)")
        #expect(!session.hasExited, "Esc on a changed message asks first")
        try session.send("d")
        let (status, completion) = try run.finish()
        #expect(status == 1, "stderr: \(session.stderr)")
        #expect(completion.activityType == "mail" && completion.outcome == "cancelled" && !completion.completed, "\(completion)")
        #expect(try server.messages().isEmpty, "nothing is sent")
        world.expectEmpty(world.drafts, world.sent, world.outbox, because: "discard leaves no draft")
        #expect(!FileManager.default.fileExists(atPath: ComposeRun.stateFile(world).path), "compose.json must be gone after discard")
    }

    @Test func shrinkingAndGrowingTheTerminalRedrawsEveryPart() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let pdf = try world.file("Q4.pdf", FixtureBytes.pdf)
        let run = try Self.composeToPark(world, subject: "Resized", text: "Still here after the resize.", [pdf.path])
        let session = run.session
        let before = try run.waitForCompose()
        let helpBar = try #require(before.lines.last?.trimmingCharacters(in: .whitespaces), "no help bar")
        #expect(!helpBar.isEmpty, "screen:\n\(before.text)")
        // Rows that do not change with time (the status line may say the draft was saved).
        func steady(_ screen: Screen) -> [String] {
            let lines = screen.lines
            return Array(lines[0...ComposeRun.bodyRow]) + [lines.last ?? ""]
        }

        try session.resize(width: 24, height: 6)
        try session.waitFor("Make the terminal")
        try session.resize(width: 60, height: 14)
        try session.waitUntil("the form at 60×14") { $0.lines.count == 14 && $0.contains(" Subject:") && $0.contains("Q4.pdf") }
        try session.resize(width: ComposeRun.width, height: ComposeRun.height)
        let after = try session.waitUntil("the form back at full size") { screen in
            screen.lines.count == ComposeRun.height && steady(screen) == steady(before)
        }
        #expect(after.contains("Still here after the resize."))
        #expect(after.contains("Q4.pdf"))
        #expect(!session.hasExited)
        // Nothing was typed: Esc cancels without asking.
        try session.send("Escape")
        #expect(try run.finish().status == 1)
    }

    /// Only the rows that changed are given to ncurses after the first
    /// frame: after typing over wide characters and a dialog opened and
    /// closed over the body, the screen must be what a draw from scratch
    /// shows (forced by a resize away and back).
    @Test func editsAndADialogLeaveTheScreenAsADrawFromScratch() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try Self.composeToPark(world, subject: "다시 그리기", text: "가나다라 abc 마바사")
        let session = run.session
        for row in [ComposeRun.ccRow, ComposeRun.bccRow, ComposeRun.subjectRow] {
            try session.send("Tab")
            try run.waitForCursor(row: row, "the next field")
        }
        try session.send("Tab")
        try run.waitForCursor(row: ComposeRun.bodyRow + 1, "the body's fresh line")
        try session.send("Up")
        try session.send("C-a")
        try session.send("Right")
        try session.sendLiteral("x한")
        try session.waitUntil("the typed text") { $0.lines[ComposeRun.bodyRow] == " 가x한나다라 abc 마바사" }
        try session.send("Escape")
        try session.waitFor("There are unsaved changes.")
        try session.send("Escape")
        // Every row but the status line, which the autosave may change meanwhile.
        func steady(_ screen: Screen) -> [String] {
            var lines = screen.lines
            if lines.count == ComposeRun.height { lines.remove(at: ComposeRun.height - 2) }
            return lines
        }
        let edited = try session.waitUntil("the dialog gone", colors: true) { !$0.contains("There are unsaved changes.") }
        try session.resize(width: 40, height: 12)
        try session.waitUntil("the form at 40×12") { $0.lines.count == 12 }
        try session.resize(width: ComposeRun.width, height: ComposeRun.height)
        let redrawn = try session.waitUntil("the form drawn whole again, as before the resize", colors: true) {
            steady($0) == steady(edited)
        }
        #expect(steady(redrawn) == steady(edited))
        try session.send("C-x")
        #expect(try run.finish().status == 0, "stderr: \(session.stderr)")
    }

    /// A paste much bigger than one read of the terminal (4 KiB) comes in
    /// several reads while the screen holds its frame back until all is in:
    /// every byte of it is typed, none is lost or left unread, and the
    /// message sent has every line. ASCII first, so that the first read
    /// (4,095 bytes) ends between two characters and the screen looks for
    /// more input before it draws.
    @Test func aPasteOfManyReadsIsTypedWhole() throws {
        try paste((1...120).map { "line \($0): the quick brown fox jumps over" } + (121...200).map { "줄 \($0): 분기 보고서" })
    }

    /// The same with the first read ending inside a Hangul syllable: the
    /// rest of it comes in the next read, and the syllable is typed whole.
    @Test func aCharacterCutBetweenTwoReadsIsTypedWhole() throws {
        // 68 lines of 60 bytes with their line feeds, then 14: 4,094 bytes before 한.
        let ascii = Array(repeating: String(repeating: "x", count: 59), count: 68) + [String(repeating: "y", count: 14) + "한글 그대로"]
        try paste(ascii + (1...50).map { "줄 \($0): 분기 보고서" })
    }

    /// Pastes `lines` into the body of a form whose body is `붙여넣은 글:`
    /// and sends it: share is stopped while the paste goes in, so that a
    /// full read's worth waits for it and the rest follows while it takes
    /// that in.
    private func paste(_ lines: [String]) throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try Self.composeToPark(world, subject: "붙여넣기", text: "붙여넣은 글:")
        let session = run.session
        for row in [ComposeRun.ccRow, ComposeRun.bccRow, ComposeRun.subjectRow, ComposeRun.bodyRow + 1] {
            try session.send("Tab")
            try run.waitForCursor(row: row, "the next field")
        }
        let pid = try run.pid()
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try session.sendLiteral(lines.joined(separator: "\n"))
        try run.poll("the paste waiting in the terminal") { try session.unreadInput() >= 4095 }
        kill(pid, SIGCONT)
        try session.waitFor(lines[lines.count - 1])
        try session.send("C-x")
        #expect(try run.finish().status == 0, "stderr: \(session.stderr)")
        let text = try server.onlyMessage().check.textParts.first?.normalizedText.map(Self.trimmingTrailingNewlines)
        #expect(text == (["붙여넣은 글:"] + lines).joined(separator: "\n"), "body: \(text ?? "none")")
    }

    // MARK: - 6. A temporary refusal (4xx)

    @Test func temporaryRefusalQueuesInTheOutbox() throws {
        let (world, server) = try MailWorld.withServer(["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { server.stop() }
        let subject = "나중에 보낼 메시지"

        let run = try Self.composeToPark(world, subject: subject, text: "Queued for later.")
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 1, "stderr: \(run.session.stderr)")
        #expect(completion.outcome == "queued" && !completion.completed, "\(completion)")
        #expect(try server.messages().isEmpty, "the server accepted nothing")
        let queued = try world.checks(in: world.outbox)
        #expect(queued.count == 1, "the message waits in the outbox: \(world.folders)")
        #expect(queued.first?.header("Subject") == subject)
        #expect(queued.first?.addresses["to"] == [.init(name: "", addr: Self.park)])
        world.expectEmpty(world.drafts, world.sent)
        #expect(!FileManager.default.fileExists(atPath: ComposeRun.stateFile(world).path), "compose.json must be gone")
    }

    // MARK: - 7. A permanent refusal (5xx)

    @Test func permanentRefusalKeepsTheScreenOpenAndTheDraft() throws {
        let (world, server) = try MailWorld.withServer(["--data-reply", "554 5.7.1 Rejected as spam"])
        defer { server.stop() }
        let subject = "스팸 아닙니다"

        let run = try Self.composeToPark(world, text: "A real message.")
        let session = run.session
        try run.type(subject, into: ComposeRun.subjectRow, "Subject (the first empty field)")
        try run.poll("the autosave draft") { try world.settledChecks(in: world.drafts)?.map { $0.header("Subject") } == [subject] }

        try session.send("C-x")
        // The refusal comes back as an error on the status line, in the server's words.
        let screen = try session.waitUntil("an error on the status line") { ComposeRun.status($0).hasPrefix(" ⚠ ") }
        #expect(ComposeRun.status(screen).contains("554 5.7.1 Rejected as spam"),
                "the server's words, whole, on the status line: \(ComposeRun.status(screen))")
        #expect(screen.lines[0].contains("New Message"), "the screen stays open; screen:\n\(screen.text)")
        #expect(ComposeRun.value(ComposeRun.subjectRow, of: screen) == subject, "screen:\n\(screen.text)")
        #expect(!session.hasExited, "stdout: \(session.stdout)")
        #expect(try server.messages().isEmpty)
        let drafts = try world.checks(in: world.drafts)
        #expect(!drafts.isEmpty && drafts.allSatisfy { $0.header("Subject") == subject && $0.defects.isEmpty },
                "the message is in drafts: \(world.folders)")
        #expect(drafts.count == 1, "the message is in drafts once, not once per save: \(world.folders)")
        world.expectEmpty(world.sent, world.outbox)
    }

    // MARK: - 8. A refusal, then a send that works

    /// After a refused send, Ctrl-X again (the refusal was one-off): the
    /// message goes, and nothing of it is left in drafts (SPEC §5: drafts
    /// hold unsent messages). The transport is a sendmail stand-in that
    /// refuses its first message and accepts the next.
    @Test func refusedThenSentLeavesNoDraftBehind() throws {
        let world = try MailWorld()
        let delivered = world.root.appendingPathComponent("delivered.eml")
        let refusedOnce = world.root.appendingPathComponent("refused-once")
        let script = try world.file("fake-sendmail", Data("""
            #!/bin/sh
            if [ ! -e \(TmuxSession.quote(refusedOnce.path)) ]; then
                cat >/dev/null
                : >\(TmuxSession.quote(refusedOnce.path))
                echo "554 5.7.1 Rejected as spam" >&2
                exit 1
            fi
            cat >\(TmuxSession.quote(delivered.path))
            """.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try world.configure(["sendmail = \(script.path)"])
        let subject = "두 번째 시도"

        let run = try Self.composeToPark(world, text: "Second time lucky.")
        let session = run.session
        try run.type(subject, into: ComposeRun.subjectRow, "Subject")
        try run.poll("the autosave draft") { try world.settledChecks(in: world.drafts)?.count == 1 }
        try session.send("C-x")
        let refused = try session.waitUntil("the refusal on the status line") { ComposeRun.status($0).hasPrefix(" ⚠ ") }
        #expect(!session.hasExited && refused.lines[0].contains("New Message"), "screen:\n\(refused.text)")
        #expect(FileManager.default.fileExists(atPath: refusedOnce.path), "the stand-in was asked once")

        try session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0, "stderr: \(session.stderr)")
        #expect(completion.outcome == "sent" && completion.completed, "\(completion)")
        let message = try MailCheck.run(file: delivered)
        #expect(message.header("Subject") == subject)
        #expect(world.allMessages(in: world.sent).count == 1, "\(world.folders)")
        world.expectEmpty(world.drafts, because: "the sent message must not stay in drafts")
        #expect(!FileManager.default.fileExists(atPath: ComposeRun.stateFile(world).path), "compose.json must be gone after a send")
    }

    // MARK: - Helpers

    /// Mail's compose screen in `world` to Park, with `subject` (when
    /// given), the body `text` and `more` arguments (``ComposeRun/mail(_:_:)``).
    static func composeToPark(_ world: MailWorld, subject: String? = nil, text: String, _ more: [String] = []) throws -> ComposeRun {
        try ComposeRun.mail(world, ["--to", park] + (subject.map { ["--subject", $0] } ?? []) + ["--text", text] + more)
    }

    /// The `values` of compose.json, if it exists and parses.
    static func savedValues(_ file: URL) -> [String: String]? {
        guard let data = try? Data(contentsOf: file),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["values"] as? [String: String]
    }

    static func trimmingTrailingNewlines(_ text: String) -> String {
        String(text.reversed().drop { $0 == "\n" }.reversed())
    }
}

/// A closed terminal (SIGHUP) saves what was typed at once, not within the second.
@Suite struct ComposeHangUpTests {
    @Test func closingTheTerminalSavesTheLastKeystrokes() throws {
        let world = try MailWorld()
        let run = try ComposeRun(world, ["--activity", "mail", "--text", "Body"])
        try run.waitForCompose()
        try run.waitForCursor(row: ComposeRun.toRow, "To")
        let pid = try run.pid()
        let typed = "last-second@example.com"
        try run.session.sendLiteral(typed)
        try run.waitForValue(typed, row: ComposeRun.toRow)
        // Close the terminal right away: tmux's server goes, the pty hangs up.
        run.session.close()
        try eventually("share to exit after the hang-up", timeout: 20, report: { "pid \(pid)" }) { kill(pid, 0) != 0 }
        let data = try Data(contentsOf: ComposeRun.stateFile(world))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let values = try #require(object["values"] as? [String: String])
        #expect(values["to"] == typed, "the autosave holds what was typed before the terminal closed: \(values)")
        let drafts = world.allMessages(in: world.drafts)
        #expect(drafts.count == 1, "\(world.folders)")
        if let draft = drafts.first {
            let text = (try? String(contentsOf: draft, encoding: .utf8)) ?? ""
            #expect(text.contains("To: last-second@example.com"), "the draft in the Maildir has it too")
        }
    }
}
