import Foundation
import Testing
import TestSupport

/// `--integration NAME` and the integrations under `contrib/`, each driven
/// in the real program (ranger, nnn, lf, vifm, Vim, Neovim, tmux, and
/// xdg-utils for mailto:) in tmux, with the real share and its picker.
@Suite struct IntegrationTests {
    static let root = InstallTests.root
    static let names = ["ranger", "nnn", "lf", "vifm", "vim", "nvim", "tmux", "mailto"]
    static let files = ["ranger": "ranger/rc.conf", "nnn": "nnn/share", "lf": "lf/lfrc", "vifm": "vifm/vifmrc",
                        "vim": "vim/share.vim", "nvim": "vim/share.vim", "tmux": "tmux/share.tmux.conf"]

    static func contrib(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("contrib").appendingPathComponent(path))
    }

    // MARK: - The option

    /// What `--integration NAME` prints is its file under contrib/, byte for byte.
    @Test(arguments: ["ranger", "nnn", "lf", "vifm", "vim", "nvim", "tmux"])
    func printsItsContribFile(name: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--integration", name)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.stdout == (try Self.contrib(try #require(Self.files[name]))), "share --integration \(name) differs from contrib/")
    }

    @Test func anUnknownNameIsAUsageErrorListingTheNames() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--integration", "emacs")
        run.expectExit(2, saying: "--integration takes ranger, nnn, lf, vifm, vim, nvim, tmux, mailto, not 'emacs'")
        #expect(run.stdout.isEmpty)
    }

    // MARK: - tmux

    /// In copy mode, S (the binding share --integration tmux prints) opens
    /// the picker on the selection in a window of its own; Copy copies the
    /// text; the window closes and the pane is back, out of copy mode.
    @Test(arguments: ["emacs", "vi"])
    func tmuxCopyModeSharesTheSelection(keys: String) throws {
        let world = try World()
        let binding = world.fixtures.root.appendingPathComponent("share.tmux.conf")
        try world.integration("tmux").write(to: binding)
        let session = try TmuxSession("exec >/dev/tty; printf 'first line\\nhello from the pane\\n'; exec cat", workingDirectory: world.folder,
                                      environment: world.environment)
        try session.waitFor("hello from the pane")
        try session.command("set-option", "-g", "mode-keys", keys)
        try session.command("source-file", binding.path)
        try session.command("copy-mode")
        try session.command("send-keys", "-X", "cursor-up")
        try session.command("send-keys", "-X", "start-of-line")
        try session.command("send-keys", "-X", "begin-selection")
        // vi's selection takes the character under the cursor, emacs's stops before it.
        for _ in 0..<"hello from the pane".count - (keys == "vi" ? 1 : 0) { try session.command("send-keys", "-X", "cursor-right") }
        try session.send("S")
        try session.waitUntil("the picker in a window of its own") { $0.contains("Copy") && $0.contains("hello from the pane") }
        #expect(try session.command("display-message", "-p", "#{window_name}") == "share\n")
        #expect(world.lastArguments() == ["-"])
        let copied = try world.pickCopy(session)
        #expect(copied == "hello from the pane", "clipboard: \(copied)")
        try eventually("the share window to close", timeout: TmuxSession.defaultTimeout) {
            (try? session.command("display-message", "-p", "#{session_windows} #{pane_in_mode}")) == "1 0\n"
        }
        #expect(try session.capture().text.contains("first line\nhello from the pane"))
        // A cancelled share (exit 1) closes its window at once too.
        try session.command("copy-mode")
        try session.command("send-keys", "-X", "cursor-up")
        try session.command("send-keys", "-X", "begin-selection")
        try session.command("send-keys", "-X", "cursor-right")
        try session.send("S")
        try session.waitUntil("the picker again") { $0.contains("Copy") && !$0.contains("first line") }
        try session.send("Escape")
        try eventually("the share window to close after a cancel", timeout: TmuxSession.defaultTimeout,
                       report: { "screen:\n\((try? session.capture().text) ?? "")" }) {
            (try? session.command("display-message", "-p", "#{session_windows} #{pane_in_mode}")) == "1 0\n"
        }
    }

    // MARK: - Vim and Neovim

    /// The editor with the plugin share --integration prints, on `file` in the world's folder.
    static func editor(_ name: String, _ world: World, file: String) throws -> TmuxSession {
        let plugin = world.fixtures.root.appendingPathComponent("share.vim")
        try world.integration(name).write(to: plugin)
        let program = name == "nvim" ? "nvim" : "vim -N"
        return try TmuxSession("exec >/dev/tty; \(program) -u NONE -i NONE --cmd 'source \(plugin.path)' \(file)", workingDirectory: world.folder,
                               environment: world.environment)
    }

    /// `:Share` shares the buffer's file; back in the editor afterwards.
    @Test(arguments: ["vim", "nvim"])
    func editorSharesTheBuffersFile(name: String) throws {
        let world = try World()
        let session = try Self.editor(name, world, file: "a.txt")
        try session.waitFor("a.txt says hello")
        try session.sendLiteral(":Share")
        try session.send("Enter")
        try session.waitUntil("the picker") { $0.contains("Copy") && $0.contains("a.txt") && !$0.contains("says hello") }
        let path = world.folder.appendingPathComponent("a.txt").path
        #expect(world.lastArguments() == ["--", path])
        let copied = try world.pickCopy(session)
        #expect(copied == URL(fileURLWithPath: path).absoluteString + "\r\n", "clipboard: \(copied)")
        try session.waitUntil("the editor back") { $0.contains("a.txt says hello") && !$0.contains("Copy") }
        #expect(!session.hasExited, "the editor is still running")
    }

    /// `:'<,'>Share` shares the selected lines as text, with the file name
    /// and the line numbers as the subject.
    @Test(arguments: ["vim", "nvim"])
    func editorSharesTheSelectedLines(name: String) throws {
        let world = try World()
        try Data("one\ntwo\nthree\nfour\n".utf8).write(to: world.folder.appendingPathComponent("lines.txt"))
        let session = try Self.editor(name, world, file: "lines.txt")
        try session.waitFor("four")
        try session.sendLiteral("2GVj:")
        try session.waitFor(":'<,'>")
        try session.sendLiteral("Share")
        try session.send("Enter")
        try session.waitUntil("the picker") { $0.contains("Copy") && $0.contains("2 lines") || $0.contains("Copy") && $0.contains("two") }
        #expect(world.lastArguments() == ["--subject", "lines.txt:2-3", "-"])
        let copied = try world.pickCopy(session)
        #expect(copied == "two\nthree" || copied == "two\nthree\n", "clipboard: \(copied)")
        try session.waitUntil("the editor back") { $0.contains("four") && !$0.contains("Copy") }
        #expect(!session.hasExited, "the editor is still running")
    }

    // MARK: - File managers

    /// Each file manager's keys: selecting a.txt and b.txt from the start
    /// (vifm's cursor starts on ../, the others' on the first file), moving
    /// to b.txt, and its share key.
    static let keys: [String: (select: [String], down: [String], share: [String])] = [
        "ranger": (["Space", "Space"], ["j"], ["y", "s"]),
        "nnn": (["Space", "Space"], ["j"], [";", "s"]),
        "lf": (["Space", "Space"], ["j"], ["S"]),
        "vifm": (["j", "t", "j", "t"], ["j", "j"], ["S"]),
    ]

    /// Presses `steps`, each once the one before has shown on the screen (a
    /// mark, a colour, a pending key): keys that arrive together are taken
    /// as one sequence by some programs, and lost at start-up by others.
    /// The last is pressed without waiting (it starts share).
    static func press(_ steps: [String], _ session: TmuxSession) throws {
        for (index, step) in steps.enumerated() {
            let before = try session.capture(colors: true).text
            // tmux takes a bare ; as its own command separator: nnn's plugin key goes as its byte.
            if step == ";" { try session.command("send-keys", "-H", "3b") } else { try session.send(step) }
            if index < steps.count - 1 {
                try session.waitUntil("the screen to take \(step)", colors: true) { $0.text != before }
            }
        }
    }

    /// Selects a.txt and b.txt, presses the share key, picks Copy in the
    /// picker that shows "2 items", and checks both files reached the
    /// clipboard and the file manager is back.
    @Test(arguments: ["ranger", "nnn", "lf", "vifm"])
    func fileManagerSharesTheSelectedFiles(name: String) throws {
        let (world, session) = try Self.fileManager(name)
        let keys = try #require(Self.keys[name])
        try session.waitFor("c.txt")
        try Self.press(keys.select + keys.share, session)
        try session.waitFor("2 items")
        #expect(world.lastArguments().filter { !$0.hasPrefix("-") }.map { ($0 as NSString).lastPathComponent } == ["a.txt", "b.txt"],
                "share was started with \(world.lastArguments())")
        world.expectTwoFiles(try world.pickCopy(session))
        try session.waitUntil("the file manager back") { $0.contains("c.txt") && !$0.contains("2 items") }
        #expect(!session.hasExited, "the file manager is still running; stderr: \(session.stderr)")
    }

    /// With nothing selected, the key shares the file under the cursor;
    /// Esc in the picker goes back to the file manager.
    @Test(arguments: ["ranger", "nnn", "lf", "vifm"])
    func fileManagerSharesTheFileUnderTheCursor(name: String) throws {
        let (world, session) = try Self.fileManager(name)
        let keys = try #require(Self.keys[name])
        try session.waitFor("c.txt")
        try Self.press(keys.down + keys.share, session)
        try session.waitUntil("the picker on b.txt") { $0.contains("Copy") && $0.contains("▤ b.txt") }
        #expect(world.lastArguments().last.map { ($0 as NSString).lastPathComponent } == "b.txt", "\(world.lastArguments())")
        try session.send("Escape")
        try session.waitUntil("the file manager back") { $0.contains("c.txt") && !$0.contains("Copy") }
        #expect(!session.hasExited, "the file manager is still running; stderr: \(session.stderr)")
    }

    /// The file manager `name` in the world's folder, with its integration in its configuration.
    static func fileManager(_ name: String) throws -> (World, TmuxSession) {
        var world = try World()
        var command = name
        switch name {
        case "ranger": try world.config("ranger/rc.conf", world.integration("ranger"))
        case "lf": try world.config("lf/lfrc", world.integration("lf"))
        case "vifm":
            try world.config("vifm/vifmrc", world.integration("vifm"))
            command = "vifm . ."
        default:
            try world.config("nnn/plugins/share", world.integration("nnn"), executable: true)
            world.environment["NNN_PLUG"] = "s:share"
        }
        let session = try TmuxSession("exec >/dev/tty; " + command, workingDirectory: world.folder, environment: world.environment)
        return (world, session)
    }

    // MARK: - mailto:

    /// share --integration mailto writes share-mail.desktop (the text of
    /// contrib/) where no desktop entry of that name is, and xdg-mime then
    /// names it as the mailto: handler.
    @Test func mailtoMakesShareTheHandler() throws {
        let world = try World()
        try Self.becomeMailHandler(world)
        let entry = world.fixtures.root.appendingPathComponent("data/applications/share-mail.desktop")
        #expect(try Data(contentsOf: entry) == (try Self.contrib("applications/share-mail.desktop")))
        let query = try Share.run(URL(fileURLWithPath: "/usr/bin/xdg-mime"), ["query", "default", "x-scheme-handler/mailto"],
                                  environment: world.environment, directory: world.folder)
        #expect(query.out == "share-mail.desktop\n", "xdg-mime query: \(query.out) \(query.err)")
        // A second time finds the entry and leaves it as it is.
        try Self.becomeMailHandler(world)
    }

    @Test func mailtoWithoutXdgMimeSaysSo() throws {
        var world = try World()
        world.environment["PATH"] = world.bin.path
        let run = try Share.run(try Share.binary(), ["--integration", "mailto"], environment: world.environment, directory: world.folder)
        run.expectExit(3, saying: "xdg-mime", "apt-get install xdg-utils")
        #expect(!FileManager.default.fileExists(atPath: world.fixtures.root.appendingPathComponent("data/applications").path))
    }

    static func becomeMailHandler(_ world: World) throws {
        let run = try Share.run(try Share.binary(), ["--integration", "mailto"], environment: world.environment, directory: world.folder)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("share-mail.desktop"), "\(run.out)")
    }

    /// xdg-email and xdg-open, outside a terminal (setsid: no controlling
    /// terminal), start share-mail.desktop's command in the terminal
    /// emulator, here a stand-in that runs it in a tmux window; share's
    /// compose screen opens with the link's fields.
    @Test(arguments: [
        ["xdg-email", "--cc", "c@example.com", "--subject", "S", "a@example.com"],
        ["xdg-open", "mailto:a@example.com?cc=c%40example.com&subject=S"],
    ])
    func mailLinksOpenTheComposeScreen(command: [String]) throws {
        var world = try World()
        try Self.becomeMailHandler(world)
        let session = try TmuxSession("exec >/dev/tty; echo the desktop; exec cat", workingDirectory: world.folder,
                                      environment: world.environment)
        try session.waitFor("the desktop")
        try session.writeTerminalStandIn(to: world.bin.appendingPathComponent("x-terminal-emulator"))
        world.environment["TERMINAL"] = nil
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/setsid"), ["-w"] + command, environment: world.environment,
                                directory: world.folder)
        #expect(run.status == 0, "\(command[0]): \(run.out) \(run.err)")
        let screen = try session.waitFor("Subject:")
        let fields = Dictionary(screen.lines.compactMap { line -> (String, String)? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
        #expect(fields["To"] == "a@example.com" && fields["Cc"] == "c@example.com" && fields["Subject"] == "S", "screen:\n\(screen.text)")
        let arguments = world.lastArguments()
        #expect(arguments.count == 3 && arguments.prefix(2) == ["--activity", "mail"] && arguments[2].hasPrefix("mailto:a@example.com?"),
                "share was started with \(arguments)")
    }

    // MARK: - Installed, found where each program looks

    /// After make install PREFIX=…, Neovim with PREFIX/share on its data
    /// path (as /usr/local/share and /usr/share are by default) has :Share
    /// without being told of the plugin; and --integration mailto finds the
    /// installed share-mail.desktop instead of writing one of its own.
    @Test func installedIntegrationsAreFoundWhereEachLooks() throws {
        var world = try World()
        let prefix = world.fixtures.root.appendingPathComponent("usr-local").path
        _ = try InstallTests.make(["install", "PREFIX=\(prefix)"])
        defer { _ = try? InstallTests.make(["uninstall", "PREFIX=\(prefix)"]) }
        world.environment["XDG_DATA_DIRS"] = prefix + "/share"

        let handler = try Share.run(try Share.binary(), ["--integration", "mailto"], environment: world.environment, directory: world.folder)
        #expect(handler.status == 0 && handler.out.contains(prefix + "/share/applications/share-mail.desktop"), "\(handler.out) \(handler.err)")
        #expect(!FileManager.default.fileExists(atPath: world.fixtures.root.appendingPathComponent("data/applications").path))

        // -u NORC: no user configuration, but plugins load.
        let session = try TmuxSession("exec >/dev/tty; nvim -u NORC -i NONE a.txt", workingDirectory: world.folder,
                                      environment: world.environment)
        try session.waitFor("a.txt says hello")
        try session.sendLiteral(":Share")
        try session.send("Enter")
        try session.waitUntil("the picker") { $0.contains("Copy") && $0.contains("▤ a.txt") }
        #expect(world.lastArguments() == ["--", world.folder.appendingPathComponent("a.txt").path])
    }

    // MARK: - A world: share on PATH behind a wrapper that logs its arguments, and a clipboard

    /// A folder of files to share, a `bin` with `share` (a wrapper that
    /// writes its arguments, one a line, then runs the binary under test)
    /// and `xclip` (which keeps what Copy gives it), and the environment
    /// that puts them first on PATH with an X display, so Copy takes xclip.
    struct World {
        let fixtures: Fixtures
        let folder: URL
        let bin: URL
        var arguments: URL { fixtures.root.appendingPathComponent("arguments") }
        var clipboard: URL { fixtures.root.appendingPathComponent("clipboard") }
        var environment: [String: String]

        init() throws {
            fixtures = try Fixtures()
            folder = fixtures.root.appendingPathComponent("work", isDirectory: true)
            bin = fixtures.root.appendingPathComponent("bin", isDirectory: true)
            let manager = FileManager.default
            for directory in [folder, bin] {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            }
            for name in ["a.txt", "b.txt", "c.txt"] {
                try Data("\(name) says hello\n".utf8).write(to: folder.appendingPathComponent(name))
            }
            let q = TmuxSession.quote
            let arguments = fixtures.root.appendingPathComponent("arguments"), clipboard = fixtures.root.appendingPathComponent("clipboard")
            let share = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(q(arguments.path))\nexec \(q(try Share.binary().path)) \"$@\"\n"
            let xclip = "#!/bin/sh\ncat > \(q(clipboard.path)).partial && mv \(q(clipboard.path)).partial \(q(clipboard.path))\n"
            for (name, script) in [("share", share), ("xclip", xclip)] {
                let url = bin.appendingPathComponent(name)
                try Data(script.utf8).write(to: url)
                try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            }
            environment = fixtures.environment
            environment["PATH"] = bin.path + ":/usr/local/bin:/usr/bin:/bin"
            environment["DISPLAY"] = ":99"
            environment["SHELL"] = "/bin/sh"
        }

        /// Writes `text` at `relativePath` under `$XDG_CONFIG_HOME`.
        func config(_ relativePath: String, _ text: Data, executable: Bool = false) throws {
            let url = fixtures.configHome.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url)
            if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }

        /// `share --integration NAME`'s output.
        func integration(_ name: String) throws -> Data {
            let run = try Share.run(try Share.binary(), ["--integration", name], environment: environment, directory: folder)
            #expect(run.status == 0, "\(run.err)")
            return run.stdout
        }

        /// The arguments share was last started with.
        func lastArguments() -> [String] {
            ((try? String(contentsOf: arguments, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Picks Copy in the picker on `session` (the filter, then Enter) and
        /// returns what reached the clipboard.
        func pickCopy(_ session: TmuxSession) throws -> String {
            try session.send("/")
            try session.sendLiteral("Copy")
            // The last line of the picker (Neovim's terminal window has a status line below).
            try session.waitUntil("the filter line \"/Copy\"") { $0.lines.contains { $0.hasPrefix("/Copy") } }
            try session.send("Enter")
            return try eventually("the clipboard", timeout: TmuxSession.defaultTimeout,
                                  report: { "screen:\n\((try? session.capture().text) ?? "")" }) {
                try? String(contentsOf: clipboard, encoding: .utf8)
            }
        }

        /// The clipboard holds `a.txt` and `b.txt` of the folder, as Copy puts files.
        func expectTwoFiles(_ copied: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let expected = ["a.txt", "b.txt"].map { folder.appendingPathComponent($0).standardizedFileURL.absoluteString }
            #expect(copied.split(separator: "\r\n").map(String.init) == expected, "clipboard: \(copied)", sourceLocation: sourceLocation)
        }
    }
}
