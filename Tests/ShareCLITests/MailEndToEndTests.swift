import Foundation
import Testing

/// The mail engine end to end (SPEC §5): the built `share` binary sends to a
/// real SMTP server (aiosmtpd), and Python's email package judges the MIME.
@Suite struct MailEndToEndTests {
    static let koreanSubject = "2024년 4분기 재무 전망 보고서를 보내드립니다 — 검토 후 회신 부탁드립니다, 감사합니다 김민수 드림"
    static let pdfName = "2024년 4분기 재무 전망 보고서 최종 수정본 (검토용, 대외비) 김민수 작성.pdf"
    static let url = "https://example.com/report?id=42&lang=ko"
    static let bodyLines = [
        "안녕하세요 지성 님,",
        "",
        "From the desk of 김민수: the report is attached.",
        ".",
        ".hidden line that starts with a dot",
        "..two dots",
        "From here on, plain ASCII.",
        "Bcc: not a header, just a body line",
    ]

    @Test func koreanMessageWithAttachmentsRoundTripsThroughRealServer() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)

        let body = try world.file("body.txt", Data((Self.bodyLines.joined(separator: "\n") + "\n").utf8))
        let pdf = try world.file(Self.pdfName, FixtureBytes.pdf)
        let png = world.fixtures.png

        let run = try world.share([
            "--activity", "mail", "--send", "--json",
            "--to", "박지성 <park@example.com>, \"Lee, J\" <lee@example.com>",
            "--cc", "kim@bücher.example",
            "--bcc", "hidden@example.com",
            "--subject", Self.koreanSubject,
            "--body-file", body.path,
            "--attach", pdf.path,
            "--attach", png.path,
            Self.url,
        ])
        #expect(run.status == 0, "stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.activityType == "mail")
        #expect(completion.outcome == "sent")
        #expect(completion.completed)
        #expect(!completion.hasError, "\(completion)")
        #expect(completion.returnedItems.isEmpty)

        let received = try server.messages()
        try #require(received.count == 1, "server received \(received.count) messages; log: \(server.log)")
        let message = received[0]

        // The envelope: every recipient (Bcc too), IDN as punycode.
        #expect(message.envelope.mailFrom == MailWorld.fromAddress)
        #expect(message.envelope.rcptTos.sorted()
            == ["hidden@example.com", "kim@xn--bcher-kva.example", "lee@example.com", "park@example.com"])

        let check = try server.check(message)
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == Self.koreanSubject)
        #expect(check.addresses["from"] == [.init(name: "김민수", addr: "kim@example.com")])
        #expect(check.addresses["to"] == [.init(name: "박지성", addr: "park@example.com"),
                                          .init(name: "Lee, J", addr: "lee@example.com")])
        #expect(check.addresses["cc"] == [.init(name: "", addr: "kim@xn--bcher-kva.example")])
        #expect(check.addresses["bcc"] == nil)
        #expect(!check.hasBccHeader)
        #expect(!String(decoding: message.raw, as: UTF8.self).contains("hidden@example.com"),
                "the Bcc address must not appear anywhere in the transmitted message")
        for name in ["Date", "Message-ID", "MIME-Version"] {
            #expect(check.header(name) != nil, "missing \(name): \(check.headers.keys.sorted())")
        }

        // Line limits, CRLF, encoded-words.
        #expect(check.maxLine <= 998)
        #expect(check.maxHeaderLine <= 78)
        #expect(check.longestEncodedWord <= 75)
        #expect(check.bareLf == 0, "bare LF in a CRLF message")
        let raw = RawMessage(message.raw)
        let subjectWords = raw.head.values("Subject").first?.components(separatedBy: "=?").count ?? 0
        #expect(subjectWords - 1 >= 2, "a subject this long takes several encoded-words: \(raw.head.values("Subject"))")
        for head in raw.partHeads {
            for line in head.lines {
                #expect(line.utf8.count <= 78, "part header line over 78: \(line)")
            }
        }

        // Structure and attachments.
        #expect(check.parts.first?.type == "multipart/mixed")
        let attachments = check.attachments
        try #require(attachments.count == 2, "attachments: \(attachments.map { "\($0.type) \($0.filename ?? "")" })")
        #expect(attachments[0].filename == Self.pdfName)
        #expect(attachments[0].type == "application/pdf")
        #expect(attachments[0].sha256 == (try sha256(of: pdf)))
        #expect(attachments[1].filename == "pic.png")
        #expect(attachments[1].type == "image/png")
        #expect(attachments[1].sha256 == (try sha256(of: png)))
        let pdfHead = raw.partHeads.first { head in head.values("Content-Type").first?.lowercased().hasPrefix("application/pdf") == true }
        let disposition = pdfHead?.values("Content-Disposition").first ?? ""
        let contentType = pdfHead?.values("Content-Type").first ?? ""
        #expect(disposition.contains("filename*"), "RFC 2231 filename*= for a non-ASCII name: \(disposition)")
        #expect(contentType.contains("name=\"=?") || contentType.contains("name==?"),
                "RFC 2047 name= fallback for a non-ASCII name: \(contentType)")

        // The body: the file's lines intact (dots and "From " included), then the URL.
        let texts = check.textParts
        try #require(texts.count == 1, "text parts: \(check.parts.map(\.type))")
        let text = try #require(texts[0].normalizedText)
        let lines = text.components(separatedBy: "\n")
        for expected in Self.bodyLines where !expected.isEmpty {
            #expect(lines.contains(expected), "body line \(expected.debugDescription) missing from \(text.debugDescription)")
        }
        #expect(text.hasPrefix(Self.bodyLines.joined(separator: "\n")), "body: \(text.debugDescription)")
        #expect(lines.contains(Self.url), "the URL item goes into the body: \(text.debugDescription)")

        // Folders: the sent copy keeps Bcc; drafts and outbox are empty.
        let sentCopies = world.allMessages(in: world.sent)
        try #require(sentCopies.count == 1, "\(world.folders)")
        #expect(sentCopies[0].deletingLastPathComponent().lastPathComponent == "cur")
        #expect(maildirFlags(sentCopies[0])?.contains("S") == true, "sent copy flags: \(sentCopies[0].lastPathComponent)")
        let sentCheck = try MailCheck.run(file: sentCopies[0])
        #expect(sentCheck.defects.isEmpty, "sent copy defects: \(sentCheck.defects)")
        #expect(sentCheck.hasBccHeader)
        #expect(sentCheck.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")])
        #expect(sentCheck.header("Subject") == Self.koreanSubject)
        #expect(sentCheck.header("Message-ID") == check.header("Message-ID"), "the sent copy is the message that was sent")
        #expect(world.allMessages(in: world.drafts).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
    }

    @Test func htmlBodyIsMultipartAlternativePlainFirst() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)

        let html = "<html><body><p>안녕하세요 <b>지성</b> 님,</p><p>See <a href=\"https://example.com\">the report</a>.</p></body></html>"
        let run = try world.share(["--send", "--json", "--to", "park@example.com", "--subject", "HTML 메일",
                                   "--html", "--body", html])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")

        let received = try server.messages()
        try #require(received.count == 1, "server received \(received.count) messages; log: \(server.log)")
        let check = try server.check(received[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.bareLf == 0)
        let types = check.parts.map(\.type)
        #expect(types == ["multipart/alternative", "text/plain", "text/html"], "parts: \(types)")
        let plain = try #require(check.parts.first { $0.type == "text/plain" }?.normalizedText)
        let htmlText = try #require(check.parts.first { $0.type == "text/html" }?.normalizedText)
        #expect(plain.contains("안녕하세요") && plain.contains("지성"), "plain alternative: \(plain.debugDescription)")
        #expect(!plain.contains("<b>") && !plain.contains("<p>"), "the plain part has no tags: \(plain.debugDescription)")
        #expect(htmlText.contains(html), "html part: \(htmlText.debugDescription)")
    }

    @Test func htmlBodyWithAttachmentIsAlternativeInsideMixed() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)

        let run = try world.share(["--send", "--json", "--to", "park@example.com", "--subject", "Picture",
                                   "--html", "--body", "<p>The <i>picture</i>.</p>", "--attach", world.fixtures.png.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let received = try server.messages()
        try #require(received.count == 1, "server received \(received.count) messages; log: \(server.log)")
        let check = try server.check(received[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        let types = check.parts.map(\.type)
        #expect(types == ["multipart/mixed", "multipart/alternative", "text/plain", "text/html", "image/png"], "parts: \(types)")
        #expect(check.attachments.first?.sha256 == (try sha256(of: world.fixtures.png)))
    }

    @Test func saveDraftKeepsTheMessageInDraftsAndSendsNothing() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)

        let run = try world.share(["--save-draft", "--json", "--to", "park@example.com", "--bcc", "hidden@example.com",
                                   "--subject", "초안", "--body", "not yet"])
        #expect(run.status == 1, "stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "saved")
        #expect(!completion.completed)

        #expect(try server.messages().isEmpty)
        let drafts = world.allMessages(in: world.drafts)
        try #require(drafts.count == 1, "\(world.folders)")
        #expect(drafts[0].deletingLastPathComponent().lastPathComponent == "cur")
        #expect(maildirFlags(drafts[0])?.contains("D") == true, "draft flags: \(drafts[0].lastPathComponent)")
        let check = try MailCheck.run(file: drafts[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "초안")
        #expect(check.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "a draft keeps Bcc")
        #expect(world.allMessages(in: world.sent).isEmpty, "\(world.folders)")
        #expect(world.allMessages(in: world.outbox).isEmpty, "\(world.folders)")
    }

    @Test func mailtoNeverAttachesFiles() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.use(server)

        let mailto = "mailto:park@example.com?subject=Hello&body=See%20you&attach=/etc/passwd&attachment=/etc/passwd"
        let run = try world.share(["--send", "--json", mailto])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")

        let received = try server.messages()
        try #require(received.count == 1, "server received \(received.count) messages; log: \(server.log)")
        #expect(received[0].envelope.rcptTos == ["park@example.com"])
        let check = try server.check(received[0])
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "Hello")
        #expect(check.attachments.isEmpty, "mailto: attached \(check.attachments.map { $0.filename ?? "" })")
        #expect(check.parts.map(\.type) == ["text/plain"], "parts: \(check.parts.map(\.type))")
        #expect(check.textParts.first?.normalizedText?.contains("See you") == true)
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
        let firstLine = String(decoding: passwd.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(!String(decoding: received[0].raw, as: UTF8.self).contains(firstLine), "/etc/passwd leaked into the message")
    }
}
