import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// One run of `share` showing Mail's compose screen in tmux, in a
/// ``MailWorld``: the screen's rows by meaning (FormView's layout), the
/// program's pid (for `kill -9`), the cursor, and the autosave file.
///
/// The compose screen's layout (FormView): row 0 the title, rows 1–5 From,
/// To, Cc, Bcc, Subject (label from column 1, value from column 11, a "!"
/// in column 0 marks a problem), row 6 a rule, the body from row 7, the
/// attachment list above the status line (the second-to-last row), the help
/// bar last.
final class ComposeRun {
    static let width = 100
    static let height = 30
    static let valueColumn = 11
    /// The header rows.
    static let fromRow = 1, toRow = 2, ccRow = 3, bccRow = 4, subjectRow = 5, bodyRow = 7

    let world: MailWorld
    let session: TmuxSession
    /// Where the wrapper shell writes its pid before it becomes `share` (exec).
    let pidFile: URL

    /// Starts `share --config CONFIG ARGUMENTS…` in a 100×30 tmux session,
    /// with the fixtures' environment and `changes` to it.
    init(_ world: MailWorld, _ arguments: [String], environment changes: [String: String] = [:]) throws {
        self.world = world
        pidFile = world.root.appendingPathComponent("share-\(UUID().uuidString.prefix(8)).pid")
        let q = TmuxSession.quote
        let share = ([try Share.binary().path, "--config", world.config.path] + arguments).map(q).joined(separator: " ")
        // `exec` keeps the pid: the pid written is the pid of share itself.
        session = try TmuxSession("echo $$ > \(q(pidFile.path)); exec \(share)", width: ComposeRun.width,
                                  height: ComposeRun.height, workingDirectory: world.fixtures.files,
                                  environment: world.fixtures.environment.merging(changes) { $1 })
    }

    /// Starts `share --config CONFIG --json --activity mail ARGUMENTS…` and
    /// waits for its compose screen.
    static func mail(_ world: MailWorld, _ arguments: [String], environment changes: [String: String] = [:]) throws -> ComposeRun {
        let run = try ComposeRun(world, ["--json", "--activity", "mail"] + arguments, environment: changes)
        try run.waitForCompose()
        return run
    }

    /// `$XDG_STATE_HOME/share/compose.json` of this world (SPEC §8).
    static func stateFile(_ world: MailWorld) -> URL {
        world.root.appendingPathComponent("state/share/compose.json")
    }

    // MARK: - The screen

    /// Waits for the compose screen (its title and the From row) and returns it.
    @discardableResult
    func waitForCompose() throws -> Screen {
        try session.waitUntil("the compose screen") { screen in
            let lines = screen.lines
            return lines.count == ComposeRun.height && lines[0].contains("New Message")
                && lines[ComposeRun.fromRow].hasPrefix(" From:") && lines[ComposeRun.subjectRow].hasPrefix(" Subject:")
        }
    }

    /// Waits until the header row `row` shows exactly `value` (and a label not marked with "!").
    @discardableResult
    func waitForValue(_ value: String, row: Int) throws -> Screen {
        try session.waitUntil("\"\(value)\" in row \(row)") { ComposeRun.value(row, of: $0) == value }
    }

    /// Types `value` into the empty header field of row `row` once the
    /// cursor is there (`what` names the field), and waits until the row
    /// shows it.
    func type(_ value: String, into row: Int, _ what: String) throws {
        try waitForCursor(row: row, what)
        try session.sendLiteral(value)
        try waitForValue(value, row: row)
    }

    /// The text from column 11 of header row `row` (the labels are ASCII, so characters are cells).
    static func value(_ row: Int, of screen: Screen) -> String? {
        let lines = screen.lines
        guard lines.indices.contains(row) else { return nil }
        return String(lines[row].dropFirst(valueColumn))
    }

    /// The status line: the second-to-last row.
    static func status(_ screen: Screen) -> String {
        let lines = screen.lines
        return lines.count >= 2 ? lines[lines.count - 2] : ""
    }

    /// Where the terminal's cursor is (tmux's view): 0-based column and row.
    func cursor() throws -> (x: Int, y: Int) {
        let run = try Share.run(try TmuxSession.tmuxBinary(),
                                ["-S", session.socket, "display-message", "-p", "#{cursor_x} #{cursor_y}"],
                                environment: world.fixtures.environment, directory: session.directory)
        let words = run.out.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(run.status == 0 && words.count == 2, "tmux display-message: \(run.out) \(run.err)")
        return (words[0], words[1])
    }

    /// Waits until the cursor is on screen row `row` (a field took the focus).
    func waitForCursor(row: Int, _ what: String) throws {
        try poll("the cursor in \(what) (row \(row))") { try self.cursor().y == row }
    }

    // MARK: - The program

    /// The pid of `share`, once the wrapper has written it.
    func pid() throws -> pid_t {
        var found: pid_t?
        try poll("the pid file") {
            let text = (try? String(contentsOf: self.pidFile, encoding: .utf8)) ?? ""
            found = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return found != nil
        }
        return try #require(found)
    }

    /// Waits for the program to exit; returns the status and its completion object (`--json`).
    func finish() throws -> (status: Int32, completion: Completion) {
        let status = try session.waitForExit()
        let run = ShareRun(status: status, stdout: Data(session.stdout.utf8), stderr: Data(session.stderr.utf8))
        return (status, try Completion.parse(run))
    }

    // MARK: - Polling

    /// Polls `condition` until it holds (`eventually`); fails after
    /// `timeout` seconds with the screen, the program's output and the
    /// mail folders.
    func poll(_ what: String, timeout: Double = TmuxSession.defaultTimeout, _ condition: () throws -> Bool) throws {
        try eventually(what, timeout: timeout, report: { [self] in
            "screen:\n\((try? session.capture().text) ?? "(none)")\n-- stdout: \(session.stdout)\n-- stderr: \(session.stderr)"
                + "\n-- folders: \(world.folders)"
        }, condition)
    }
}

extension MailWorld {
    /// check_mail.py's reading of every message in `folder`.
    func checks(in folder: URL) throws -> [MailCheck] {
        try allMessages(in: folder).map { try MailCheck.run(file: $0) }
    }

    /// check_mail.py's reading of the delivered messages of `folder` (`new`
    /// and `cur`) while share may still be replacing them (autosave): each is
    /// copied first, and a message that vanishes meanwhile makes the answer
    /// nil ("not settled yet") instead of a failure.
    func settledChecks(in folder: URL) throws -> [MailCheck]? {
        var copies: [URL] = []
        let scratch = root.appendingPathComponent("copies-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (index, file) in (messages(in: folder, "new") + messages(in: folder, "cur")).enumerated() {
            guard let bytes = try? Data(contentsOf: file) else { return nil }
            let copy = scratch.appendingPathComponent("\(index).eml")
            try bytes.write(to: copy)
            copies.append(copy)
        }
        return try copies.map { try MailCheck.run(file: $0) }
    }
}
