import Foundation
import ShareCore
import ShareMail
import ShareSupport
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
        let path = try mail.autosaveJob()(["from": "", "to": "kim@example.com", "subject": "Minutes", "body": "every word counts"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("Subject: Minutes\r\n"))
        #expect(text.contains("every word counts"))
        #expect(!text.contains("\nFrom:") && !text.hasPrefix("From:"), "a draft with no sender has no From header")
    }

    /// Each autosave replaces the one before: its job removes the older
    /// draft, off the screen's thread, once the new one is written.
    @Test func anAutosaveReplacesTheOneBefore() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let mail = MailActivity(settings: settings)
        let first = try mail.autosaveJob()(["to": "kim@example.com", "body": "first"])
        mail.autosaved(at: first)
        let job = mail.autosaveJob()
        #expect(FileManager.default.fileExists(atPath: first), "nothing is removed before the job runs")
        let second = try job(["to": "kim@example.com", "body": "second"])
        mail.autosaved(at: second)
        #expect(!FileManager.default.fileExists(atPath: first))
        #expect(try String(contentsOfFile: second, encoding: .utf8).contains("second"))
        mail.discardAutosave()
        #expect(!FileManager.default.fileExists(atPath: second))
    }

    @Test func anAutosavedDraftKeepsAQuotedNameWithACommaAndDropsOnlyWhatIsUnfinished() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = try MailActivity(settings: settings).autosaveJob()([
            "to": #""Lee, Jiwoo" <lee@example.com>, kim@"#, "cc": "Team: a@example.com, b@example.com;", "body": "x",
        ])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"To: "Lee, Jiwoo" <lee@example.com>"#), "\(text)")
        #expect(!text.contains("kim@"), "the unfinished address is left to the form")
        #expect(text.contains("Cc: Team: a@example.com, b@example.com;"), "\(text)")
    }

    /// A subject's white space at either end survives a real parser
    /// (Python's email): it travels inside an encoded-word.
    @Test(arguments: ["Hello ", " leading", "끝에 공백 ", "plain"])
    func aSubjectKeepsItsSpaces(_ subject: String) throws {
        let (settings, root) = try Self.settings(identities: [try MailAddress(parsing: "kim@example.com")])
        defer { try? FileManager.default.removeItem(at: root) }
        let path = try MailActivity(settings: settings).autosaveJob()(["to": "lee@example.org", "subject": subject, "body": "x"])
        let check = try MailCheck.run(file: URL(fileURLWithPath: path))
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == subject)
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
        let environment = ["HOME": "/nonexistent"]
        let settings = try MailActivity.settings(Configuration().section("mail"), locations: Locations(environment: environment),
                                                 environment: environment)
        let name = try #require(getpwuid(getuid())).pointee.pw_name.map { String(cString: $0) }
        let address = try #require(settings.identities.first, "no fallback identity without $USER")
        #expect(address.addrSpec.hasPrefix((name ?? "?") + "@"))
    }

    @Test func aResumedFormIsRecoveredWork() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let mail = MailActivity(settings: settings)
        #expect(mail.makeForm()?.isRecovered == false)
        mail.resume(values: ["to": "kim@example.com", "subject": "Q4", "body": "draft"], draft: nil)
        let form = try #require(mail.makeForm())
        #expect(form.isRecovered)
        #expect(form.fields.first { $0.id == "subject" }?.initialValue == "Q4")
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

    /// `signature-file` is read when the form is made, not when Mail is (at
    /// start-up, before the picker draws): a file missing then, or
    /// unreadable, matters only to the form, and each form reads it anew.
    @Test func theSignatureFileIsReadWhenTheFormIsMade() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("share-signature-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("signature")
        let context = try ActivityContextTests.context(config: "[mail]\nfrom = Kim <kim@example.com>\nsignature-file = \(file.path)\n",
                                                       environment: ["HOME": root.path, "PATH": "/nonexistent"])
        // Made while the file does not exist.
        let mail = try MailActivity(context: context)
        func body() throws -> String { try #require(mail.makeForm()?.fields.first { $0.id == "body" }).initialValue }
        try Data("김민수 · 재무팀".utf8).write(to: file)
        #expect(try body() == "\n\n-- \n김민수 · 재무팀")
        try Data("Kim, finance".utf8).write(to: file)
        #expect(try body() == "\n\n-- \nKim, finance")
        // Unreadable (a folder): the form opens without a signature.
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(try body() == "")
    }

    // MARK: - Mail's checks, which the generic form shows

    static func warnings(subject: String = "Q4", body: String = "", attachments: String = "",
                         action: FormAction = MailActivity.send) throws -> [String] {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        return MailActivity(settings: settings).warnings(before: action, values: [
            "to": "kim@example.com", "subject": subject, "body": body, "attachments": attachments,
        ])
    }

    @Test(arguments: ["", "   ", " \t "])
    func anEmptySubjectIsAskedAbout(_ subject: String) throws {
        #expect(try Self.warnings(subject: subject) == ["The subject is empty."])
    }

    @Test(arguments: [
        "Please find the report attached.",
        "I attach the minutes.",
        "The attachment is large.",
        "ATTACHED: the minutes",
        "보고서를 첨부합니다.",
        "> an old quote\nSee the attached file.\n> another",
    ])
    func attachmentWordsWithNothingAttachedAreAskedAbout(_ body: String) throws {
        #expect(try Self.warnings(body: body) == ["The message mentions an attachment, but nothing is attached."])
    }

    @Test(arguments: [
        "> On Monday, Jiwon wrote:\n> the report is attached\nThanks!",
        ">> 첨부 파일 확인 부탁드립니다\nOK",
        "Thanks!\n-- \nMinsu · attachments welcome",
        "Thanks!\n-- \n첨부 파일은 메일로",
        "Nothing about files here.",
        "The detached house.",
    ])
    func quotesTheSignatureAndOtherWordsAreNotAskedAbout(_ body: String) throws {
        #expect(try Self.warnings(body: body).isEmpty)
    }

    @Test func attachmentWordsWithAnAttachmentAreFine() throws {
        #expect(try Self.warnings(body: "보고서를 첨부합니다.", attachments: "/tmp/report.pdf\t10\t0").isEmpty)
    }

    @Test func bothWarningsAreListedAndSavingADraftHasNone() throws {
        #expect(try Self.warnings(subject: "", body: "See attached.")
                == ["The subject is empty.", "The message mentions an attachment, but nothing is attached."])
        #expect(try Self.warnings(subject: "", body: "See attached.", action: MailActivity.saveDraft).isEmpty)
    }

    @Test func addressFieldsAreCheckedAndOtherFieldsAreNot() throws {
        let (settings, root) = try Self.settings()
        defer { try? FileManager.default.removeItem(at: root) }
        let mail = MailActivity(settings: settings)
        let to = FormField(id: "to", label: "To", kind: .addressList)
        #expect(mail.problem(in: to, value: "kim@example.com, Lee <lee@example.org>") == nil)
        #expect(mail.problem(in: to, value: "kim@@example.com") != nil)
        #expect(mail.problem(in: to, value: "  ") == nil, "an empty field is not a problem while typing")
        #expect(mail.problem(in: FormField(id: "subject", label: "Subject", kind: .text), value: "a@@b") == nil)
    }
}
