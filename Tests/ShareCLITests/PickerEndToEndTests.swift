import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The picker end to end: the real binaries in a real terminal (tmux),
/// driven by keys, mouse and resizes, judged by the screen, the exit status
/// and what reaches stdout (SPEC §3, §4, §7).
@Suite struct PickerEndToEndTests {
    static let cancelled = #"{"activityType":null,"completed":false,"outcome":"cancelled","returnedItems":[],"error":null}"# + "\n"

    /// The fixture's and Mail's tiles for `share-activities-fixture --count 5 -- --text …`,
    /// in reading order: the share row (application activities before Mail), then the
    /// action row (other system tiles, such as Copy, may follow in either row).
    static let fixtureTitles = ["Activity 1", "Activity 3", "Activity 5", "Mail", "Activity 2", "Activity 4"]

    // MARK: - 1. Draw and cancel

    @Test(arguments: ["Escape", "q", "C-c"])
    func drawsHeaderAndMailThenCancels(key: String) throws {
        let fixtures = try Fixtures()
        let command = try Self.share(["--json", "--text", "PIN 4821", "https://nshipster.com", fixtures.png.path, fixtures.pdf.path])
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        let screen = try session.waitFor("Mail")
        let lines = screen.lines
        #expect(lines.count == 30, "screen:\n\(screen.text)")
        #expect(lines.first?.hasPrefix("╭") == true && lines.first?.hasSuffix("╮") == true, "screen:\n\(screen.text)")
        #expect(lines.prefix(4).contains { $0.contains("4 items") }, "the header says how many items; screen:\n\(screen.text)")
        #expect(lines.prefix(4).contains { $0.contains("PIN 4821") }, "the header names the first item; screen:\n\(screen.text)")
        let mail = try #require(screen.find("Mail"), "screen:\n\(screen.text)")
        #expect(mail.row > 4, "Mail is a tile below the header; screen:\n\(screen.text)")
        #expect(lines[mail.row - 2].contains("✉"), "Mail's icon sits above its title; screen:\n\(screen.text)")
        #expect(session.stdout.isEmpty, "nothing on stdout while the picker is open: \(session.stdout)")

        try session.send(key)
        let status = try session.waitForExit()
        #expect(status == 1)
        #expect(session.stdout == Self.cancelled)
        #expect(session.stderr.isEmpty, "stderr: \(session.stderr)")
    }

    /// A TERM, an INT (or a hang-up) ends the picker like a cancel, so the
    /// terminal is restored and the result reported, instead of share dying
    /// in raw mode.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsThePickerLikeACancel(signal: Int32) throws {
        let fixtures = try Fixtures()
        let (session, pid) = try Self.pickerWithPid(fixtures)
        kill(pid, signal)
        #expect(try session.waitForExit() == 1, "exit 1 (cancelled), not killed by the signal (\(128 + signal))")
        #expect(session.stdout == Self.cancelled)
    }

    /// A TSTP leaves the screen and stops share; continued, the picker is
    /// drawn again whole and still takes keys.
    @Test func aStopLeavesTheScreenUntilContinued() throws {
        let fixtures = try Fixtures()
        let (session, pid) = try Self.pickerWithPid(fixtures)
        kill(pid, SIGTSTP)
        try eventually("share to stop", timeout: 10, report: { "pid \(pid)" }) { Self.processState(pid) == "T" }
        #expect(!(try session.capture().contains("Mail")), "the shell's screen while stopped")
        kill(pid, SIGCONT)
        _ = try session.waitFor("Mail")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
        #expect(session.stdout == Self.cancelled)
    }

    /// The picker on `--text hi` in tmux, and share's process id.
    private static func pickerWithPid(_ fixtures: Fixtures) throws -> (TmuxSession, pid_t) {
        let pidFile = fixtures.files.appendingPathComponent("share.pid").path
        let command = "echo $$ > \(TmuxSession.quote(pidFile)); exec " + (try Self.share(["--json", "--text", "hi"]))
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        _ = try session.waitFor("Mail")
        let pid = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        return (session, pid)
    }

    /// The state letter of `pid` in /proc (`T` when stopped).
    private static func processState(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    // MARK: - 2. Picking

    /// Enter picks the first tile; a digit picks by position.
    @Test(arguments: [("Enter", 0), ("3", 2)])
    func aKeyPicksItsTile(key: String, place: Int) throws {
        try Self.withFixturePicker { session in
            let titles = try Self.tileTitles(session)
            try session.send(key)
            try Self.expectPicked(titles[place], session)
        }
    }

    @Test func rightThenEnterPicksTheSecondTile() throws {
        try Self.withFixturePicker { session in
            let titles = try Self.tileTitles(session)
            try session.send("Right")
            // The selection (reverse video) moves to the second title before Enter.
            try session.waitUntil("the selection on \(titles[1])", colors: true) { $0.isSelected(titles[1]) }
            try session.send("Enter")
            try Self.expectPicked(titles[1], session)
        }
    }

    @Test func clickOnATitlePicksThatTile() throws {
        try Self.withFixturePicker { session in
            _ = try Self.tileTitles(session)
            let target = "Activity 4"
            let screen = try session.capture()
            let cell = try #require(screen.find(target), "screen:\n\(screen.text)")
            try session.click(column: cell.column + 2, row: cell.row)
            try Self.expectPicked(target, session)
        }
    }

    // MARK: - 3. Filter

    @Test func filterNarrowsTheTilesAndEnterPicksTheMatch() throws {
        try Self.withFixturePicker { session in
            try session.send("/")
            try session.sendLiteral("ty 4")
            let screen = try session.waitUntil("the filter line \"/ty 4\"") { $0.lines.last?.hasPrefix("/ty 4") == true }
            #expect(Self.gridTitles(screen) == ["Activity 4"], "only the match is shown; screen:\n\(screen.text)")
            try session.send("Enter")
            try Self.expectPicked("Activity 4", session)
        }
    }

    @Test func escapeClearsTheFilterThenCancels() throws {
        try Self.withFixturePicker { session in
            let all = try Self.tileTitles(session)
            try session.send("/")
            try session.sendLiteral("ty")
            let filtered = try session.waitUntil("the filter line \"/ty\"") { $0.lines.last?.hasPrefix("/ty") == true }
            #expect(Self.gridTitles(filtered) == ["Activity 1", "Activity 3", "Activity 5", "Activity 2", "Activity 4"],
                    "only titles with \"ty\"; screen:\n\(filtered.text)")
            try session.send("Escape")
            let cleared = try session.waitFor("Mail")
            #expect(Self.gridTitles(cleared) == all, "every tile is back; screen:\n\(cleared.text)")
            #expect(cleared.lines.last?.hasPrefix("/") == false, "the filter line is gone; screen:\n\(cleared.text)")
            #expect(!session.hasExited, "the first Esc only clears the filter; stdout: \(session.stdout)")
            try session.send("Escape")
            #expect(try session.waitForExit() == 1)
            #expect(session.stdout == Self.cancelled)
        }
    }

    // MARK: - 4. Resize

    @Test func survivesResizeToTheListAndBack() throws {
        try Self.withFixturePicker { session in
            let all = try Self.tileTitles(session)
            try session.send("Right")
            try session.waitUntil("the selection on Activity 3", colors: true) { $0.isSelected("Activity 3") }

            try session.resize(width: 40, height: 12)
            let list = try session.waitUntil("the list at 40×12") { screen in
                screen.lines.count == 12 && !screen.contains("╭") && screen.contains("Activity 3")
            }
            // One activity per line, icon then title, in the same order as the tiles.
            let rows = list.matches(of: /Activity \d+|Mail/)
            #expect(rows.map(\.text) == Self.fixtureTitles.filter { title in rows.contains { $0.text == title } },
                    "in the same order; screen:\n\(list.text)")
            #expect(Set(rows.map(\.row)).count == rows.count, "one per line; screen:\n\(list.text)")
            #expect(list.lines.allSatisfy { Screen.columns($0) <= 40 }, "screen:\n\(list.text)")
            let colored = try session.capture(colors: true)
            let selected = colored.reversed.joined().filter { $0.contains("Activity") || $0.contains("Mail") }
            #expect(selected.count == 1 && selected.first?.hasSuffix("Activity 3") == true,
                    "the selection survives the resize: \(colored.reversed)")

            try session.send("Down")
            try session.waitUntil("the selection on Activity 5 in the list", colors: true) { $0.isSelected("Activity 5") }

            try session.resize(width: 100, height: 30)
            let grid = try session.waitUntil("the grid at 100×30") { screen in
                screen.lines.count == 30 && screen.lines.first?.hasPrefix("╭") == true && screen.contains("Activity 4")
            }
            #expect(Self.gridTitles(grid) == all, "screen:\n\(grid.text)")
            #expect(!session.hasExited)
            try session.send("Enter")
            try Self.expectPicked("Activity 5", session)
        }
    }

    /// ncurses sends only differences after the first frame: after a move,
    /// the screen must be exactly what ncurses draws from scratch for the
    /// same state (forced by a resize away and back).
    @Test func aMoveLeavesTheScreenAsADrawFromScratch() throws {
        try Self.withFixturePicker { session in
            try session.send("Right")
            let moved = try session.waitUntil("the selection on Activity 3", colors: true) { $0.isSelected("Activity 3") }
            try session.resize(width: 40, height: 12)
            try session.waitUntil("the list at 40×12") { $0.lines.count == 12 && !$0.contains("╭") }
            try session.resize(width: 100, height: 30)
            let redrawn = try session.waitUntil("the grid drawn again by ncurses, as before the resize", colors: true) {
                $0.text == moved.text
            }
            #expect(redrawn.text == moved.text)
            try session.send("Escape")
            #expect(try session.waitForExit() == 1)
        }
    }

    /// Escape sequences ncurses does not know (F13 is `ESC [ 25 ~`, a
    /// modified F1 `ESC [ 1 ; 5 P`, an SS3 F1 `ESC O P`) are read whole and
    /// ignored: their digits never pick a tile by position.
    @Test func unknownEscapeSequencesAreIgnoredWhole() throws {
        try Self.withFixturePicker { session in
            try session.sendLiteral("\u{1B}[25~\u{1B}[1;5P\u{1B}OP\u{1B}[2~")
            try session.send("Right")
            try session.waitUntil("the selection on Activity 3", colors: true) { $0.isSelected("Activity 3") }
            #expect(!session.hasExited, "a digit of a sequence picked a tile")
            try session.send("Enter")
            try Self.expectPicked("Activity 3", session)
        }
    }

    /// Outside UTF-8 the picker draws and picks as ever.
    @Test func withoutUTF8ThePickerStillWorks() throws {
        let fixtures = try Fixtures()
        defer { withExtendedLifetime(fixtures) {} }
        let command = "LC_ALL=C " + (try Self.fixture(["--count", "5", "--", "--json", "--text", "hello"]))
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        try session.waitFor("Activity 5")
        try session.send("Right")
        try session.waitUntil("the selection on Activity 3", colors: true) { $0.isSelected("Activity 3") }
        try session.send("Enter")
        try Self.expectPicked("Activity 3", session)
    }

    // MARK: - 5. Wide and long titles

    @Test func koreanAndEmojiTitlesAreTruncatedAndAligned() throws {
        let fixtures = try Fixtures()
        let titles = ["연락처에 지정하기 정말 긴 제목", "사진 앱에 저장", "Share 👨‍👩‍👧 family", "I ❤️ it"]
        let file = try fixtures.file("titles.txt", Data((titles.joined(separator: "\n") + "\n").utf8))
        let command = try Self.fixture(["--titles", file.path, "--", "--json", "--text", "hello"])
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        let screen = try session.waitFor("Mail")

        // The share row holds fixture 1, 3 and Mail: three tiles in 98 columns get
        // 22 each (the most a long title widens a tile to), from column 1. A title
        // takes at most 21 cells, is cut with "…" by display width, and is centred
        // under the icon box: it starts at 1 + 22·n + 11 − ⌈width / 2⌉
        // (PickerLayout.fit, PickerView.drawTile).
        func expectTitle(_ full: String, tile n: Int, tileWidth: Int = 22, sourceLocation: SourceLocation = #_sourceLocation) {
            let head = String(full.prefix(2))
            guard let cell = screen.find(head), let line = screen.lines.dropFirst(cell.row).first,
                  let start = line.range(of: head)?.lowerBound else {
                Issue.record("\"\(full)\" is not on screen:\n\(screen.text)", sourceLocation: sourceLocation)
                return
            }
            let room = tileWidth - 1
            let truncated = Self.pickerWidth(full) > room
            // What is shown: up to the ellipsis when cut, else the whole title.
            let rest = line[start...]
            let shown = truncated ? String(rest[...(rest.firstIndex(of: "…") ?? rest.index(before: rest.endIndex))])
                                  : String(rest.prefix(full.count))
            let width = Self.pickerWidth(shown)
            if truncated {
                #expect(shown.hasSuffix("…"), "\"\(full)\" is cut with …: \"\(shown)\"", sourceLocation: sourceLocation)
                let kept = shown.dropLast().trimmingCharacters(in: .whitespaces)
                #expect(full.hasPrefix(kept) && !kept.isEmpty, "\"\(shown)\" is a prefix of \"\(full)\"",
                        sourceLocation: sourceLocation)
                #expect(((room - 2)...room).contains(width), "\"\(shown)\" fills the tile: \(width) cells", sourceLocation: sourceLocation)
            } else {
                #expect(shown == full, "\"\(full)\" is shown whole: \"\(shown)\"", sourceLocation: sourceLocation)
            }
            #expect(cell.column == 1 + tileWidth * n + tileWidth / 2 - (width + 1) / 2,
                    "\"\(shown)\" (\(width) cells) starts at column \(cell.column); line: \(line)", sourceLocation: sourceLocation)
        }
        expectTitle(titles[0], tile: 0)
        // Mail comes after the two share-row fixture tiles, unmoved by the wide titles.
        expectTitle("Mail", tile: 2)
        #expect(!screen.contains("제목"), "the longest title is cut; screen:\n\(screen.text)")

        // The family emoji stays whole, and the title with it: tile 1 of the share row.
        let family = try #require(screen.lines.first { $0.contains("Share ") && $0.contains("Mail") },
                                  "screen:\n\(screen.text)")
        let familyStart = family.range(of: "Share ")!.lowerBound
        #expect(Screen.columns(family[..<familyStart]) == 1 + 22 + 11 - (15 + 1) / 2, "line: \(family)")
        // ncurses holds one spacing character per cell: the sequence is drawn as its first
        // emoji in the two cells the picker gave it, with no stray joiner after it.
        #expect(family.contains("Share 👨 family"), "line: \(family)")
        #expect(!family.unicodeScalars.contains("\u{200D}"), "line: \(family)")

        // The action row: "사진 앱에 저장" and "I ❤️ it" (6 cells: ❤️ is one, as ncurses
        // and tmux draw it) both whole, in tiles widened to the longest title there.
        #expect(screen.contains("사진 앱에 저장") && screen.lines.contains { $0.contains("I ❤️ it") }, "screen:\n\(screen.text)")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
    }

    /// Display width as the picker measures it (SPEC §7): like ``Screen/columns(_:)``,
    /// but an emoji presentation sequence (VS16) or a ZWJ sequence takes 2 cells.
    static func pickerWidth<S: StringProtocol>(_ text: S) -> Int {
        text.reduce(0) { total, character in
            let emoji = character.unicodeScalars.contains { $0.value == 0xFE0F || $0.value == 0x200D }
            return total + (emoji ? 2 : Screen.columns(String(character)))
        }
    }

    // MARK: - 6. stdout is for the result only

    @Test func stdinItemAndJSONOnlyOnStdout() throws {
        let fixtures = try Fixtures()
        let command = "echo hi | " + (try Self.share(["--json", "-"]))
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        let screen = try session.waitFor("Mail")
        #expect(screen.lines.prefix(4).contains { $0.contains("“hi”") }, "the header shows the stdin text; screen:\n\(screen.text)")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
        #expect(session.stdout == Self.cancelled, "stdout holds the JSON line only")
        #expect(session.stderr.isEmpty, "stderr: \(session.stderr)")
    }

    // MARK: - 7. No terminal

    @Test func noTerminalWithoutActivityIsAUsageError() throws {
        let fixtures = try Fixtures()
        let share = try Share.binary()
        let arguments = ["--json", "--text", "hello"]
        // The test process may own a terminal (run by hand): then start share in a new session without one.
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
        let hasTerminal = descriptor >= 0
        if hasTerminal { close(descriptor) }
        let run = hasTerminal
            ? try Share.run(URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", share.path] + arguments,
                            environment: fixtures.environment, directory: fixtures.files)
            : try Share.run(share, arguments, environment: fixtures.environment, directory: fixtures.files)
        #expect(!run.timedOut)
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.err.contains("no terminal"), "stderr: \(run.err)")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
    }

    // MARK: - Helpers

    /// A shell command line running the `share` under test with `arguments`.
    static func share(_ arguments: [String]) throws -> String {
        ([try Share.binary().path] + arguments).map(TmuxSession.quote).joined(separator: " ")
    }

    /// A shell command line running `share-activities-fixture` (next to `share`) with `arguments`.
    static func fixture(_ arguments: [String]) throws -> String {
        let binary = try Share.binary().deletingLastPathComponent().appendingPathComponent("share-activities-fixture")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no \(binary.path); build the package first")
        return ([binary.path] + arguments).map(TmuxSession.quote).joined(separator: " ")
    }

    /// The fixture with `count` activities and a text item, at 100×30, once Mail is drawn.
    /// Opens the fixture's picker (five activities, ``fixtureSession(count:)``)
    /// and runs `body` with its session; the fixtures live until `body` returns.
    static func withFixturePicker(_ body: (TmuxSession) throws -> Void) throws {
        let (fixtures, session) = try fixtureSession(count: 5)
        try withExtendedLifetime(fixtures) { try body(session) }
    }

    static func fixtureSession(count: Int) throws -> (Fixtures, TmuxSession) {
        let fixtures = try Fixtures()
        let command = try fixture(["--count", String(count), "--", "--json", "--text", "hello"])
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        try session.waitFor("Activity \(count)")
        return (fixtures, session)
    }

    /// The tile titles in reading order, as the screen shows them.
    static func tileTitles(_ session: TmuxSession) throws -> [String] {
        let screen = try session.waitFor("Mail")
        let titles = gridTitles(screen)
        #expect(titles.filter(fixtureTitles.contains) == fixtureTitles, "screen:\n\(screen.text)")
        try #require(titles.starts(with: ["Activity 1", "Activity 3", "Activity 5"]), "screen:\n\(screen.text)")
        return titles
    }

    /// The tile titles of a grid, in reading order: the text on the line under each icon box.
    static func gridTitles(_ screen: Screen) -> [String] {
        let lines = screen.lines
        var titles: [String] = []
        for row in lines.indices.dropFirst() where lines[row - 1].contains(/(^|[^─])╰────╯/) {
            titles += lines[row].split(separator: /\s{2,}/).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        return titles
    }

    /// Waits for the fixture activity titled `title` to have run: exit 0 and its JSON on stdout.
    static func expectPicked(_ title: String, _ session: TmuxSession,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try session.waitForExit()
        #expect(status == 0, "stdout: \(session.stdout) stderr: \(session.stderr)", sourceLocation: sourceLocation)
        let number = try #require(title.split(separator: " ").last, sourceLocation: sourceLocation)
        let out = session.stdout
        #expect(out.hasSuffix("\n") && out.filter { $0 == "\n" }.count == 1, "one JSON line: \(out)",
                sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        let result = try #require(object, "stdout: \(out)", sourceLocation: sourceLocation)
        #expect(result["activityType"] as? String == "com.example.fixture\(number)", "stdout: \(out)",
                sourceLocation: sourceLocation)
        #expect(result["outcome"] as? String == "performed", "stdout: \(out)", sourceLocation: sourceLocation)
        #expect(result["completed"] as? Bool == true, "stdout: \(out)", sourceLocation: sourceLocation)
        let returned = result["returnedItems"] as? [[String: Any]]
        #expect(returned?.count == 1 && returned?.first?["value"] as? String == title, "stdout: \(out)",
                sourceLocation: sourceLocation)
    }
}

/// A terminal share cannot draw on is refused like a bad item: exit 2 and
/// why, never a screen of garbage or a wait for keys.
@Suite struct TerminalRefusalTests {
    @Test(arguments: [("dumb", "this terminal cannot move the cursor (TERM=dumb)"),
                      ("no-such-terminal-xyz", "ncurses cannot drive this terminal (TERM=no-such-terminal-xyz)")])
    func aTerminalWithoutCursorAddressingExitsTwo(term: String, words: String) throws {
        let fixtures = try Fixtures()
        let session = try TmuxSession("TERM=\(term) " + TmuxSession.quote(try Share.binary().path) + " --text hi",
                                      workingDirectory: fixtures.files, environment: fixtures.environment)
        #expect(try session.waitForExit() == 2)
        #expect(session.stderr.contains(words), "stderr: \(session.stderr)")
    }
}
