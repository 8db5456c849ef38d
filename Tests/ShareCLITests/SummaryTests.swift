import Foundation
import Testing

/// A share says what it did: one short line on standard error when it
/// ends, never on standard output (scripts read that), nothing with --json.
struct SummaryTests {
    @Test func theReadingListAndSaveToPicturesSayWhatTheyDid() throws {
        let fixtures = try Fixtures()
        let add = try fixtures.share("--activity", "addToReadingList", "https://example.com/read")
        #expect(add.status == 0 && add.out.isEmpty, "stdout: \(add.out)")
        #expect(add.err == "Added https://example.com/read to the reading list\n", "stderr: \(add.err)")
        let both = try fixtures.share("--activity", "addToReadingList", "https://example.com/1", "https://example.com/2")
        #expect(both.err == "Added 2 pages to the reading list\n", "stderr: \(both.err)")

        let save = try fixtures.share("--activity", "saveToCameraRoll", fixtures.png.path)
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: fixtures.home.appendingPathComponent("Pictures").path).first)
        #expect(save.status == 0 && save.out.isEmpty, "stdout: \(save.out)")
        #expect(save.err == "Saved ~/Pictures/\(saved)\n", "stderr: \(save.err)")

        let json = try fixtures.share("--json", "--activity", "addToReadingList", "https://example.com/quiet")
        #expect(json.status == 0 && json.err.isEmpty, "nothing but the JSON with --json; stderr: \(json.err)")
        #expect(json.out.hasPrefix("{"), "stdout: \(json.out)")
    }

    @Test func aPluginsSummaryIsWhatItPrinted() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[Activity]\nType=com.example.upload\nName=Upload\nAccepts=file;\nExec=/bin/sh -c \"printf 'Uploaded to https://files.example/x\\\\n'\"\n"
            .write(to: folder.appendingPathComponent("upload.activity"), atomically: true, encoding: .utf8)
        let run = try fixtures.share("--activity", "com.example.upload", fixtures.pdf.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err == "Uploaded to https://files.example/x\n", "stderr: \(run.err)")
        #expect(run.out.isEmpty, "stdout: \(run.out)")
    }

    @Test func aLanguageWithACatalogSaysItInThatLanguage() throws {
        let fixtures = try Fixtures()
        let add = try fixtures.share(["--activity", "addToReadingList", "https://example.com/read"], changes: try KoreanTests.korean())
        #expect(add.err == "읽기 목록에 https://example.com/read 추가함\n", "stderr: \(add.err)")
    }
}
