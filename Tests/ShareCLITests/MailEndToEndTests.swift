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
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let body = try world.file("body.txt", Data((Self.bodyLines.joined(separator: "\n") + "\n").utf8))
        let pdf = try world.file(Self.pdfName, FixtureBytes.pdf)
        let png = world.fixtures.png

        let sent = try world.send([
            "--activity", "mail", "--send", "--json",
            "--to", "박지성 <park@example.com>, \"Lee, J\" <lee@example.com>",
            "--cc", "kim@bücher.example",
            "--bcc", "hidden@example.com",
            "--subject", Self.koreanSubject,
            "--body-file", body.path,
            "--attach", pdf.path,
            "--attach", png.path,
            Self.url,
        ], to: server)
        let completion = try Completion.parse(sent.run)
        #expect(completion.activityType == "mail")
        #expect(completion.outcome == "sent")
        #expect(completion.completed)
        #expect(!completion.hasError, "\(completion)")
        #expect(completion.returnedItems.isEmpty)
        let message = sent.message

        // The envelope: every recipient (Bcc too), IDN as punycode.
        #expect(message.envelope.mailFrom == MailWorld.fromAddress)
        #expect(message.envelope.rcptTos.sorted()
            == ["hidden@example.com", "kim@xn--bcher-kva.example", "lee@example.com", "park@example.com"])

        let check = sent.check
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
        expectWholeEncodedWords(raw)
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
        #expect(contentType.contains("name*") && !contentType.contains("=?"),
                "RFC 2231 name*= for a non-ASCII name, no encoded-word in quotes: \(contentType)")

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
        let sentCheck = try MailCheck.run(file: world.onlyMessage(in: world.sent, flagged: "S"))
        #expect(sentCheck.defects.isEmpty, "sent copy defects: \(sentCheck.defects)")
        #expect(sentCheck.hasBccHeader)
        #expect(sentCheck.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")])
        #expect(sentCheck.header("Subject") == Self.koreanSubject)
        #expect(sentCheck.header("Message-ID") == check.header("Message-ID"), "the sent copy is the message that was sent")
        world.expectEmpty(world.drafts, world.outbox)
    }

    @Test func htmlBodyIsMultipartAlternativePlainFirst() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let html = "<html><body><p>안녕하세요 <b>지성</b> 님,</p><p>See <a href=\"https://example.com\">the report</a>.</p></body></html>"
        let sent = try world.send(["--send", "--json", "--to", "park@example.com", "--subject", "HTML 메일",
                                   "--html", "--body", html], to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        let check = sent.check
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
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let check = try world.send(["--send", "--json", "--to", "park@example.com", "--subject", "Picture",
                                    "--html", "--body", "<p>The <i>picture</i>.</p>", "--attach", world.fixtures.png.path], to: server).check
        let types = check.parts.map(\.type)
        #expect(types == ["multipart/mixed", "multipart/alternative", "text/plain", "text/html", "image/png"], "parts: \(types)")
        #expect(check.attachments.first?.sha256 == (try sha256(of: world.fixtures.png)))
    }

    @Test func saveDraftKeepsTheMessageInDraftsAndSendsNothing() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let run = try world.share(["--save-draft", "--json", "--to", "park@example.com", "--bcc", "hidden@example.com",
                                   "--subject", "초안", "--body", "not yet"])
        #expect(run.status == 1, "stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "saved")
        #expect(!completion.completed)

        #expect(try server.messages().isEmpty)
        let check = try MailCheck.run(file: world.onlyMessage(in: world.drafts, flagged: "D"))
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(check.header("Subject") == "초안")
        #expect(check.addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")], "a draft keeps Bcc")
        world.expectEmpty(world.sent, world.outbox)
    }

    @Test func mailtoNeverAttachesFiles() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let mailto = "mailto:park@example.com?subject=Hello&body=See%20you&attach=/etc/passwd&attachment=/etc/passwd"
        let sent = try world.send(["--send", "--json", mailto], to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        #expect(sent.message.envelope.rcptTos == ["park@example.com"])
        let check = sent.check
        #expect(check.header("Subject") == "Hello")
        #expect(check.attachments.isEmpty, "mailto: attached \(check.attachments.map { $0.filename ?? "" })")
        #expect(check.parts.map(\.type) == ["text/plain"], "parts: \(check.parts.map(\.type))")
        #expect(check.textParts.first?.normalizedText?.contains("See you") == true)
        let passwd = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
        let firstLine = String(decoding: passwd.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(!String(decoding: sent.message.raw, as: UTF8.self).contains(firstLine), "/etc/passwd leaked into the message")
    }

    struct SubjectCase: Sendable, CustomTestStringConvertible {
        var name: String
        var subject: String
        var testDescription: String { name }
    }

    static let subjects: [SubjectCase] = [
        SubjectCase(name: "emoji, flags, combining marks and Korean",
                    subject: "😀🇰🇷 한국어와 이모지가 섞인 제목 é́ 결합 문자 " + String(repeating: "😀", count: 30) + " 끝"),
        SubjectCase(name: "one ASCII word longer than 998", subject: String(repeating: "a", count: 1100)),
        SubjectCase(name: "text that looks like an encoded-word", subject: "=?UTF-8?B?aGk=?= is literal text"),
        SubjectCase(name: "runs of spaces", subject: "Re: 회의   두 칸  공백"),
        SubjectCase(name: "long ASCII with spaces", subject: String(repeating: "Quarterly numbers and projections ", count: 12) + "end"),
    ]

    @Test(arguments: subjects) func subjectsRoundTripWithinLineLimits(_ subjectCase: SubjectCase) throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let sent = try world.send(["--send", "--json", "--to", "park@example.com", "--subject", subjectCase.subject, "--body", "x"],
                                  to: server)
        let check = sent.check
        #expect(check.header("Subject") == subjectCase.subject)
        #expect(check.maxLine <= 998)
        #expect(check.maxHeaderLine <= 78)
        #expect(check.longestEncodedWord <= 75)
        #expect(check.bareLf == 0)
        expectWholeEncodedWords(RawMessage(sent.message.raw))
    }

    @Test func longKoreanDisplayNamesRoundTrip() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let names = ["대한민국 국가대표 축구팀 전 주장 박지성 선수님께 드리는 아주 긴 표시 이름입니다",
                     "이영표, 국가대표 수비수", "손흥민 \"캡틴\" 토트넘"]
        let to = [
            "\"\(names[0])\" <park@example.com>",
            "\"\(names[1])\" <lee@example.com>",
            "\"손흥민 \\\"캡틴\\\" 토트넘\" <son@한국.example>",
        ].joined(separator: ", ")
        let sent = try world.send(["--send", "--json", "--to", to, "--subject", "명단", "--body", "x"], to: server)
        #expect(sent.message.envelope.rcptTos == ["park@example.com", "lee@example.com", "son@xn--3e0b707e.example"])
        let check = sent.check
        let addresses = check.addresses["to"] ?? []
        #expect(addresses.map(\.addr) == ["park@example.com", "lee@example.com", "son@xn--3e0b707e.example"])
        // Python splits long encoded display names with extra spaces (CPython
        // gh-128110): compare its names without spaces, and judge the exact
        // text with an RFC 2047 §6.2 decoding of the raw header.
        let squeezed = { (text: String) in text.filter { $0 != " " } }
        #expect(addresses.map { squeezed($0.name) } == names.map(squeezed), "display names: \(addresses)")
        let raw = RawMessage(sent.message.raw)
        let decoded = RawMessage.decodingEncodedWords(raw.head.values("To").first ?? "")
        #expect(decoded.contains("\(names[0]) <park@example.com>"), "To decodes to \(decoded)")
        #expect(check.maxHeaderLine <= 78)
        #expect(check.longestEncodedWord <= 75)
        expectWholeEncodedWords(raw)
    }

    /// SPEC §5: attachments streamed (memory does not grow with attachment size).
    @Test func attachmentsAreStreamed() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }

        let small = try world.file("small.bin", Self.noise(count: 64 * 1024))
        let big = try world.file("big.bin", Self.noise(count: 32 * 1024 * 1024))
        let smallPeak = try Self.peakMemory(world, attaching: small)
        let bigPeak = try Self.peakMemory(world, attaching: big)
        #expect(bigPeak - smallPeak < 12 * 1024 * 1024,
                "peak memory grew from \(smallPeak / 1024) KiB to \(bigPeak / 1024) KiB with a 32 MiB attachment")

        let received = try server.messages()
        try #require(received.count == 2, "server log: \(server.log)")
        let check = try server.check(received[1])
        #expect(check.attachments.first?.sha256 == (try sha256(of: big)))
        #expect(check.maxLine <= 998)
    }

    /// Bytes that neither compress nor repeat in a way anything could exploit.
    static func noise(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        return data
    }

    /// Runs one send under a tiny Python wrapper and returns share's peak RSS in bytes.
    static func peakMemory(_ world: MailWorld, attaching file: URL) throws -> Int {
        let report = world.root.appendingPathComponent("rss-\(file.lastPathComponent).txt")
        let wrapper = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[2:]).returncode
            open(sys.argv[1], "w").write("%d %d" % (status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
            """
        let arguments = ["-c", wrapper, report.path, try Share.binary().path, "--config", world.config.path,
                         "--send", "--json", "--to", "park@example.com", "--subject", "big", "--body", "x", "--attach", file.path]
        let run = try Share.run(SMTPServer.python, arguments, environment: world.fixtures.environment, directory: world.fixtures.files)
        #expect(run.status == 0, "stderr: \(run.err)")
        let words = try String(contentsOf: report, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        try #require(words.count == 2, "wrapper report: \(words)")
        #expect(words[0] == 0, "share exited \(words[0]) attaching \(file.lastPathComponent): \(run.err)")
        return words[1] * 1024
    }

    @Test func fromChoosesAConfiguredIdentity() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        try world.configure(["from-2 = 회사 계정 <work@회사.example>", "transport = smtp://127.0.0.1:\(server.port)", "tls = off"])

        for from in ["work@회사.example", "work@xn--vf4b131b.example"] {
            let run = try world.share(["--send", "--json", "--from", from, "--to", "park@example.com", "--subject", "s", "--body", "b"])
            #expect(run.status == 0, "--from \(from): stderr: \(run.err)")
        }
        let received = try server.messages()
        try #require(received.count == 2, "server log: \(server.log)")
        for message in received {
            #expect(message.envelope.mailFrom == "work@xn--vf4b131b.example")
            let check = try server.check(message)
            #expect(check.addresses["from"] == [.init(name: "회사 계정", addr: "work@xn--vf4b131b.example")])
        }
    }
}
