import Foundation
import Synchronization
import TestSupport
import Testing

/// `share --list`: the eligible activities, TYPE<TAB>TITLE per line, or a
/// JSON array; exit 4 and a pointer to `--explain` when none is (SPEC §3, §4).
@Suite struct ListTests {
    @Test func eligibleActivitiesArePrintedTypeTabTitle() throws {
        let fixtures = try Fixtures()
        let cases: [([String], String)] = [
            (["--text", "hi"], "mail\tMail\nairDrop\tNearby\n"),
            ([fixtures.png.path], "mail\tMail\nairDrop\tNearby\nsaveToCameraRoll\tSave to Pictures\n"),
            (["https://example.com"], "mail\tMail\nairDrop\tNearby\naddToReadingList\tAdd to Reading List\nsaveToCameraRoll\tSave to Pictures\n"),
            ([fixtures.pdf.path], "mail\tMail\nairDrop\tNearby\n"),
        ]
        for (items, expected) in cases {
            let run = try fixtures.share(["--list"] + items)
            #expect(run.status == 0, "\(items): stderr: \(run.err)")
            #expect(run.out == expected, "\(items): stdout: \(run.out)")
        }
    }

    /// `share --list | head -0`: a reader that is gone is not a crash.
    @Test func listingIntoAClosedPipeEndsQuietly() throws {
        let fixtures = try Fixtures()
        let run = try Share.run(try Share.binary(), ["--list", "--json", "https://example.com"], environment: fixtures.environment,
                                directory: fixtures.files, closedOutput: true)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err.isEmpty, "stderr: \(run.err)")
    }

    @Test func jsonListsOnlyEligibleRows() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--json", "--text", "hi", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.map(\.type) == ["mail", "airDrop", "saveToCameraRoll"])
        #expect(rows.allSatisfy { $0.eligible })
    }

    @Test func nothingEligibleExitsFourWithEmptyStdout() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--exclude", "mail,airDrop", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("--explain"), "stderr: \(run.err)")
        let json = try fixtures.share("--list", "--json", "--exclude", "mail,saveToCameraRoll,airDrop", fixtures.png.path)
        #expect(json.status == 4, "stderr: \(json.err)")
        #expect(json.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func everythingExcludedExitsFour() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--only", "com.example.x", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty)
    }
}

/// Add to Reading List keeps URLs in a tab-separated file under the data folder.
@Suite struct ReadingListTests {
    /// A `mailto:` or `tel:` URL is an address, not a page: Mail takes it;
    /// the reading list and Save to Pictures are not offered, and say why.
    @Test func mailtoAndTelAreNotPagesToKeep() throws {
        let fixtures = try Fixtures()
        for url in ["mailto:kim@example.com", "tel:+821012345678"] {
            let list = try fixtures.share("--list", url)
            let types = list.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            #expect(types.contains("mail") && !types.contains("addToReadingList") && !types.contains("saveToCameraRoll"), "\(url): \(list.out)")
            let explained = try fixtures.share("--explain", url)
            #expect(explained.out.contains("the reading list keeps web pages (http or https); this share has none"), "\(explained.out)")
            let add = try fixtures.share("--activity", "addToReadingList", url)
            #expect(add.status == 4, "stderr: \(add.err)")
            #expect(!FileManager.default.fileExists(atPath: fixtures.root.appendingPathComponent("data/share/reading-list.tsv").path))
        }
        // Beside a web address, only the web address is kept.
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/page", "mailto:kim@example.com").status == 0)
        let listed = try fixtures.share("--reading-list")
        #expect(listed.out.hasSuffix("\thttps://example.com/page\n") && !listed.out.contains("mailto"), "\(listed.out)")
    }

    @Test func urlsAreAddedOnceAndEarlierLinesKept() throws {
        let fixtures = try Fixtures()
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        try FileManager.default.createDirectory(at: list.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("2020-01-01T00:00:00Z\thttps://old.example/\tKept as it was\n".utf8).write(to: list)
        let first = try fixtures.share("--activity", "addToReadingList", "--json", "--title", "NSHipster\tweekly",
                                       "https://nshipster.com/uiactivityviewcontroller/", "--text", "ignored")
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(first.out.contains(#""outcome":"performed""#))
        let again = try fixtures.share("--activity", "addToReadingList", "--json", "https://nshipster.com/uiactivityviewcontroller/")
        #expect(again.status == 3, "a URL on the list already is refused; stderr: \(again.err)")
        #expect(again.out.contains(#""code":"already-listed""#), "stdout: \(again.out)")
        #expect(again.err.contains("already on the reading list"), "stderr: \(again.err)")
        let lines = try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first == "2020-01-01T00:00:00Z\thttps://old.example/\tKept as it was")
        let fields = lines.last?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) ?? []
        #expect(fields.count == 3)
        #expect(fields.dropFirst().first == "https://nshipster.com/uiactivityviewcontroller/")
        #expect(fields.last == "NSHipster weekly")
        #expect(fields.first?.hasSuffix("Z") == true && fields.first?.contains("T") == true)
    }

    /// Twenty shares adding twenty URLs at once: every one exits 0 and
    /// every URL is on the list once (the list's lock, not luck).
    @Test func twentyAddsAtOnceLoseNothing() throws {
        let fixtures = try Fixtures()
        let binary = try Share.binary(), environment = fixtures.environment, directory = fixtures.files
        let urls = (1...20).map { "https://example.com/at-once/\($0)" }
        let statuses = Mutex<[String: Int32]>([:])
        let threads = urls.map { url in
            Thread {
                let status = (try? Share.run(binary, ["--activity", "addToReadingList", url], environment: environment,
                                             directory: directory))?.status ?? -1
                statuses.withLock { $0[url] = status }
            }
        }
        for thread in threads { thread.start() }
        try eventually("twenty adds to finish", timeout: 60) { statuses.withLock { $0.count } == urls.count }
        #expect(statuses.withLock { $0 } == Dictionary(uniqueKeysWithValues: urls.map { ($0, Int32(0)) }))
        let listed = try fixtures.share("--reading-list")
        #expect(listed.status == 0, "stderr: \(listed.err)")
        let listedURLs = listed.out.split(separator: "\n").compactMap { $0.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) }
        #expect(listedURLs.sorted() == urls.sorted(), "\(listedURLs.count) of 20 listed: \(listed.out)")
    }

    /// "\r\n" is one Character: the title's line breaks go scalar by scalar.
    @Test func aTitleWithCRLFStaysOnItsLine() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--activity", "addToReadingList", "--title", "Q4\r\nnumbers\rand\nmore", "https://example.com/q4")
        #expect(run.status == 0, "stderr: \(run.err)")
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        let text = try String(contentsOf: list, encoding: .utf8)
        #expect(!text.unicodeScalars.contains("\r"), "\(Array(text.utf8))")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasSuffix("\thttps://example.com/q4\tQ4  numbers and more") == true, "\(lines)")
    }

    /// One bad line (a crash mid-write, a disk error, a hand edit) costs
    /// nothing: it is named in a warning, skipped, and kept as it is by
    /// every later add and undo.
    @Test func aBadLineIsNamedSkippedAndKept() throws {
        let fixtures = try Fixtures()
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        try FileManager.default.createDirectory(at: list.deletingLastPathComponent(), withIntermediateDirectories: true)
        let bad: [[UInt8]] = [[0xFF, 0xFE, 0x09, 0x68, 0x69], Array("no tab at all".utf8), Array("2021-01-01T00:00:00Z\t\tno URL".utf8)]
        let before = Array("2020-01-01T00:00:00Z\thttps://old.example/\tOld\n".utf8) + bad.map { $0 + [0x0A] }.joined()
        try Data(before).write(to: list)

        let listed = try fixtures.share("--reading-list")
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(listed.out == "2020-01-01T00:00:00Z\tOld\thttps://old.example/\n", "stdout: \(listed.out)")
        #expect(listed.err.contains("\(list.path) lines 2, 3, 4 are not ADDED<TAB>URL<TAB>TITLE"), "stderr: \(listed.err)")

        let add = try fixtures.share("--activity", "addToReadingList", "https://new.example/")
        #expect(add.status == 0, "stderr: \(add.err)")
        #expect(add.err.contains("lines 2, 3, 4 are not"), "the add says so too; stderr: \(add.err)")
        let added = try Data(contentsOf: list)
        #expect(Array(added.prefix(before.count)) == before, "the bad lines are kept byte for byte")
        #expect(String(decoding: added.dropFirst(before.count), as: UTF8.self).contains("\thttps://new.example/\t"))

        #expect(try fixtures.share("--undo").status == 0)
        #expect(Array(try Data(contentsOf: list)) == before, "undo removes its line only")
    }

    /// A list saved with CRLF line ends by another program lists as the same entries.
    @Test func crlfLineEndsReadTheSame() throws {
        let fixtures = try Fixtures()
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        try FileManager.default.createDirectory(at: list.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("2020-01-01T00:00:00Z\thttps://a.example/\r\n2021-01-01T00:00:00Z\thttps://b.example/\tB\r\n".utf8).write(to: list)
        let listed = try fixtures.share("--reading-list")
        #expect(listed.status == 0 && listed.err.isEmpty, "stderr: \(listed.err)")
        #expect(listed.out == "2021-01-01T00:00:00Z\tB\thttps://b.example/\n2020-01-01T00:00:00Z\t\thttps://a.example/\n", "stdout: \(listed.out)")
    }

    /// A line written by another program carries escapes in any column:
    /// none reaches the terminal.
    @Test func escapesInAnyColumnAreShownNotObeyed() throws {
        let fixtures = try Fixtures()
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        try FileManager.default.createDirectory(at: list.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("\u{1B}]52;c;aGVsbG8=\u{07}2026-01-01T00:00:00Z\thttps://x.example/\t\u{1B}[2J\u{9B}31mTitle\n".utf8).write(to: list)
        let listed = try fixtures.share("--reading-list")
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(!listed.out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                "stdout: \(Array(listed.out.utf8))")
        #expect(listed.out.contains("https://x.example/") && listed.out.contains("Title"), "stdout: \(listed.out)")
        let url = try fixtures.share("--reading-list")
        #expect(url.status == 0)
        // An escape in the URL column makes the line no entry.
        try Data("2026-01-01T00:00:00Z\thttps://x.example/\u{1B}]52;c;aGk=\u{07}\tT\n".utf8).write(to: list)
        let bad = try fixtures.share("--reading-list")
        #expect(bad.status == 0 && bad.out.isEmpty, "stdout: \(bad.out)")
        #expect(bad.err.contains("line 1 is not ADDED<TAB>URL<TAB>TITLE") && !bad.err.contains("\u{1B}"), "stderr: \(bad.err)")
    }

    @Test func theListIsPrintedNewestFirstAsLinesOrJSON() throws {
        let fixtures = try Fixtures()
        let empty = try fixtures.share("--reading-list")
        #expect(empty.status == 0 && empty.out.isEmpty, "no list yet is an empty list; stderr: \(empty.err)")
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")
        try FileManager.default.createDirectory(at: list.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("2020-01-01T00:00:00Z\thttps://old.example/\tThe old one\n2021-05-05T10:00:00Z\thttps://new.example/\t\n".utf8)
            .write(to: list)
        let lines = try fixtures.share("--reading-list")
        #expect(lines.status == 0, "stderr: \(lines.err)")
        #expect(lines.out == "2021-05-05T10:00:00Z\t\thttps://new.example/\n2020-01-01T00:00:00Z\tThe old one\thttps://old.example/\n")
        let json = try fixtures.share("--reading-list", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: String]], "stdout: \(json.out)")
        #expect(rows == [["added": "2021-05-05T10:00:00Z", "title": "", "url": "https://new.example/"],
                         ["added": "2020-01-01T00:00:00Z", "title": "The old one", "url": "https://old.example/"]])
        let both = try fixtures.share("--reading-list", "--list", "--text", "hi")
        #expect(both.status == 2, "one mode at a time; stderr: \(both.err)")
    }

    @Test func withFetchTitlesOnAPageGivesItsTitleAndOtherwiseNothingIsFetched() throws {
        let fixtures = try Fixtures()
        let served = fixtures.root.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try Data("<html><head><TITLE>\n  Q4 numbers &amp;\n more &#8211; 분기 </TITLE></head><body>…</body></html>".utf8)
            .write(to: served.appendingPathComponent("q4.html"))
        let service = try MustacheService(directory: fixtures.root, arguments: ["--serve", served.path])
        defer { service.stop() }
        let page = "http://127.0.0.1:\(service.port)/files/q4.html"
        let list = fixtures.root.appendingPathComponent("data/share/reading-list.tsv")

        let plain = try fixtures.share("--activity", "addToReadingList", page)
        #expect(plain.status == 0, "stderr: \(plain.err)")
        #expect(try service.requests().isEmpty, "nothing is fetched unless fetch-titles is on")
        try FileManager.default.removeItem(at: list)

        let config = try fixtures.writeConfig("[reading-list]\nfetch-titles = on\n")
        let fetched = try fixtures.share("--config", config.path, "--activity", "addToReadingList", page)
        #expect(fetched.status == 0, "stderr: \(fetched.err)")
        #expect(try service.requests().map(\.path) == ["/files/q4.html"])
        let line = try String(contentsOf: list, encoding: .utf8)
        #expect(line.hasSuffix("\t\(page)\tQ4 numbers & more – 분기\n"), "\(line)")

        let wrong = try fixtures.writeConfig("[reading-list]\nfetch-title = on\n", at: "wrong.conf")
        let refused = try fixtures.share("--config", wrong.path, "--list", page)
        #expect(refused.status == 2 && refused.err.contains("unknown key 'fetch-title' in [reading-list]"), "stderr: \(refused.err)")
    }
}
