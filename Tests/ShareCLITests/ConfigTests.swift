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

    @Test func malformedLineExitsTwoNamingFileAndLine() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\npinned = mail\nthis line has no equals sign\n")
        let run = try fixtures.share("--config", config.path, "--explain", "--json", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("\(config.path):3:"), "stderr: \(run.err)")
    }

    @Test func unknownKeyExitsTwoNamingKeyAndLine() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\n\nfrobnicate = 1\n")
        let run = try fixtures.share("--config", config.path, "--explain", "--json", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("\(config.path):3:"), "stderr: \(run.err)")
        #expect(run.err.contains("frobnicate"), "stderr: \(run.err)")
    }

    @Test func unknownSectionExitsTwo() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[pickr]\npinned = mail\n")
        let run = try fixtures.share("--config", config.path, "--explain", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.err.contains("\(config.path):1:"), "stderr: \(run.err)")
        #expect(run.err.contains("pickr"), "stderr: \(run.err)")
    }

    @Test func unknownActivityTypeInConfigExitsTwo() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[picker]\npinned = mail\nexclude = facebook\n")
        let run = try fixtures.share("--config", config.path, "--explain", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.err.contains("\(config.path):3:"), "stderr: \(run.err)")
        #expect(run.err.contains("facebook"), "stderr: \(run.err)")
        #expect(run.err.contains("postToFacebook"), "lists the valid types: \(run.err)")
    }

    @Test func missingConfigFileExitsTwoNamingIt() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", "/nonexistent", "--explain", "--json", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("/nonexistent"), "stderr: \(run.err)")
    }

    @Test func configThatIsADirectoryExitsTwo() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", fixtures.directory.path, "--explain", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.err.contains(fixtures.directory.path), "stderr: \(run.err)")
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
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.err.contains("\(config.path):2:"), "stderr: \(run.err)")
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
        #expect(run.status == 2)
        #expect(run.err.contains("unknown.conf:3: unknown key action 'launch'"), "stderr: \(run.err)")
        #expect(run.err.contains("send") && run.err.contains("pick"))
        let typed = try fixtures.writeConfig("[keys]\nsend = x\n", at: "typed.conf")
        let typedRun = try fixtures.share("--config", typed.path, "--list", "--text", "x")
        #expect(typedRun.status == 2)
        #expect(typedRun.err.contains("typed.conf:2: send needs a key that is not typed text"), "stderr: \(typedRun.err)")
        let nonsense = try fixtures.writeConfig("[keys]\nhelp = Hyper-h\n", at: "nonsense.conf")
        #expect(try fixtures.share("--config", nonsense.path, "--list", "--text", "x").err.contains("'Hyper-h' is not a key"))
    }
}
