import Foundation
import ShareCLI
import ShareCore
import Testing

/// The share history: every finished run appended to
/// `$XDG_STATE_HOME/share/history.jsonl`, printed by `--history`, bounded by
/// `[history] keep`, cleared by `--forget`.
struct HistoryTests {
    /// One stored entry, read with Foundation's decoder (not the product's).
    struct Entry: Decodable {
        struct Item: Decodable { var kind: String; var name: String?; var type: String?; var size: Int64? }
        var id: String
        var time: String
        var activity: String
        var outcome: String
        var items: [Item]
        var recipients: [String]
        var returned: [String]
        var error: String?
        var reason: String?
    }

    static func historyFile(_ fixtures: Fixtures) -> URL {
        fixtures.root.appendingPathComponent("state/share/history.jsonl")
    }

    static func entries(_ run: ShareRun) throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: run.stdout)
    }

    @Test func aFinishedRunIsAppendedAndPrintedNewestFirst() throws {
        let fixtures = try Fixtures()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/a").status == 0)
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/b").status == 0)

        let json = try fixtures.share("--history", "--json")
        #expect(json.status == 0, "stderr: \(json.err)")
        let entries = try Self.entries(json)
        #expect(entries.map(\.items.first?.name) == ["https://example.com/b", "https://example.com/a"])
        #expect(entries.allSatisfy { $0.activity == "addToReadingList" && $0.outcome == "performed" && $0.error == nil })
        #expect(Set(entries.map(\.id)).count == 2)
        #expect(try Self.entries(fixtures.share("--history", "--json", "--limit", "1")).count == 1)

        let text = try fixtures.share("--history")
        let lines = text.out.split(separator: "\n")
        #expect(lines.count == 2, "stdout: \(text.out)")
        #expect(lines.first?.contains("addToReadingList") == true && lines.first?.contains("https://example.com/b") == true)
        #expect(lines.first?.hasSuffix("[\(entries[0].id)]") == true)
        // Printed in local time; stored in UTC.
        let utc = try fixtures.share(["--history", "--limit", "1"], changes: ["TZ": "UTC"]).out
        let seoul = try fixtures.share(["--history", "--limit", "1"], changes: ["TZ": "Asia/Seoul"]).out
        #expect(utc.hasPrefix(entries[0].time.prefix(13).replacingOccurrences(of: "T", with: " ")), "\(utc) vs \(entries[0].time)")
        let hour = { (text: String) in Int(text.dropFirst(11).prefix(2)) ?? -1 }
        #expect((hour(utc) + 9) % 24 == hour(seoul), "UTC \(utc), Seoul \(seoul)")
    }

    @Test func mailKeepsRecipientsAndFileNamesButNeverTheMessage() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let pdf = try world.file("Q4 보고서.pdf", FixtureBytes.pdf)
        let run = try world.share(["--activity", "mail", "--send", "--to", "박지성 <park@example.com>", "--cc", "lee@example.com",
                                   "--subject", "secret subject", "--body", "the secret body", pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let stored = try String(contentsOf: Self.historyFile(world.fixtures), encoding: .utf8)
        #expect(!stored.contains("secret"), "the history holds no subject or body: \(stored)")
        let entry = try #require(try Self.entries(world.share(["--history", "--json"])).first)
        #expect(entry.activity == "mail" && entry.outcome == "sent")
        #expect(entry.recipients == ["박지성 <park@example.com>", "lee@example.com"])
        let file = try #require(entry.items.first { $0.kind == "file" })
        #expect(file.name == "Q4 보고서.pdf" && file.type == "application/pdf" && file.size == Int64(FixtureBytes.pdf.count))
        #expect(entry.items.contains { $0.kind == "string" && $0.size == Int64("the secret body".count) })
    }

    /// A failed share is listed with its code and its reason.
    @Test func aFailedShareIsListedWithItsReason() throws {
        let fixtures = try Fixtures()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/twice").status == 0)
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/twice").status == 3)
        let json = try Self.entries(fixtures.share("--history", "--json"))
        #expect(json.first?.error == "already-listed" && json.first?.reason?.contains("already on the reading list") == true, "\(json)")
        let text = try fixtures.share("--history", "--limit", "1")
        #expect(text.out.contains("failed") && text.out.contains("✗ already-listed: https://example.com/twice is already on the reading list"),
                "stdout: \(text.out)")
    }

    @Test func aTornLastLineIsSkippedAndTheNextEntryStartsClean() throws {
        let fixtures = try Fixtures()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/a").status == 0)
        // A run killed in the middle of its write.
        let file = Self.historyFile(fixtures)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"activity":"mail","id":"2026"#.utf8))
        try handle.close()
        #expect(try Self.entries(fixtures.share("--history", "--json")).count == 1)
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/b").status == 0)
        let listed = try fixtures.share("--history", "--json")
        let entries = try Self.entries(listed)
        #expect(entries.compactMap(\.items.first?.name) == ["https://example.com/b", "https://example.com/a"])
        #expect(listed.err.contains("\(file.path) line 2 is not a history entry; kept as it is, and skipped"), "stderr: \(listed.err)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(#"{"activity":"mail","id":"2026"# + "\n"), "the torn line stays as it was: \(text)")
    }

    /// A damaged line in the middle (a disk error, a hand edit, not UTF-8)
    /// costs no entry around it, and is named in a warning.
    @Test func aDamagedLineIsNamedAndCostsNoOtherEntry() throws {
        let fixtures = try Fixtures()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/a").status == 0)
        let file = Self.historyFile(fixtures)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF, 0x00, 0x7B, 0x0A]))
        try handle.close()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/b").status == 0)
        let listed = try fixtures.share("--history")
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(listed.out.contains("https://example.com/a") && listed.out.contains("https://example.com/b"), "stdout: \(listed.out)")
        #expect(listed.err.contains("line 2 is not a history entry"), "stderr: \(listed.err)")
        #expect(try Data(contentsOf: file).range(of: Data([0x0A, 0xFF, 0x00, 0x7B, 0x0A])) != nil, "the damaged line is kept")
    }

    @Test func keepDropsOldEntriesAndOffWritesNothing() throws {
        let fixtures = try Fixtures()
        let file = Self.historyFile(fixtures)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let old = #"{"activity":"copyToPasteboard","id":"20200101T000000Z-1","items":[],"outcome":"performed","#
            + #""recipients":[],"returned":[],"time":"2020-01-01T00:00:00Z"}"# + "\n"
        try Data(old.utf8).write(to: file)
        let keep = try fixtures.writeConfig("[history]\nkeep = 30d\n")
        #expect(try fixtures.share("--config", keep.path, "--activity", "addToReadingList", "https://example.com/a").status == 0)
        let entries = try Self.entries(fixtures.share("--history", "--json"))
        #expect(entries.map(\.activity) == ["addToReadingList"], "the 2020 entry is past 30 days")

        #expect(try fixtures.share("--forget").status == 0)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let off = try fixtures.writeConfig("[history]\nkeep = off\n", at: "off.conf")
        #expect(try fixtures.share("--config", off.path, "--activity", "addToReadingList", "https://example.com/b").status == 0)
        #expect(!FileManager.default.fileExists(atPath: file.path), "keep = off writes no history")
    }

    @Test func runsFinishingAtOnceWhileOldEntriesArePrunedLoseNoEntry() throws {
        let fixtures = try Fixtures()
        let file = Self.historyFile(fixtures)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // An old entry (pruned by the first run to finish) and a line of a newer share, which is kept.
        let old = #"{"activity":"mail","id":"old","items":[],"outcome":"sent","recipients":[],"returned":[],"time":"2020-01-01T00:00:00Z"}"#
        let newer = #"{"kind":"from a newer share","time":"2099-01-01T00:00:00Z"}"#
        try Data((old + "\n" + newer + "\n").utf8).write(to: file)
        let keep = try fixtures.writeConfig("[history]\nkeep = 1d\n")
        let processes = try (0..<20).map { index -> Process in
            let process = Process()
            process.executableURL = try Share.binary()
            process.arguments = ["--config", keep.path, "--activity", "addToReadingList", "https://example.com/\(index)"]
            process.environment = fixtures.environment
            process.currentDirectoryURL = fixtures.files
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let entries = try Self.entries(fixtures.share("--history", "--json"))
        #expect(Set(entries.compactMap(\.items.first?.name)) == Set((0..<20).map { "https://example.com/\($0)" }))
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(newer) && !text.contains(#""id":"old""#), "\(text)")
    }

    @Test func badSettingsAndOptionsAreUsageErrors() throws {
        let fixtures = try Fixtures()
        let bad = try fixtures.writeConfig("[history]\nkeep = forever\n")
        let run = try fixtures.share("--config", bad.path, "--history")
        #expect(run.status == 2)
        #expect(run.err.contains("keep takes a time such as 90d, 12w, 6m or 1y, or off; not 'forever'"), "stderr: \(run.err)")
        let suggestions = try fixtures.writeConfig("[picker]\nsuggestions = maybe\n", at: "s.conf")
        let maybe = try fixtures.share("--config", suggestions.path, "--list", "--text", "hi")
        #expect(maybe.status == 2 && maybe.err.contains("suggestions takes on or off, not 'maybe'"), "stderr: \(maybe.err)")
        #expect(try Configuration(parsing: "[picker]\nsuggestions = off\n", path: "c", environment: [:]).suggestions == false)
        #expect(try Configuration(parsing: "", path: "c", environment: [:]).suggestions == true)
        let limit = try fixtures.share("--limit", "3", "--list", "--text", "hi")
        #expect(limit.status == 2 && limit.err.contains("--limit goes with --history"), "stderr: \(limit.err)")
        let zero = try fixtures.share("--history", "--limit", "0")
        #expect(zero.status == 2 && zero.err.contains("--limit takes a number of entries above 0"), "stderr: \(zero.err)")
        let empty = try fixtures.share("--history")
        #expect(empty.status == 0 && empty.out.isEmpty && empty.err.contains("the history is empty"))
    }

    @Test func keepReadsDaysWeeksMonthsYearsAndOff() {
        #expect(ShareHistory.Keep("90d") == .days(90))
        #expect(ShareHistory.Keep("2w") == .days(14))
        #expect(ShareHistory.Keep(" 6m ") == .days(180))
        #expect(ShareHistory.Keep("1y") == .days(365))
        #expect(ShareHistory.Keep("OFF") == .off)
        for bad in ["", "d", "0d", "-1d", "90", "90x", "1.5d"] { #expect(ShareHistory.Keep(bad) == nil, "\(bad)") }
    }
}

/// The people row end to end: a mail sent once puts its recipient above the
/// Share row; picking them opens Mail with them in To.
struct PeopleRowEndToEndTests {
    @Test func aRecipientOfTheHistoryIsOfferedAndPickingThemFillsTo() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let sent = try world.share(["--activity", "mail", "--send", "--to", "박지성 <park@example.com>", "--body", "first"])
        #expect(sent.status == 0, "stderr: \(sent.err)")

        let run = try ComposeRun(world, ["--json", "--text", "Q4 numbers"])
        let session = run.session
        let picker = try session.waitFor("박지성")
        #expect(picker.contains(" People") && picker.contains(" Share"), "screen:\n\(picker.text)")
        #expect(picker.contains("박 ✉"), "the person's initial beside Mail's glyph:\n\(picker.text)")
        // Up from the first activity reaches the person; Enter opens Mail for them.
        try session.send("Up")
        try session.waitUntil("the person selected", colors: true) { $0.isSelected("박지성") }
        try session.send("Enter")
        try run.waitForCompose()
        try run.waitForValue("박지성 <park@example.com>", row: ComposeRun.toRow)
        try session.send("Escape")
        #expect(try run.finish().status == 1)
    }

    /// A person last reached by Message is offered with Message's glyph, and
    /// picking them opens Message's form with them in To (not Mail's).
    @Test func aPersonMessagedIsOfferedAndPickingThemOpensMessageWithThem() throws {
        let world = try MailWorld()
        let hook = try MessageWebhookTests.Hook(root: world.root)
        defer { hook.stop() }
        let mail = try String(contentsOf: world.config, encoding: .utf8)
        try Data((mail + "[message.team]\ntype = slack\nurl = \(hook.url)\n").utf8).write(to: world.config)
        let sent = try world.share(["--activity", "message", "--to", "team", "--text", "first"])
        #expect(sent.status == 0, "stderr: \(sent.err)")
        _ = try hook.next()

        let run = try ComposeRun(world, ["--json", "--text", "Q4 numbers"])
        let session = run.session
        let picker = try session.waitFor(" People")
        #expect(picker.contains("T ✆"), "the person's initial beside Message's glyph:\n\(picker.text)")
        try session.send("Up")
        try session.waitUntil("the person selected", colors: true) { $0.isSelected("team") }
        try session.send("Enter")
        let form = try session.waitUntil("Message's form with team in To") { screen in
            screen.lines.contains { $0.hasPrefix(" To:") && $0.hasSuffix("team") }
        }
        #expect(!form.lines.contains { $0.hasPrefix(" From:") }, "Message's form, not Mail's:\n\(form.text)")
        try session.send("Escape")
        #expect(try run.finish().status == 1)
    }
}
