import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ShareCLI
import Testing

/// Shell completions (`share --completions bash|zsh|fish`), made from the
/// option table and driven in each shell without a terminal: bash through
/// its completion function and COMP_WORDS, zsh with `compadd` and `_files`
/// captured, fish with `complete -C`. The values come from the user's own
/// data: an address book, a CUPS scheduler, a vCard folder, a plugin.
@Suite struct CompletionTests {
    /// A world with two contacts, a plugin, a CUPS scheduler with two
    /// queues, and `share` first on PATH.
    final class World {
        let fixtures: Fixtures
        let cups: CUPSServer
        let environment: [String: String]
        let scripts: URL

        init() throws {
            fixtures = try Fixtures(base: URL(fileURLWithPath: "/tmp"))
            let cards = fixtures.home.appendingPathComponent(".contacts/default", isDirectory: true)
            try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true)
            try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kim-1\r\nFN:Kim Minji\r\nEMAIL:kim@example.com\r\nEND:VCARD\r\n".utf8)
                .write(to: cards.appendingPathComponent("kim.vcf"))
            try Data("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:lee-2\r\nFN:이준\r\nEMAIL:junlee@example.org\r\nEND:VCARD\r\n".utf8)
                .write(to: cards.appendingPathComponent("lee.vcf"))
            let config = fixtures.configHome.appendingPathComponent("share", isDirectory: true)
            try FileManager.default.createDirectory(at: config.appendingPathComponent("activities"), withIntermediateDirectories: true)
            try "[contacts]\nvcard-dir = \(cards.path)\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            try "[Activity]\nType=com.example.upload\nName=Upload\nAccepts=file;\nExec=/bin/true\n"
                .write(to: config.appendingPathComponent("activities/upload.activity"), atomically: true, encoding: .utf8)
            cups = try CUPSServer(root: fixtures.root, queues: ["Office", "Studio"])
            var environment = fixtures.environment
            environment["CUPS_SERVER"] = cups.address
            environment["PATH"] = try Share.binary().deletingLastPathComponent().path + ":/usr/bin:/bin"
            self.environment = environment
            scripts = fixtures.root.appendingPathComponent("completions", isDirectory: true)
            try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
            for shell in ["bash", "zsh", "fish"] {
                let run = try fixtures.share("--completions", shell)
                try #require(run.status == 0, "--completions \(shell): \(run.err)")
                try run.stdout.write(to: scripts.appendingPathComponent(shell))
            }
        }

        deinit { cups.stop() }

        /// Runs `script` in `shell` (`-c`), returning its stdout lines.
        func shell(_ shell: String, _ script: String) throws -> [String] {
            let run = try Share.run(URL(fileURLWithPath: "/usr/bin/" + shell), ["-c", script], environment: environment,
                                    directory: fixtures.files)
            #expect(run.status == 0, "\(shell): \(run.err)")
            return run.out.split(separator: "\n").map(String.init)
        }

        /// What bash's completion function offers for the words of a command line (the last one being completed).
        func bash(_ words: [String]) throws -> [String] {
            let quoted = words.map(TmuxSession.quote).joined(separator: " ")
            return try shell("bash", """
                source \(TmuxSession.quote(scripts.appendingPathComponent("bash").path))
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _share
                printf '%s\\n' "${COMPREPLY[@]}"
                """)
        }

        /// What zsh's completion function adds (`compadd`), or FILES when it asks for files.
        func zsh(_ words: [String]) throws -> [String] {
            let quoted = words.map(TmuxSession.quote).joined(separator: " ")
            return try shell("zsh", """
                compadd() { while [[ $# -gt 0 && $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }
                _files() { print FILES; }
                source \(TmuxSession.quote(scripts.appendingPathComponent("zsh").path))
                words=(\(quoted)); CURRENT=\(words.count); _share
                """)
        }

        /// What fish offers for a command line (`complete -C`), without the descriptions.
        func fish(_ line: String) throws -> [String] {
            try shell("fish", "source \(TmuxSession.quote(scripts.appendingPathComponent("fish").path)); complete -C\(TmuxSession.quote(line))")
                .map { String($0.split(separator: "\t").first ?? "") }
        }
    }

    @Test func bashCompletesOptionsTypesAndTheUsersOwnValues() throws {
        let world = try World()
        #expect(try world.bash(["share", "--pri"]) == ["--printer"])
        #expect(Set(try world.bash(["share", "--printer", ""])) == ["Office", "Studio"])
        #expect(try world.bash(["share", "--to", "kim"]) == ["kim@example.com"])
        #expect(Set(try world.bash(["share", "--contact", ""])) == ["Kim Minji", "이준"])
        let types = try world.bash(["share", "--activity", ""])
        #expect(types.contains("mail") && types.contains("com.example.upload"), "\(types)")
        #expect(try world.bash(["share", "--sides", "t"]) == ["two", "two-short-edge"])
        // Items and paths: nothing from the function, so bash completes file names (-o default).
        #expect(try world.bash(["share", "--attach", ""]).isEmpty)
        #expect(try world.bash(["share", "repo"]).isEmpty)
    }

    @Test func zshCompletesOptionsTypesAndTheUsersOwnValues() throws {
        let world = try World()
        let options = try world.zsh(["share", "--"])
        #expect(options.contains("--printer") && options.contains("--contact") && options.contains("--help"), "\(options)")
        #expect(Set(try world.zsh(["share", "--printer", ""])) == ["Office", "Studio"])
        #expect(try world.zsh(["share", "--cc", "jun"]) == ["junlee@example.org"])
        #expect(Set(try world.zsh(["share", "--contact", ""])) == ["Kim Minji", "이준"])
        #expect(try world.zsh(["share", "--activity", ""]).contains("com.example.upload"))
        #expect(try world.zsh(["share", "--attach", ""]) == ["FILES"])
        #expect(try world.zsh(["share", "rep"]) == ["FILES"])
    }

    @Test func fishCompletesOptionsTypesAndTheUsersOwnValues() throws {
        let world = try World()
        #expect(try world.fish("share --pri") == ["--printer"])
        #expect(Set(try world.fish("share --printer ")) == ["Office", "Studio"])
        #expect(try world.fish("share --bcc kim") == ["kim@example.com"])
        #expect(Set(try world.fish("share --contact ")) == ["Kim Minji", "이준"])
        #expect(try world.fish("share --activity ").contains("com.example.upload"))
        #expect(try world.fish("share --completions ") == ["bash", "fish", "zsh"])
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--completions", "tcsh")
        #expect(run.status == 2)
        #expect(run.err.contains("--completions takes bash, zsh, fish, not 'tcsh'"), "stderr: \(run.err)")
    }
}
