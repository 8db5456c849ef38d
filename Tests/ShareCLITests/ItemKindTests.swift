import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// How arguments become string / url / image / file items (SPEC §1), seen
/// through the verdicts of `--explain --json`.
@Suite struct ItemKindTests {
    private func reasons(_ fixtures: Fixtures, _ arguments: [String]) throws -> [String: String] {
        let run = try fixtures.share(["--explain", "--json"] + arguments)
        try #require(run.status == 0, "share \(arguments) → \(run.status): \(run.err)")
        #expect(run.stderr.isEmpty, "stderr: \(run.err)")
        return try ActivityRow.parse(run).reasons
    }

    @Test(arguments: ["https://example.com", "ftp://example.com/file.tar.gz", "mailto:a@example.com"])
    func urlArgumentIsAURL(url: String) throws {
        let fixtures = try Fixtures()
        let reasons = try reasons(fixtures, [url])
        #expect(reasons == SystemActivity.expectedReasons(itemKinds: url.hasPrefix("https:") ? ["u"] : ["w"]),
                "a URL of another scheme is no link for Facebook's share link")
        #expect(reasons["addToReadingList"] == (url.hasPrefix("https:") ? "eligible" : "unsupported-items"))
        #expect(reasons["assignToContact"] == "unsupported-items")
        #expect(reasons["print"] == "unsupported-items")
    }

    @Test func urlOptionIsAURL() throws {
        let fixtures = try Fixtures()
        #expect(try reasons(fixtures, ["--url", "https://example.com/a?b=c"]) == SystemActivity.expectedReasons(itemKinds: ["u"]))
    }

    @Test func fileURLOfThePNGIsAnImage() throws {
        let fixtures = try Fixtures()
        let url = fixtures.pngNamedText.absoluteString
        #expect(url.hasPrefix("file:///"))
        let reasons = try reasons(fixtures, [url])
        #expect(reasons == SystemActivity.expectedReasons(itemKinds: ["i"]))
        #expect(reasons["assignToContact"] == "unavailable")
        #expect(reasons["addToReadingList"] == "unsupported-items")
        #expect(try self.reasons(fixtures, ["--url", url]) == SystemActivity.expectedReasons(itemKinds: ["i"]))
    }

    @Test func pngPathAndFileOptionAreImages() throws {
        let fixtures = try Fixtures()
        #expect(try reasons(fixtures, [fixtures.png.path]) == SystemActivity.expectedReasons(itemKinds: ["i"]))
        #expect(try reasons(fixtures, ["--file", fixtures.pngNamedText.path]) == SystemActivity.expectedReasons(itemKinds: ["i"]))
        // A relative path, resolved against the working directory.
        #expect(try reasons(fixtures, ["pic.txt"]) == SystemActivity.expectedReasons(itemKinds: ["i"]))
    }

    @Test func pdfAndTextFilesAreFiles() throws {
        let fixtures = try Fixtures()
        for path in [fixtures.pdf.path, fixtures.text.path] {
            let reasons = try reasons(fixtures, [path])
            #expect(reasons == SystemActivity.expectedReasons(itemKinds: ["f"]), "\(path)")
            #expect(reasons["print"] == "unavailable")
            #expect(reasons["assignToContact"] == "unsupported-items")
            #expect(reasons["saveToCameraRoll"] == "unsupported-items")
            #expect(reasons["postToTwitter"] == "unsupported-items")
        }
    }

    @Test func anActivityQualifiesWhenAnyItemIsOfItsKind() throws {
        let fixtures = try Fixtures()
        let reasons = try reasons(fixtures, ["--text", "hi", "https://example.com"])
        #expect(reasons == SystemActivity.expectedReasons(itemKinds: ["s", "u"]))
        #expect(reasons["addToReadingList"] == "eligible")
    }

    @Test func itemAfterDoubleDashIsAPathEvenWithADash() throws {
        let fixtures = try Fixtures()
        _ = try fixtures.file("-dash.pdf", FixtureBytes.pdf)
        #expect(try reasons(fixtures, ["--", "-dash.pdf"]) == SystemActivity.expectedReasons(itemKinds: ["f"]))
    }

    @Test func textBytesUnderImageNameAreAFile() throws {
        let fixtures = try Fixtures()
        let fake = try fixtures.file("fake.png", Data("just some words\n".utf8))
        let reasons = try reasons(fixtures, [fake.path])
        #expect(reasons == SystemActivity.expectedReasons(itemKinds: ["f"]))
        #expect(reasons["assignToContact"] == "unsupported-items")
    }

    @Test func symlinkToAnImageIsAnImage() throws {
        let fixtures = try Fixtures()
        let link = fixtures.files.appendingPathComponent("link-to-pic")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: fixtures.png.path)
        #expect(try reasons(fixtures, [link.path]) == SystemActivity.expectedReasons(itemKinds: ["i"]))
    }

    /// Linux file names are bytes. SPEC §1: any existing regular file is a
    /// file item, so one whose name is not UTF-8 must not be "no such file".
    @Test func aFileNameThatIsNotUTF8IsRefusedWithItsBytesShown() throws {
        let fixtures = try Fixtures()
        let name: [UInt8] = Array("report-".utf8) + [0xFF] + Array(".pdf".utf8)
        let path = (Array(fixtures.files.path.utf8) + [UInt8(ascii: "/")] + name + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0, "creating the file: errno \(errno)")
        let written = FixtureBytes.pdf.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        defer { unlink(path) }
        try #require(written == FixtureBytes.pdf.count)

        // Process takes String arguments, which cannot hold the byte 0xFF: let sh build the word.
        let check = try Share.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"test -f "$(printf 'report-\377.pdf')""#],
                                  environment: fixtures.environment, directory: fixtures.files)
        try #require(check.status == 0, "the shell must name the fixture: \(check.err)")
        let script = #"exec "$0" --explain --json "$(printf 'report-\377.pdf')""#
        let run = try Share.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, try Share.binary().path],
                                environment: fixtures.environment, directory: fixtures.files)
        // Paths are text inside share; a name that is not UTF-8 must not turn into another
        // name (U+FFFD) and then "no such file": it is refused, naming its bytes.
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.contains(#"'report-\xFF.pdf' is not UTF-8"#), "stderr: \(run.err)")
        #expect(!run.err.contains("no such file"), "stderr: \(run.err)")
    }
}
