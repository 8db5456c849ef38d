import Foundation
import Testing

/// Header and SMTP injection (SPEC §5: CR/LF/NUL in any header value or
/// address is rejected with a clear error): every attempt exits 2 and
/// nothing reaches the server or any folder (SPEC §3: "nothing done").
@Suite struct MailInjectionTests {
    struct Attempt: Sendable, CustomTestStringConvertible {
        var name: String
        /// What the error on stderr must name (case-insensitive): the field or the file.
        var mentions: String
        var arguments: [String]
        var testDescription: String { name }
    }

    static let attempts: [Attempt] = [
        Attempt(name: "subject with CRLF Bcc", mentions: "subject",
                arguments: ["--to", "park@example.com", "--subject", "Hi\r\nBcc: evil@x.com"]),
        Attempt(name: "subject with LF Bcc", mentions: "subject",
                arguments: ["--to", "park@example.com", "--subject", "Hi\nBcc: evil@x.com"]),
        Attempt(name: "to with CRLF RCPT TO", mentions: "To:",
                arguments: ["--to", "a@example.com\r\nRCPT TO:<evil@x.com>", "--subject", "x"]),
        Attempt(name: "to with two @", mentions: "To:", arguments: ["--to", "a@b@c.com", "--subject", "x"]),
        Attempt(name: "to with unclosed angle", mentions: "To:", arguments: ["--to", "<a@example.com", "--subject", "x"]),
        Attempt(name: "cc with LF", mentions: "Cc:",
                arguments: ["--to", "park@example.com", "--cc", "b@example.com\nBcc: evil@x.com", "--subject", "x"]),
        Attempt(name: "bcc with LF", mentions: "Bcc:",
                arguments: ["--to", "park@example.com", "--bcc", "hidden@example.com\nevil@x.com", "--subject", "x"]),
        Attempt(name: "from not a configured identity", mentions: "boss@example.com",
                arguments: ["--to", "park@example.com", "--from", "boss@example.com", "--subject", "x"]),
        Attempt(name: "from with CRLF in the display name", mentions: "From:",
                arguments: ["--to", "park@example.com", "--from", "Kim\r\nBcc: evil@x.com <kim@example.com>", "--subject", "x"]),
        Attempt(name: "display name with CR", mentions: "To:", arguments: ["--to", "Evil\rName <a@example.com>", "--subject", "x"]),
        Attempt(name: "attachment that does not exist", mentions: "/nonexistent/share-test/report.pdf",
                arguments: ["--to", "park@example.com", "--subject", "x", "--attach", "/nonexistent/share-test/report.pdf"]),
        Attempt(name: "mailto subject with %0D%0A", mentions: "subject",
                arguments: ["mailto:park@example.com?subject=Hi%0D%0ABcc:%20evil@x.com"]),
        Attempt(name: "mailto subject with %00", mentions: "subject", arguments: ["mailto:park@example.com?subject=Hi%00there"]),
        Attempt(name: "no recipient at all", mentions: "recipient", arguments: ["--subject", "x"]),
        Attempt(name: "mailto to with %0D%0A", mentions: "To:",
                arguments: ["mailto:park@example.com%0D%0ARCPT%20TO:%3Cevil@x.com%3E?subject=x"]),
    ]

    @Test(arguments: attempts) func injectionIsRefused(_ attempt: Attempt) throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let run = try world.share(["--send", "--json", "--body", "hello"] + attempt.arguments)
        #expect(run.status == 2, "\(attempt.name): exit \(run.status), stdout: \(run.out) stderr: \(run.err)")
        #expect(run.err.hasPrefix("share: "), "a clear error on stderr: \(run.err)")
        #expect(run.err.lowercased().contains(attempt.mentions.lowercased()), "the error must name \(attempt.mentions): \(run.err)")
        if !run.stdout.isEmpty {
            let completion = try Completion.parse(run)
            #expect(!completion.completed && completion.outcome == "failed", "\(completion)")
        }
        let received = try server.messages()
        #expect(received.isEmpty, "\(attempt.name): the server received \(received.map(\.envelope))")
        world.expectEmpty(world.sent, world.drafts, world.outbox, because: "exit 2 means nothing done")
    }

    /// A file name is a header parameter: a line break in it must not start a new header.
    @Test func attachmentNameWithLineBreakCannotInjectAHeader() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let name = "report\r\nBcc: evil@x.com\r\nX-Injected: yes.txt"
        let file = try world.file(name, Data("numbers\n".utf8))

        let run = try world.share(["--send", "--json", "--to", "park@example.com", "--subject", "x", "--body", "hello",
                                   "--attach", file.path])
        let received = try server.messages()
        if run.status == 2 {
            #expect(received.isEmpty, "refused but sent")
            world.expectEmpty(world.sent)
            return
        }
        #expect(run.status == 0, "either refused (2) or sent safely (0): \(run.status), stderr: \(run.err)")
        let (message, check) = try server.onlyMessage()
        #expect(message.envelope.rcptTos == ["park@example.com"])
        #expect(check.headers["x-injected"] == nil && !check.hasBccHeader, "headers: \(check.headers.keys.sorted())")
        let raw = RawMessage(message.raw)
        #expect(raw.partHeads.allSatisfy { $0.values("X-Injected").isEmpty && $0.values("Bcc").isEmpty },
                "a part header was injected: \(raw.partHeads.map(\.lines))")
        #expect(check.attachments.map(\.filename) == [name])
    }
}
