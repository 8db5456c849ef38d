import Foundation
import Testing

/// `make install` and `make uninstall`, with PREFIX alone and staged under
/// DESTDIR, using the binary under test (`make -o build`: not rebuilt).
@Suite struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func make(_ arguments: [String]) throws -> ShareRun {
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/make"), ["--no-print-directory", "-o", "build"] + arguments
                                + ["BIN=\(try Share.binary().path)"],
                                environment: ["PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"], directory: root)
        #expect(run.status == 0, "make \(arguments): \(run.err)")
        return run
    }

    /// The files `make install` puts under `prefix` (inside `stage`).
    static func installed(under stage: URL, prefix: String) -> [String: URL] {
        let base = stage.appendingPathComponent(String(prefix.dropFirst()))
        return ["bin/share": base.appendingPathComponent("bin/share"),
                "man": base.appendingPathComponent("share/man/man1/share.1"),
                "bash": base.appendingPathComponent("share/bash-completion/completions/share"),
                "zsh": base.appendingPathComponent("share/zsh/site-functions/_share"),
                "fish": base.appendingPathComponent("share/fish/vendor_completions.d/share.fish"),
                "Korean": base.appendingPathComponent("share/locale/ko/LC_MESSAGES/share.mo"),
                "service": base.appendingPathComponent("lib/systemd/user/share-flush.service"),
                "timer": base.appendingPathComponent("lib/systemd/user/share-flush.timer"),
                "ranger": base.appendingPathComponent("share/share/integrations/ranger/rc.conf"),
                "nnn": base.appendingPathComponent("share/share/integrations/nnn/share"),
                "lf": base.appendingPathComponent("share/share/integrations/lf/lfrc"),
                "vifm": base.appendingPathComponent("share/share/integrations/vifm/vifmrc"),
                "vim": base.appendingPathComponent("share/share/integrations/vim/share.vim"),
                "tmux": base.appendingPathComponent("share/share/integrations/tmux/share.tmux.conf"),
                "vim plugin": base.appendingPathComponent("share/vim/vimfiles/plugin/share.vim"),
                "nvim plugin": base.appendingPathComponent("share/nvim/site/plugin/share.vim"),
                "mailto": base.appendingPathComponent("share/applications/share-mail.desktop")]
    }

    func check(stage: URL, prefix: String, arguments: [String]) throws {
        let fixtures = try Fixtures()
        _ = try Self.make(["install"] + arguments)
        let files = Self.installed(under: stage, prefix: prefix)
        for (name, url) in files {
            #expect(FileManager.default.fileExists(atPath: url.path), "\(name) is not at \(url.path)")
        }
        let binary = try #require(files["bin/share"])
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
        let version = try Share.run(binary, ["--version"], environment: fixtures.environment, directory: fixtures.files)
        #expect(version.status == 0 && version.out.hasPrefix("share "), "\(version.err)")
        // The installed binary finds the installed catalog (PREFIX/share/locale).
        var korean = fixtures.environment
        for (name, value) in try KoreanTests.korean() { korean[name] = value }
        let history = try Share.run(binary, ["--history"], environment: korean, directory: fixtures.files)
        #expect(history.err.hasPrefix("share: 공유 기록이 비어 있습니다 ("), "stderr: \(history.err)")
        #expect(try Data(contentsOf: try #require(files["man"])) == Data(contentsOf: Self.root.appendingPathComponent("share.1")))
        for shell in ["bash", "zsh", "fish"] {
            let script = try fixtures.share("--completions", shell).stdout
            #expect(try Data(contentsOf: try #require(files[shell])) == script, "\(shell) completions")
        }
        try checkUnits(files, prefix: prefix, stage: stage)
        // The integrations are what share --integration prints; the nnn plugin is executable.
        for (name, key) in [("ranger", "ranger"), ("nnn", "nnn"), ("lf", "lf"), ("vifm", "vifm"), ("vim", "vim"), ("tmux", "tmux"),
                            ("vim", "vim plugin"), ("nvim", "nvim plugin")] {
            #expect(try Data(contentsOf: try #require(files[key])) == (try fixtures.share("--integration", name).stdout), "\(key)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: try #require(files["nnn"]).path))
        let entry = try String(contentsOf: try #require(files["mailto"]), encoding: .utf8)
        #expect(entry.contains("\nMimeType=x-scheme-handler/mailto;\n") && entry.contains("\nTerminal=true\n"), "\(entry)")
        _ = try Self.make(["uninstall"] + arguments)
        for (name, url) in files {
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(name) is still at \(url.path)")
        }
        let integrations = stage.appendingPathComponent(String(prefix.dropFirst())).appendingPathComponent("share/share/integrations")
        #expect(!FileManager.default.fileExists(atPath: integrations.path), "\(integrations.path) is left")
    }

    /// The systemd user units: the service runs the share installed
    /// (PREFIX/bin, never the stage), the timer every five minutes, and
    /// systemd itself reads both without a complaint where it is installed.
    func checkUnits(_ files: [String: URL], prefix: String, stage: URL) throws {
        let service = try String(contentsOf: try #require(files["service"]), encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/share --flush\n"), "\(service)")
        let timer = try String(contentsOf: try #require(files["timer"]), encoding: .utf8)
        #expect(timer.contains("\nOnCalendar=*:0/5\n") && timer.contains("\nWantedBy=timers.target\n"), "\(timer)")
        let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        guard FileManager.default.isExecutableFile(atPath: analyze.path), stage.path == "/" else { return }
        // Documentation=man:share(1) is looked up too: in the man pages just installed.
        let verify = try Share.run(analyze, ["verify", try #require(files["service"]).path, try #require(files["timer"]).path],
                                   environment: ["PATH": "/usr/bin:/bin", "MANPATH": prefix + "/share/man", "LANG": "C.UTF-8"],
                                   directory: URL(fileURLWithPath: "/tmp"))
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.out) \(verify.err)")
    }

    @Test func installAndUninstallUnderAPrefix() throws {
        let fixtures = try Fixtures()
        let prefix = fixtures.root.appendingPathComponent("usr-local").path
        try check(stage: URL(fileURLWithPath: "/"), prefix: prefix, arguments: ["PREFIX=\(prefix)"])
    }

    @Test func installAndUninstallStagedUnderDESTDIR() throws {
        let fixtures = try Fixtures()
        let stage = fixtures.root.appendingPathComponent("stage")
        try check(stage: stage, prefix: "/usr", arguments: ["DESTDIR=\(stage.path)", "PREFIX=/usr"])
        // Nothing outside the stage: /usr/bin/share is not ours.
        #expect(!FileManager.default.fileExists(atPath: "/usr/share/zsh/site-functions/_share"))
    }
}
