import Foundation
import Testing
@testable import ShareMail

/// Drafts read back for the compose screen: what the MIME writer saves,
/// and what another mail program postpones.
struct DraftTests {
    private func write(_ text: String, named name: String = "draft") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("draft-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    @Test func whatTheWriterSavesReadsBackTheSame() throws {
        let bytes = Data((0..<3000).map { UInt8($0 % 256) })
        let body = "첫 줄\n=둘째 줄, 긴 줄 " + String(repeating: "가나다 ", count: 40) + "\n"
        let message = try MailMessage(from: try MailAddress(parsing: "김민수 <kim@example.com>"),
                                      to: try AddressList.parse("박지성 <park@example.com>, \"Lee, J\" <lee@example.com>"),
                                      cc: try AddressList.parse("team@example.com"), bcc: try AddressList.parse("boss@example.com"),
                                      subject: "초안: 3분기 숫자 — 아주 긴 제목" + String(repeating: " 보고서", count: 10),
                                      body: .plain(body),
                                      attachments: [try MailAttachment(fileName: "측정 값 (최종).bin", contentType: "application/octet-stream",
                                                                       source: .data(bytes)),
                                                    try MailAttachment(fileName: "notes.txt", contentType: "text/plain",
                                                                       source: .data(Data("a note\n".utf8)))],
                                      messageID: "draft.1@example.com")
        let sink = DataSink()
        try MIMEWriter().write(message, to: sink, includeBcc: true)
        let path = try write(String(decoding: sink.data, as: UTF8.self))
        let draft = try Draft(reading: path)
        #expect(draft.from == "김민수 <kim@example.com>")
        #expect(draft.to == "박지성 <park@example.com>, \"Lee, J\" <lee@example.com>")
        #expect(draft.cc == "team@example.com" && draft.bcc == "boss@example.com")
        #expect(draft.subject == message.subject)
        #expect(draft.body == body)
        #expect(draft.attachments.map(\.name) == ["측정 값 (최종).bin", "notes.txt"])
        #expect(draft.attachments.first?.bytes == Array(bytes))
        #expect(draft.attachments.last?.bytes == Array("a note\r\n".utf8) || draft.attachments.last?.bytes == Array("a note\n".utf8))
    }

    /// A postponed message as mutt writes it: LF line ends, quoted-printable,
    /// an encoded-word subject, an RFC 2231 file name in pieces, and an HTML
    /// alternative that is not the body.
    @Test func anotherProgramsDraftWithLFLines() throws {
        let text = """
            From: Kim <kim@example.com>
            To: =?UTF-8?B?67CV7KeA7ISx?= <park@example.com>
            Subject: =?UTF-8?Q?Caf=C3=A9?= =?UTF-8?Q?_notes?= for you
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="OUTER"

            This is a multi-part message.
            --OUTER
            Content-Type: multipart/alternative; boundary=INNER

            --INNER
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: quoted-printable

            Caf=C3=A9 at noon, a long line that was =
            broken softly.
            --INNER
            Content-Type: text/html; charset=utf-8

            <p>Café at noon</p>
            --INNER--
            --OUTER
            Content-Type: application/pdf
            Content-Disposition: attachment;
             filename*0*=UTF-8''%EB%B3%B4%EA%B3%A0;
             filename*1*=%EC%84%9C.pdf
            Content-Transfer-Encoding: base64

            JVBERi0xLjQK
            --OUTER
            Content-Type: image/png
            Content-Transfer-Encoding: base64

            iVBORw0K
            --OUTER--

            """
        let draft = try Draft(reading: try write(text))
        #expect(draft.from == "Kim <kim@example.com>")
        #expect(draft.to == "박지성 <park@example.com>")
        #expect(draft.subject == "Café notes for you")
        #expect(draft.body == "Café at noon, a long line that was broken softly.")
        #expect(draft.attachments.map(\.name) == ["보고서.pdf", "attachment-2.png"])
        #expect(draft.attachments.first?.bytes == Array("%PDF-1.4\n".utf8))
        #expect(draft.attachments.first?.contentType == "application/pdf")
    }

    @Test func anHTMLOnlyDraftIsReadAsText() throws {
        let draft = try Draft(reading: try write("Subject: Hi\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Hello <b>there</b></p>\r\n"))
        #expect(draft.subject == "Hi")
        #expect(draft.body.contains("Hello") && draft.body.contains("there") && !draft.body.contains("<b>"), "\(draft.body)")
    }

    /// Line ends come back as LF whatever the draft holds: a CR alone
    /// before a CRLF once made a CRLF again (found by the draft fuzz target).
    @Test func everyLineEndComesBackAsLF() throws {
        let draft = try Draft(reading: try write("Subject: x\r\n\r\none\n\r\r\ntwo\rthree\r\n"))
        #expect(draft.body == "one\n\n\ntwo\nthree\n", "\(draft.body.debugDescription)")
        let html = try Draft(reading: try write("Subject: x\r\nContent-Type: text/html\r\n\r\n<p>a&#13;\nb</p>\r\n"))
        #expect(!html.body.contains("\r"), "\(html.body.debugDescription)")
    }

    /// A header's encoded-word that decodes to a line break, and a file name
    /// left empty: the form gets one line and a name (both found by fuzzing).
    @Test func headerLineBreaksBecomeSpacesAndEmptyNamesGetOne() throws {
        let draft = try Draft(reading: try write("""
            Subject: =?UTF-8?Q?one=0Atwo?=
            To: =?UTF-8?Q?Kim=0D=0ALee?= <kim@example.com>
            Content-Type: multipart/mixed; boundary=B

            --B
            Content-Type: text/plain

            hi
            --B
            Content-Type: application/pdf
            Content-Disposition: attachment; filename="  "

            x
            --B--

            """))
        #expect(draft.subject == "one two")
        #expect(!draft.to.contains("\n") && !draft.to.contains("\r") && draft.to.contains("kim@example.com"), "\(draft.to.debugDescription)")
        #expect(draft.attachments.map(\.name) == ["attachment-1.pdf"])
    }

    @Test func aFileThatIsNotAMessageIsRefusedByName() throws {
        let path = try write("")
        #expect(throws: MailError.self) { try Draft(reading: path) }
        #expect(throws: MailError.self) { try Draft(reading: path + "-missing") }
    }
}
