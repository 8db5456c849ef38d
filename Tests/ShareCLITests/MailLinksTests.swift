import Foundation
import Testing

/// Mail's attachments sent as links (issue: Links, item 3): aiosmtpd on
/// 127.0.0.1 with a `SIZE` limit, and a Nextcloud-style place (`rclone
/// serve webdav` and the tests' OCS share API) whose public links anyone fetches. The message that arrives has no attachment part; its body
/// lists each file's size and SHA-256, and its link fetches the bytes.
@Suite struct MailLinksTests {
    /// A mail world whose config has `[link.dav]` on `dav` (Nextcloud's WebDAV and share API) besides `[mail]`'s `lines`.
    static func world(_ server: SMTPServer, dav: LinkPlaceServer, world: MailWorld, _ lines: [String] = []) throws {
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off"] + lines)
        let mail = try String(contentsOf: world.config, encoding: .utf8)
        let place = """
            [link.dav]
            type = webdav
            url = http://127.0.0.1:\(dav.port)/remote.php/dav/files/kim/shared/
            user = kim
            password-command = printf pw
            share = nextcloud

            """
        try Data((mail + place).utf8).write(to: world.config)
    }

    /// Bytes that do not compress and are not text: what a big attachment is.
    static func bytes(_ count: Int) -> Data {
        var state: UInt32 = 2_463_534_242
        return Data((0..<count).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// The plain text of a message's first text part.
    static func text(_ check: MailCheck) throws -> String {
        try #require(check.parts.first { $0.type == "text/plain" }?.normalizedText, "parts: \(check.parts.map(\.type))")
    }

    @Test func linksSendsNoAttachmentPartAndTheLinkFetchesTheBytes() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--size-limit", "60000"])
        defer { server.stop() }
        let dav = try LinkPlaceServer(world.fixtures, "nextcloud", ["--user", "kim", "--pass", "pw"])
        try Self.world(server, dav: dav, world: world)
        let bytes = Self.bytes(150_000)
        let file = try world.file("build 42.tar", bytes)

        // Too big for the server as an attachment: its 552, and what to do about it.
        let refused = try world.share(["--send", "--json", "--to", "park@example.com", "--subject", "build", "--body", "Here it is.",
                                       "--attach", file.path])
        #expect(refused.status != 0, "stdout: \(refused.out)")
        let error = try Completion.parse(refused)
        #expect(error.outcome == "failed" && (error.errorMessage ?? "").contains("552") && (error.errorMessage ?? "").contains("--links"),
                "\(refused.out)")
        #expect(try server.messages().isEmpty)

        let sent = try world.send(["--send", "--json", "--links", "--to", "park@example.com", "--subject", "build",
                                   "--body", "Here it is.", "--attach", file.path], to: server)
        let completion = try Completion.parse(sent.run)
        #expect(completion.outcome == "sent", "\(sent.run.out)")
        #expect(sent.check.parts.map(\.type) == ["text/plain"], "no attachment part: \(sent.check.parts.map(\.type))")
        let text = try Self.text(sent.check)
        let digest = try sha256(of: file)
        let link = "http://127.0.0.1:\(dav.port)/s/T1"
        #expect(text.hasPrefix("Here it is.\n\nThis file is sent as a link (through dav):\n\n"), "\(text)")
        #expect(text.contains("- build 42.tar, 150.0 KB, SHA-256 \(digest)\n  \(link)\n"), "\(text)")
        #expect(try LinkPlaceServer.fetch(link) == bytes, "the link fetches the bytes")
        #expect(completion.returnedItems.contains { ($0 as? [String: Any])?["value"] as? String == link }, "the result's returned items are the links: \(sent.run.out)")
    }

    /// Several attachments each get a line, before the signature; the
    /// Markdown body's HTML part makes each link a link.
    @Test func severalFilesAreListedBeforeTheSignatureAndMarkdownLinksThem() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        let dav = try LinkPlaceServer(world.fixtures, "nextcloud", ["--user", "kim", "--pass", "pw"])
        let signature = try world.file("signature.txt", Data("Kim\n".utf8))
        try Self.world(server, dav: dav, world: world, ["signature-file = \(signature.path)"])
        let one = try world.file("one.bin", Self.bytes(1_000)), two = try world.file("two.bin", Self.bytes(2_000))
        let sent = try world.send(["--send", "--links", "--markdown", "--to", "park@example.com", "--subject", "two", "--body", "Both:",
                                   "--attach", one.path, "--attach", two.path], to: server)
        #expect(sent.check.parts.map(\.type) == ["multipart/alternative", "text/plain", "text/html"], "\(sent.check.parts.map(\.type))")
        let text = try Self.text(sent.check)
        #expect(text.contains("These files are sent as links (through dav):"), "\(text)")
        let (oneSum, twoSum) = (try sha256(of: one), try sha256(of: two))
        #expect(text.contains("- one.bin, 1.0 KB, SHA-256 \(oneSum)") && text.contains("- two.bin, 2.0 KB, SHA-256 \(twoSum)"), "\(text)")
        let html = try #require(sent.check.parts.first { $0.type == "text/html" }?.normalizedText)
        #expect(html.contains("<a href=\"http://127.0.0.1:\(dav.port)/s/T2\">"), "\(html)")
        #expect(try LinkPlaceServer.fetch("http://127.0.0.1:\(dav.port)/s/T1") == (try Data(contentsOf: one)))

        // --links with no place: a clear error, nothing sent.
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off"])
        let none = try world.share(["--send", "--json", "--links", "--to", "park@example.com", "--subject", "x", "--body", "x",
                                    "--attach", one.path])
        let failed = try Completion.parse(none)
        #expect(none.status != 0 && failed.errorCode == "no-place" && (failed.errorMessage ?? "").contains("[link.NAME]"), "\(none.out)")
        #expect(try server.messages().count == 1, "only the first message arrived")
    }

    /// The compose screen learns the server's SIZE from its greeting: Send
    /// with too big an attachment says so and offers Alt-L; with it the
    /// message goes with the link.
    @Test func theFormSaysTheAttachmentsAreTooBigAndAltLSendsThemAsLinks() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--size-limit", "60000"])
        defer { server.stop() }
        let dav = try LinkPlaceServer(world.fixtures, "nextcloud", ["--user", "kim", "--pass", "pw"])
        try Self.world(server, dav: dav, world: world)
        let bytes = Self.bytes(100_000)
        let file = try world.file("photos.zip", bytes)
        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "photos", "--text", "The photos.", file.path])
        let keys = try run.session.waitFor("M-l As links")
        #expect(keys.contains("M-m Markdown"), "\(keys.text)")
        try run.session.send("C-x")
        let refused = try run.session.waitUntil("the size refusal") { ComposeRun.status($0).contains("more than the server takes") }
        #expect(ComposeRun.status(refused).contains("(100.0 KB) are more than the server takes (60.0 KB): Alt-L sends them as links"),
                "screen:\n\(refused.text)")
        #expect(try server.messages().isEmpty && !run.session.hasExited)
        try run.session.send("M-l")
        try run.session.waitUntil("As links in the title") { $0.lines.first?.contains("New Message · As links") == true }
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (_, check) = try server.onlyMessage()
        #expect(check.parts.map(\.type) == ["text/plain"], "\(check.parts.map(\.type))")
        let text = try Self.text(check)
        let link = "http://127.0.0.1:\(dav.port)/s/T1"
        #expect(text.contains("- photos.zip, 100.0 KB, SHA-256 \(try sha256(of: file))\n  \(link)"), "\(text)")
        #expect(try LinkPlaceServer.fetch(link) == bytes)
    }

    /// `[mail] link-over` offers links before Send without asking the
    /// server; the attachments may still go as they are.
    @Test func linkOverWarnsAndTheAttachmentMayStillGo() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        let dav = try LinkPlaceServer(world.fixtures, "nextcloud", ["--user", "kim", "--pass", "pw"])
        try Self.world(server, dav: dav, world: world, ["link-over = 50K"])
        let file = try world.file("deck.pdf", Self.bytes(80_000))
        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "deck", "--text", "Slides.", file.path])
        try run.session.send("C-x")
        let warned = try run.session.waitFor("over link-over")
        #expect(warned.text.contains("The attachments (80.0 KB) are over link-over (50.0 KB): Alt-L sends them as links."), "\(warned.text)")
        try run.session.send("y")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (_, check) = try server.onlyMessage()
        #expect(check.parts.contains { $0.filename == "deck.pdf" && $0.size == 80_000 }, "sent attached: \(check.parts.map(\.type))")

        // A size that is not one is a config error naming its line.
        try world.configure(["link-over = lots"])
        let bad = try world.share(["--send", "--to", "park@example.com", "--body", "x"])
        #expect(bad.status != 0 && bad.err.contains("link-over is a size such as 20M"), "\(bad.err)")
    }
}
