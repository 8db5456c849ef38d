import Foundation
import ShareCore
import ShareMail
import ShareTerminal
import Testing
@testable import ShareActivities
@testable import ShareCLI

/// Mail's form and autosave where a new user meets them first: no sender
/// configured, and a link as the only item.
@MainActor
struct MailActivityTests {
    /// Settings with no identity and Maildirs under a fresh folder.
    static func settings(identities: [MailAddress] = []) throws -> (MailSettings, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("share-mail-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let settings = MailSettings(identities: identities, transport: nil,
                                    drafts: Maildir(path: root.appendingPathComponent("drafts").path),
                                    sent: Maildir(path: root.appendingPathComponent("sent").path),
                                    outbox: Maildir(path: root.appendingPathComponent("outbox").path))
        return (settings, root)
    }

    @Test func aDraftIsAutosavedWithNoSendingAddressAtAll() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let mail = MailActivity(settings: settings)
        let path = try mail.autosave(["from": "", "to": "kim@example.com", "subject": "Minutes", "body": "every word counts"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("Subject: Minutes\r\n"))
        #expect(text.contains("every word counts"))
        #expect(!text.contains("\nFrom:") && !text.hasPrefix("From:"), "a draft with no sender has no From header")
    }

    @Test func sendingStillNeedsASendingAddress() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let message = try MailMessage(from: nil, to: [.mailbox(try MailAddress(parsing: "kim@example.com"))], subject: "Hi")
        guard case .failed(let error, let draft) = Mailer(settings: settings).send(message) else {
            Issue.record("a message with no sender was not refused")
            return
        }
        #expect(error.message.contains("no sending address"))
        #expect(draft == nil)
    }

    @Test func theFallbackSenderComesFromThePasswordDatabaseWithoutUser() throws {
        let settings = try MailSetup.settings(Configuration(), environment: ["HOME": "/nonexistent"])
        let name = try #require(getpwuid(getuid())).pointee.pw_name.map { String(cString: $0) }
        let address = try #require(settings.identities.first, "no fallback identity without $USER")
        #expect(address.addrSpec.hasPrefix((name ?? "?") + "@"))
    }

    @Test func aLinkIsFollowedByAFreshLineForTheCursor() async throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let mail = MailActivity(settings: settings, signature: "Kim")
        try await mail.prepare(with: [.url(try #require(URL(string: "https://nshipster.com")))])
        let form = try #require(mail.makeForm())
        let body = try #require(form.fields.first { $0.id == "body" })
        #expect(body.initialValue == "https://nshipster.com\n\n-- \nKim")
        #expect(body.initialCursor == "https://nshipster.com\n".count)
        // What is typed in the body lands on that line, not after the link.
        var state = FormState(form: form, width: 80, height: 24)
        state.focus = try #require(state.index(of: "body"))
        for character in "Hello" { _ = FormUpdate.update(&state, .input(.character(character))) }
        #expect(state.values["body"] == "https://nshipster.com\nHello\n-- \nKim")
    }
}
