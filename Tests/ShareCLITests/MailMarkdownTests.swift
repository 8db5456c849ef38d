import Foundation
import Testing
import TestSupport

/// Markdown mail through a real SMTP server on 127.0.0.1: the text as
/// typed and its HTML, read back by Python's email parser.
@Suite struct MailMarkdownTests {
    static let body = "안녕하세요,\n\n| 분기 | 합계 |\n|---|---|\n| Q3 | 1,204 |\n\n~~초안~~ 최종: https://example.com/q3 <b>raw</b>\n"

    @Test func markdownGoesAsTheTextAndItsHTML() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let sent = try world.send(["--send", "--json", "--to", "park@example.com", "--subject", "3분기", "--markdown", "--body", Self.body],
                                  to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        let check = sent.check
        #expect(check.parts.map(\.type) == ["multipart/alternative", "text/plain", "text/html"], "parts: \(check.parts.map(\.type))")
        let plain = try #require(check.parts.first { $0.type == "text/plain" }?.normalizedText)
        let html = try #require(check.parts.first { $0.type == "text/html" }?.normalizedText)
        #expect(plain.trimmingCharacters(in: .newlines) == Self.body.trimmingCharacters(in: .newlines), "the Markdown as typed: \(plain.debugDescription)")
        #expect(html.contains("<table>") && html.contains("<td>Q3</td>") && html.contains("<del>초안</del>"), "\(html)")
        #expect(html.contains("<a href=\"https://example.com/q3\">"), "\(html)")
        #expect(html.contains("&lt;b&gt;raw&lt;/b&gt;") && !html.contains("<b>"), "raw HTML is shown, not passed: \(html)")
    }

    @Test func theConfigMakesEveryBodyMarkdownButHTMLStaysHTML() throws {
        let world = try MailWorld()
        let server = try world.startServer()
        defer { server.stop() }
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "markdown = on"])
        let sent = try world.send(["--send", "--to", "park@example.com", "--subject", "md", "--body", "**bold**"], to: server)
        #expect(sent.check.parts.first { $0.type == "text/html" }?.normalizedText?.contains("<strong>bold</strong>") == true)
        let both = try world.share(["--send", "--to", "park@example.com", "--html", "--markdown", "--body", "x"])
        #expect(both.status == 2 && both.err.contains("--html and --markdown cannot be used together"), "\(both.err)")
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "markdown = maybe"])
        let bad = try world.share(["--send", "--to", "park@example.com", "--body", "x"])
        #expect(bad.status != 0 && bad.err.contains("markdown"), "a bad value names its key: \(bad.err)")
    }

    /// In the compose screen Alt-M turns Markdown on: the title says so,
    /// and the mail sent has the HTML part.
    @Test func altMInTheComposeScreenSendsMarkdown() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "md", "--text", "**bold** and `code`"])
        try run.session.send("M-m")
        let screen = try run.session.waitUntil("Markdown in the title") { $0.lines.first?.contains("New Message · Markdown") == true }
        #expect(ComposeRun.status(screen).contains("Markdown on"), "screen:\n\(screen.text)")
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (_, check) = try server.onlyMessage()
        #expect(check.parts.map(\.type) == ["multipart/alternative", "text/plain", "text/html"], "parts: \(check.parts.map(\.type))")
        #expect(check.parts.first { $0.type == "text/html" }?.normalizedText?.contains("<strong>bold</strong> and <code>code</code>") == true)
    }

    /// Undo send: Ctrl-X starts a countdown, nothing reaches the server
    /// during it, `u` takes the message back into the form; sent again, it
    /// goes once the countdown ends.
    @Test func undoSendHoldsTheMessageUntilItsCountdownEnds() throws {
        let world = try MailWorld()
        let server = try world.startServer()
        defer { server.stop() }
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "undo-send = 3"])
        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "undo", "--text", "hello"])
        try run.session.send("C-x")
        var screen = try run.session.waitFor("Send in")
        #expect(screen.contains("u undo"), "screen:\n\(screen.text)")
        #expect(try server.messages().isEmpty, "nothing reaches the server during the countdown")
        try run.session.send("u")
        screen = try run.session.waitUntil("the message back in the form") { ComposeRun.status($0).contains("Send undone") }
        #expect(!screen.contains("Send in"), "screen:\n\(screen.text)")
        let nothing = try server.messages().isEmpty
        #expect(!run.session.hasExited && nothing)
        try run.session.send("C-x")
        try run.session.waitFor("Send in")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        #expect(try server.messages().count == 1, "one delivery, after the countdown")
        // Headless --send is not delayed, whatever undo-send says.
        let started = Date()
        let headless = try world.share(["--send", "--to", "park@example.com", "--subject", "now", "--body", "x"])
        #expect(headless.status == 0 && Date().timeIntervalSince(started) < 3, "\(headless.err)")
    }
}
