import Foundation
import Testing

/// MIME that strict parsers accept: a message with every kind of attachment
/// that needs care, read by Python's email (zero defects) and by mblaze's
/// mshow, two parsers that are not share's.
@Suite struct MailMIMECorpusTests {
    @Test func everyAttachmentIsReadBackByTwoIndependentParsers() throws {
        let world = try MailWorld()
        let longName = String(repeating: "분기별-보고서-", count: 8) + "최종.pdf"
        let names = ["forwarded.eml", "메모.txt", "empty.dat", "say \"hi\" \\ bye.txt", longName]
        var paths: [String] = []
        for name in names {
            let contents: Data = switch name {
            case "forwarded.eml": Data("From: lee@example.com\nSubject: inner\n\nthe forwarded body\n".utf8)
            case "메모.txt": Data("회의는 정오에\n".utf8)
            case "empty.dat": Data()
            default: FixtureBytes.pdf
            }
            paths.append(try world.file(name, contents).path)
        }
        let run = try world.share(["--save-draft", "--to", "park@example.com", "--subject", "corpus", "--body", "see attached"]
                                  + paths.flatMap { ["--attach", $0] })
        #expect(run.status == 1, "stderr: \(run.err)")
        let draft = try #require(world.messages(in: world.drafts, "cur").first, "\(world.folders)")

        let check = try MailCheck.run(file: draft)
        #expect(check.defects.isEmpty, "Python's email found defects: \(check.defects)")
        let files = check.parts.filter { $0.filename != nil }
        #expect(files.map(\.filename) == names.filter { $0 != "forwarded.eml" }, "\(check.parts.map { ($0.type, $0.filename ?? "-") })")
        #expect(check.parts.contains { $0.type == "message/rfc822" }, "the .eml goes as a message")
        #expect(files.first { $0.filename == "메모.txt" }?.charset == "utf-8")
        let raw = try String(contentsOf: draft, encoding: .utf8)
        #expect(!raw.contains("name=\"=?"), "no encoded-word inside a quoted parameter")
        #expect(raw.contains("Content-Type: message/rfc822; name=\"forwarded.eml\"\r\n") && raw.contains("Content-Transfer-Encoding: 7bit\r\n\r\nFrom: lee@example.com\r\n"))

        // mblaze: mshow lists every part with its name decoded.
        let mshow = URL(fileURLWithPath: "/usr/bin/mshow")
        try #require(FileManager.default.isExecutableFile(atPath: mshow.path), "mshow is needed (Debian: mblaze)")
        var environment = world.fixtures.environment
        environment["MBLAZE"] = world.root.appendingPathComponent("mblaze").path
        try FileManager.default.createDirectory(at: world.root.appendingPathComponent("mblaze"), withIntermediateDirectories: true)
        try Data().write(to: world.root.appendingPathComponent("mblaze/seq"))
        let listed = try Share.run(mshow, ["-t", draft.path], environment: environment, directory: world.root)
        #expect(listed.status == 0, "mshow: \(listed.err)")
        for name in names { #expect(listed.out.contains("name=\"\(name)\""), "mshow does not show \(name): \(listed.out)") }
        #expect(listed.out.contains("message/rfc822"), "\(listed.out)")
    }
}
