import Foundation
import Testing

/// The INI config of SPEC §8 as the command line reads it: `--config PATH`
/// or `$XDG_CONFIG_HOME/share/config`; every mistake is exit 2 naming file and line.
@Suite struct ConfigTests {
    @Test func pinnedTypesComeFirstInPinOrder() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("""
            # pins come before all
            ; a comment of the other kind
            [picker]
            pinned = print, mail
            """)
        let run = try fixtures.share("--config", config.path, "--explain", "--json", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.types == ["print", "mail"] + SystemActivity.order.filter { !["print", "mail"].contains($0) })
        // Pinning changes the order, not the verdicts.
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["s"]))
    }

    @Test func configExcludeExcludes() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\nexclude = postToFacebook\n")
        let rows = try ActivityRow.parse(try fixtures.share("--config", config.path, "--explain", "--json", "--text", "hi"))
        var expected = SystemActivity.expectedReasons(itemKinds: ["s"])
        expected["postToFacebook"] = "excluded"
        #expect(rows.reasons == expected)
    }

    @Test func configExcludeAddsToCommandLineExclude() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\nexclude = postToFacebook\n")
        let rows = try ActivityRow.parse(try fixtures.share(
            "--config", config.path, "--exclude", "mail", "--explain", "--json", "--text", "hi"))
        #expect(rows.reason("postToFacebook") == "excluded")
        #expect(rows.reason("mail") == "excluded")
        #expect(rows.reason("message") == "unavailable")
    }

    /// A config share refuses before it does anything: its text, the line
    /// the error names, and what else stderr must say.
    struct BadConfig: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var line: Int
        var words: [String] = []
        var testDescription: String { name }
    }

    static let badConfigs = [
        BadConfig(name: "a line without an equals sign", text: "[picker]\npinned = mail\nthis line has no equals sign\n", line: 3),
        BadConfig(name: "an unknown key", text: "[picker]\n\nfrobnicate = 1\n", line: 3, words: ["frobnicate"]),
        BadConfig(name: "an unknown section", text: "[pickr]\npinned = mail\n", line: 1, words: ["pickr"]),
        // The valid types are listed.
        BadConfig(name: "an unknown activity type", text: "[picker]\npinned = mail\nexclude = facebook\n", line: 3,
                  words: ["facebook", "postToFacebook"]),
    ]

    /// Exit 2 naming file and line, with nothing on stdout, with `--json` too.
    @Test(arguments: badConfigs) func aBadConfigExitsTwoNamingFileAndLine(_ bad: BadConfig) throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig(bad.text)
        for json in [["--json"], []] {
            let run = try fixtures.share(["--config", config.path, "--explain"] + json + ["--text", "hi"])
            #expect(run.stdout.isEmpty, "\(json): stdout: \(run.out)")
            run.expectExit(2, saying: ["\(config.path):\(bad.line):"] + bad.words)
        }
    }

    /// A config that is not there, or a directory: exit 2 naming it, with nothing on stdout, with `--json` too.
    @Test func aConfigThatCannotBeReadExitsTwoNamingIt() throws {
        let fixtures = try Fixtures()
        for path in ["/nonexistent", fixtures.directory.path] {
            for json in [["--json"], []] {
                let run = try fixtures.share(["--config", path, "--explain"] + json + ["--text", "hi"])
                #expect(run.stdout.isEmpty, "\(json): stdout: \(run.out)")
                run.expectExit(2, saying: path)
            }
        }
    }

    @Test func defaultConfigUnderXDGConfigHomeIsRead() throws {
        let fixtures = try Fixtures()
        try fixtures.writeConfig("[picker]\npinned = copyToPasteboard\nexclude = mail\n", at: "config/share/config")
        let rows = try ActivityRow.parse(try fixtures.share("--explain", "--json", "--text", "hi"))
        #expect(rows.types.first == "copyToPasteboard")
        #expect(rows.reason("mail") == "excluded")
    }

    @Test func defaultConfigFallsBackToHomeDotConfig() throws {
        let fixtures = try Fixtures()
        try fixtures.writeConfig("[picker]\nexclude = mail\n", at: "home/.config/share/config")
        let run = try fixtures.share(["--explain", "--json", "--text", "hi"], changes: ["XDG_CONFIG_HOME": nil])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try ActivityRow.parse(run).reason("mail") == "excluded")
    }

    @Test func noConfigFileMeansDefaults() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try ActivityRow.parse(run).types == SystemActivity.order)
    }

    @Test func explicitConfigReplacesTheDefault() throws {
        let fixtures = try Fixtures()
        try fixtures.writeConfig("[picker]\nexclude = mail\n", at: "config/share/config")
        let explicit = try fixtures.writeConfig("[picker]\nexclude = print\n")
        let rows = try ActivityRow.parse(try fixtures.share("--config", explicit.path, "--explain", "--json", fixtures.pdf.path))
        #expect(rows.reason("print") == "excluded")
        #expect(rows.reason("mail") == nil)
    }

    @Test func malformedDefaultConfigExitsTwoNamingIt() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\nnonsense\n", at: "config/share/config")
        let run = try fixtures.share("--explain", "--text", "hi")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        run.expectExit(2, saying: "\(config.path):2:")
    }

    @Test func helpAndVersionDoNotNeedAGoodConfig() throws {
        let fixtures = try Fixtures()
        try fixtures.writeConfig("broken\n", at: "config/share/config")
        let help = try fixtures.share("--help")
        #expect(help.status == 0, "stderr: \(help.err)")
        #expect(help.out.contains("Usage: share"))
        let version = try fixtures.share("--version")
        #expect(version.status == 0, "stderr: \(version.err)")
        #expect(version.out.hasPrefix("share "))
    }
}

/// `[keys]`: actions and key names are checked when the config is read.
@Suite struct KeysConfigTests {
    @Test func validKeysAreAcceptedAndBadOnesNamedWithTheirLine() throws {
        let fixtures = try Fixtures()
        let good = try fixtures.writeConfig("[keys]\nsend = C-s\npick = Enter, Space\n")
        #expect(try fixtures.share("--config", good.path, "--list", "--text", "x").status == 0)
        let unknown = try fixtures.writeConfig("[keys]\nsend = C-s\nlaunch = C-l\n", at: "unknown.conf")
        let run = try fixtures.share("--config", unknown.path, "--list", "--text", "x")
        run.expectExit(2, saying: "unknown.conf:3: unknown key action 'launch'", "send", "pick")
        let typed = try fixtures.writeConfig("[keys]\nsend = x\n", at: "typed.conf")
        let typedRun = try fixtures.share("--config", typed.path, "--list", "--text", "x")
        typedRun.expectExit(2, saying: "typed.conf:2: send needs a key that is not typed text")
        let nonsense = try fixtures.writeConfig("[keys]\nhelp = Hyper-h\n", at: "nonsense.conf")
        #expect(try fixtures.share("--config", nonsense.path, "--list", "--text", "x").err.contains("'Hyper-h' is not a key"))
    }
}
