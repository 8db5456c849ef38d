import Foundation
import Testing
@testable import ShareMail

struct MIMEWriterTests {
    private let date = Date(timeIntervalSince1970: 1_796_000_000)

    private func render(_ message: MailMessage, includeBcc: Bool = false) throws -> String {
        let sink = DataSink()
        try MIMEWriter(boundaryToken: "TOKEN").write(message, to: sink, includeBcc: includeBcc)
        return String(decoding: sink.data, as: UTF8.self)
    }

    private func message(subject: String = "Q4", body: MailBody = .plain("Numbers attached.\n"),
                         attachments: [MailAttachment] = []) throws -> MailMessage {
        try MailMessage(from: try MailAddress(parsing: "김민수 <kim@example.com>"),
                        to: try AddressList.parse("박지성 <park@example.com>, \"Lee, J\" <lee@example.com>"),
                        bcc: try AddressList.parse("boss@example.com"),
                        subject: subject, body: body, attachments: attachments, date: date, messageID: "id.1@example.com")
    }

    @Test func aPlainMessageHasEveryRequiredHeaderAndCRLF() throws {
        let text = try render(try message())
        let utc = MIMEWriter.rfc5322Date(date, utcOffset: 0)
        #expect(utc == "Mon, 30 Nov 2026 00:53:20 +0000")
        let seoul = MIMEWriter.rfc5322Date(date, utcOffset: 9 * 3600)
        #expect(seoul == "Mon, 30 Nov 2026 09:53:20 +0900")
        #expect(MIMEWriter.rfc5322Date(date, utcOffset: -(3 * 3600 + 1800)) == "Sun, 29 Nov 2026 21:23:20 -0330")
        #expect(text.hasPrefix("Date: "))
        #expect(text.contains("\r\nFrom: =?UTF-8?B?6rmA66+87IiY?= <kim@example.com>\r\n"))
        #expect(text.contains("\r\nTo: =?UTF-8?B?67CV7KeA7ISx?= <park@example.com>, \"Lee, J\" <lee@example.com>\r\n"))
        #expect(text.contains("\r\nSubject: Q4\r\n"))
        #expect(text.contains("\r\nMessage-ID: <id.1@example.com>\r\n"))
        #expect(text.contains("\r\nMIME-Version: 1.0\r\n"))
        #expect(text.hasSuffix("\r\n\r\nNumbers attached.\r\n"))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare LF")
    }

    @Test func bccIsWrittenOnlyWhenAsked() throws {
        #expect(!(try render(try message(), includeBcc: false)).contains("Bcc:"))
        #expect((try render(try message(), includeBcc: true)).contains("\r\nBcc: boss@example.com\r\n"))
        #expect(try message().envelopeRecipients.map(\.addrSpec) == ["park@example.com", "lee@example.com", "boss@example.com"])
    }

    @Test func htmlBecomesAlternativeWithPlainTextFirst() throws {
        let text = try render(try message(body: .html("<p>Hello <b>Kim</b> &amp; team</p><script>x()</script><p>Bye</p>")))
        let alternative = try #require(text.range(of: "Content-Type: multipart/alternative;"))
        let plain = try #require(text.range(of: "Content-Type: text/plain"))
        let html = try #require(text.range(of: "Content-Type: text/html"))
        #expect(alternative.lowerBound < plain.lowerBound && plain.lowerBound < html.lowerBound)
        #expect(text.contains("Hello Kim & team\r\nBye"))
        #expect(!text.contains("x()\r\n--") || text.contains("<script>"))
    }

    @Test func htmlsPlainTextDecodesEveryEntityAndKeepsListsAndNoBreakSpaces() throws {
        let html = "<h1>Caf&eacute; &amp; cr&#xE8;me</h1><ul><li>one&nbsp;&nbsp;two<li>&lt;b&gt; &#8211; &quot;q&quot;</ul>"
            + "<style>h1 { color: red }</style><p>a\n   b &bogus; &amp c"
        // A list item ends in a line break, closed or not, and the next one starts on a line of its own.
        let plain = try HTMLText.plainText(from: html)
        #expect(plain == "Café & crème\n\n- one  two\n\n- <b> – \"q\"\na b &bogus; &amp c", "\(plain.debugDescription)")
    }

    @Test func attachmentsMakeMultipartMixedWithStreamedBase64() throws {
        let bytes = Data((0..<10_000).map { UInt8($0 % 251) })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mime-\(UUID().uuidString).bin")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let attachment = try MailAttachment.file(file, contentType: "application/octet-stream", fileName: "데이터.bin")
        let text = try render(try message(attachments: [attachment]))
        #expect(text.contains("Content-Type: multipart/mixed;\r\n boundary=\"=_TOKEN_0\"\r\n"))
        #expect(text.contains("--=_TOKEN_0\r\nContent-Type: text/plain"))
        #expect(text.contains(" filename*=UTF-8''%EB%8D%B0%EC%9D%B4%ED%84%B0.bin\r\n"))
        #expect(text.contains(" name*=UTF-8''%EB%8D%B0%EC%9D%B4%ED%84%B0.bin\r\n"))
        #expect(!text.contains("name=\"=?"), "no encoded-word in a quoted parameter")
        #expect(text.hasSuffix("\r\n--=_TOKEN_0--\r\n"))
        let payload = try #require(text.components(separatedBy: "Content-Transfer-Encoding: base64\r\n\r\n").last?
            .components(separatedBy: "\r\n\r\n--=_TOKEN_0--").first)
        #expect(payload.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 76 })
        #expect(Data(base64Encoded: payload.replacingOccurrences(of: "\r\n", with: "")) == bytes)
    }

    @Test func anEmlAttachmentGoesAsItIsIn7bitWithCRLF() throws {
        let eml = Data("From: a@example.com\nSubject: inner\n\nline one\nline two\n".utf8)
        let attachment = try MailAttachment(fileName: "forwarded.eml", contentType: "message/rfc822", source: .data(eml))
        let text = try render(try message(attachments: [attachment]))
        #expect(text.contains("Content-Type: message/rfc822; name=\"forwarded.eml\"\r\n"), "\(text)")
        #expect(text.contains("Content-Transfer-Encoding: 7bit\r\n\r\nFrom: a@example.com\r\nSubject: inner\r\n\r\nline one\r\nline two\r\n"))
        // Not 7bit-clean (8-bit bytes): sent as bytes to be saved, in base64.
        let eight = try MailAttachment(fileName: "eight.eml", contentType: "message/rfc822", source: .data(Data("Subject: é\n\nx\n".utf8)))
        let other = try render(try message(attachments: [eight]))
        #expect(other.contains("Content-Type: application/octet-stream; name=\"eight.eml\"\r\n"), "\(other)")
        #expect(other.contains("Content-Transfer-Encoding: base64"))
    }

    @Test func aUTF8TextAttachmentSaysItsCharset() throws {
        let utf8 = try MailAttachment(fileName: "메모.txt", contentType: "text/plain", source: .data(Data("회의는 정오에\n".utf8)))
        let latin1 = try MailAttachment(fileName: "old.txt", contentType: "text/plain", source: .data(Data([0x63, 0x61, 0x66, 0xE9, 0x0A])))
        let text = try render(try message(attachments: [utf8, latin1]))
        #expect(text.contains("Content-Type: text/plain; charset=utf-8;"), "\(text)")
        #expect(text.contains("Content-Type: text/plain; name=\"old.txt\""), "no charset claimed for bytes that are not UTF-8: \(text)")
    }

    @Test func namesWithQuotesOrBackslashesUseRFC2231() throws {
        let attachment = try MailAttachment(fileName: "say \"hi\" \\ bye.txt", contentType: "application/octet-stream",
                                            source: .data(Data("x".utf8)))
        let text = try render(try message(attachments: [attachment]))
        #expect(text.contains(" name*=UTF-8''say%20%22hi%22%20%5C%20bye.txt\r\nContent-Disposition"), "\(text)")
        #expect(text.contains(" filename*=UTF-8''say%20%22hi%22%20%5C%20bye.txt\r\n"), "\(text)")
    }

    @Test func transferEncodingFollowsTheText() {
        #expect(MIMEWriter.transferEncoding(for: "plain words\r\n", boundaryPrefix: "--=_T") == .sevenBit)
        #expect(MIMEWriter.transferEncoding(for: "Café au lait, s'il vous plaît\r\n", boundaryPrefix: "--=_T") == .quotedPrintable)
        #expect(MIMEWriter.transferEncoding(for: ".leading dot\r\n", boundaryPrefix: "--=_T") == .quotedPrintable)
        #expect(MIMEWriter.transferEncoding(for: "From me\r\n", boundaryPrefix: "--=_T") == .quotedPrintable)
        #expect(MIMEWriter.transferEncoding(for: String(repeating: "a", count: 100), boundaryPrefix: "--=_T") == .quotedPrintable)
        #expect(MIMEWriter.transferEncoding(for: "안녕하세요, 반갑습니다", boundaryPrefix: "--=_T") == .base64)
        #expect(MIMEWriter.transferEncoding(for: "text with --=_T inside", boundaryPrefix: "--=_T") == .quotedPrintable)
    }

    @Test func lineEndsBecomeCRLF() {
        #expect(MIMEWriter.crlf("a\nb\r\nc\rd\n") == "a\r\nb\r\nc\r\nd\r\n")
        #expect(MIMEWriter.crlf("\r\r\n") == "\r\n\r\n")
    }

    @Test func badAttachmentsAndSubjectsAreRefused() throws {
        #expect(throws: MailError.self) { try MailAttachment(fileName: "a\r\nb.pdf", contentType: "application/pdf", source: .data(Data())) }
        #expect(throws: MailError.self) { try MailAttachment(fileName: "a.pdf", contentType: "application/pdf\r\nX: y", source: .data(Data())) }
        #expect(throws: MailError.self) { try MailAttachment(fileName: "a.pdf", contentType: "pdf", source: .data(Data())) }
        #expect(throws: MailError.self) { try message(subject: "Hi\r\nBcc: evil@example.com") }
    }

    @Test func aMissingAttachmentFileFailsTheWrite() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/share-\(UUID().uuidString).pdf")
        let attachment = try MailAttachment.file(missing, contentType: "application/pdf")
        #expect(throws: MailError.self) { try render(try message(attachments: [attachment])) }
    }
}

struct MaildirTests {
    @Test func deliveryIsAtomicAndFlagged() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("maildir-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let box = Maildir(path: root + "/Drafts")
        let draft = try box.deliver(flags: "D") { sink throws(MailError) in try sink.write("Subject: x\r\n\r\nbody\r\n") }
        #expect(draft.hasPrefix(root + "/Drafts/cur/") && draft.hasSuffix(":2,D"))
        let queued = try box.deliver(flags: nil) { sink throws(MailError) in try sink.write("Subject: y\r\n\r\n") }
        #expect(queued.hasPrefix(root + "/Drafts/new/"))
        #expect(box.messages() == [draft, queued])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/Drafts/tmp").isEmpty)

        // A failing writer leaves nothing behind, not even in tmp.
        #expect(throws: MailError.self) {
            try box.deliver(flags: "D") { sink throws(MailError) in
                try sink.write("half")
                throw MailError(.io, "disk full")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/Drafts/tmp").isEmpty)
        #expect(box.messages().count == 2)
        box.remove(draft)
        #expect(box.messages() == [queued])
    }

    @Test func storedMessagesLoseBccOnlyWhenTransmitted() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("maildir-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stored = "From: kim@example.com\r\nTo: a@example.com\r\nBcc: hidden@example.com,\r\n other@example.com\r\nSubject: s\r\n\r\nBcc: in the body stays\r\n"
        let path = try Maildir(path: root).deliver(flags: nil) { sink throws(MailError) in try sink.write(stored) }
        let file = try MessageFile(path: path)
        #expect(file.header("bcc") == "hidden@example.com, other@example.com")
        let reader = try TransmissionReader(file)
        var sent: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 1)
        defer { buffer.deallocate() }
        while case let count = reader.read(into: buffer), count > 0 { sent += buffer[0..<count] }
        #expect(String(decoding: sent, as: UTF8.self)
            == "From: kim@example.com\r\nTo: a@example.com\r\nSubject: s\r\n\r\nBcc: in the body stays\r\n")
        let envelope = try Mailer.envelope(of: file)
        #expect(envelope.sender == "kim@example.com")
        #expect(envelope.recipients == ["a@example.com", "hidden@example.com", "other@example.com"])
    }
}
