import Foundation
import ShareCLI
import Testing

/// Options of SPEC §4: help, version, and every usage error (exit 2, a
/// message naming the bad word and the valid ones, nothing on stdout).
@Suite struct OptionTests {
    @Test func helpMentionsEveryAcceptedOption() throws {
        let fixtures = try Fixtures()
        for flag in ["--help", "-h"] {
            let run = try fixtures.share(flag)
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty, "stderr: \(run.err)")
            #expect(run.out.contains("Usage: share"), "\(run.out)")
            for option in Options.valueOptions + Options.flagOptions {
                #expect(run.out.contains(option), "\(flag) does not mention \(option)")
            }
        }
        // The options of SPEC §4 that this build's parser accepts.
        let specOptions = ["--text", "--url", "--file", "--subject", "--title", "--exclude", "--only", "--activity",
                           "--list", "--explain", "--json", "--config", "--no-color", "--version", "--help"]
        #expect(Set(specOptions).isSubset(of: Options.valueOptions + Options.flagOptions))
    }

    @Test func helpWinsOverItems() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("no-such-file", "--help")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("Usage: share"))
    }

    @Test func versionPrintsShareAndAVersion() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--version")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "stderr: \(run.err)")
        #expect(run.out.hasPrefix("share "), "\(run.out)")
        #expect(run.out.hasSuffix("\n"))
        let version = run.out.dropFirst("share ".count).dropLast()
        #expect(!version.isEmpty)
        #expect(version.allSatisfy { $0.isNumber || $0 == "." || $0.isLetter || $0 == "-" }, "\(version)")
        #expect(version.first?.isNumber == true, "\(version)")
    }

    @Test(arguments: ["--bogus", "--bogus=1", "-x"])
    func unknownOptionExitsTwoListingValidOptions(flag: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--text", "hi", flag)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        let name = flag.split(separator: "=").first.map(String.init) ?? flag
        #expect(run.err.contains(name), "stderr: \(run.err)")
        #expect(run.err.contains("--explain"), "stderr lists the valid options: \(run.err)")
        #expect(run.err.contains("--activity"), "stderr lists the valid options: \(run.err)")
    }

    @Test(arguments: [("--explian", "--explain"), ("--atach", "--attach"), ("--printr", "--printer"), ("--reading-lst", "--reading-list")])
    func aMistypedOptionGetsASuggestion(typed: String, meant: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--text", "hi", typed)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("unknown option '\(typed)'; did you mean \(meant)?"), "stderr: \(run.err)")
    }

    @Test(arguments: [(["--list", "--printer", "Office"], "--printer is an option of print (--activity print); it does nothing with --list"),
                      (["--activity", "mail", "--contact", "Kim"], "--contact is an option of assignToContact (--activity assignToContact), not of mail"),
                      (["--explain", "--to", "kim@example.com"], "--to is an option of mail (--activity mail); it does nothing with --explain")])
    func anOptionOfAnotherActivitySaysWhoseItIs(arguments: [String], words: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share(arguments + ["--text", "hi"])
        #expect(run.status == 2)
        #expect(run.err.contains(words), "stderr: \(run.err)")
    }

    @Test func helpIsWrappedWithin80ColumnsWhenPiped() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--help")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        // Each option's help is under its group's heading.
        let print = try #require(lines.firstIndex { $0.hasPrefix("Print (") })
        let printer = try #require(lines.firstIndex { $0.hasPrefix("  --printer NAME") })
        let contact = try #require(lines.firstIndex { $0.hasPrefix("Assign to Contact") })
        #expect(print < printer && printer < contact)
    }

    @Test(arguments: ["--exclude", "--only", "--activity"])
    func unknownActivityTypeExitsTwoListingValidTypes(option: String) throws {
        let fixtures = try Fixtures()
        for word in ["facebook", "Mail", "copy"] {
            let run = try fixtures.share(option, word, "--text", "hi")
            #expect(run.status == 2, "\(option) \(word)")
            #expect(run.stdout.isEmpty, "stdout: \(run.out)")
            #expect(run.err.contains("'\(word)'") || run.err.contains(" \(word)"), "stderr names \(word): \(run.err)")
            #expect(run.err.contains(option), "stderr names \(option): \(run.err)")
            #expect(run.err.contains("copyToPasteboard"), "stderr lists the valid types: \(run.err)")
        }
    }

    @Test(arguments: ["--exclude", "--only"])
    func emptyTypeListExitsTwo(option: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share(option, ",", "--explain", "--text", "hi")
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty)
    }

    @Test func activityThatIsNotInstalledExitsTwo() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--activity", "com.example.none", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("com.example.none"), "stderr: \(run.err)")
    }

    @Test func unavailableActivityExitsFour() throws {
        let fixtures = try Fixtures()
        for extra in [[], ["--json"]] {
            let run = try fixtures.share(["--activity", "message", "--text", "hi"] + extra)
            #expect(run.status == 4, "stderr: \(run.err)")
            #expect(run.err.contains("message"), "stderr: \(run.err)")
            #expect(run.err.contains("unavailable"), "stderr: \(run.err)")
            #expect(!run.out.contains("\"completed\":true") && !run.out.contains("\"completed\": true"),
                    "never report success that did not happen: \(run.out)")
        }
    }

    @Test func unsupportedActivityExitsFour() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--activity", "addToReadingList", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.err.contains("unsupported-items"), "stderr: \(run.err)")
    }

    @Test func excludedActivityExitsFour() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--activity", "copyToPasteboard", "--exclude", "copyToPasteboard", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.err.contains("excluded"), "stderr: \(run.err)")
    }

    @Test(arguments: [["--list", "--explain"], ["--explain", "--list"], ["--list", "--activity", "mail"],
                      ["--activity", "mail", "--explain"], ["--activity", "mail", "--activity", "print"]])
    func conflictingModesExitTwo(modes: [String]) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share(modes + ["--text", "hi"])
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(!run.stderr.isEmpty)
    }

    @Test(arguments: Options.valueOptions)
    func optionMissingItsValueExitsTwo(option: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--text", "hi", option)
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains(option), "stderr: \(run.err)")
    }

    @Test(arguments: ["--list=yes", "--json=1", "--explain=true"])
    func flagGivenAValueExitsTwo(flag: String) throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share(flag, "--text", "hi")
        #expect(run.status == 2, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty)
    }

    @Test func nothingToShareExitsTwo() throws {
        let fixtures = try Fixtures()
        for arguments in [[], ["--list"], ["--json"], ["--activity", "mail"], ["--subject", "s"]] {
            let run = try fixtures.share(arguments)
            #expect(run.status == 2, "\(arguments): stderr: \(run.err)")
            #expect(run.stdout.isEmpty)
            #expect(run.err.contains("nothing to share"), "\(arguments): stderr: \(run.err)")
        }
    }

    @Test func inlineValuesAreAccepted() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "--text=hi", "--exclude=mail")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try ActivityRow.parse(run).reason("mail") == "excluded")
    }
}

/// On a terminal, --help is wrapped to its width.
@Suite struct HelpWidthTests {
    @Test func helpFitsANarrowTerminal() throws {
        let fixtures = try Fixtures()
        let session = try TmuxSession("\(TmuxSession.quote(try Share.binary().path)) --help >/dev/tty; sleep 30", width: 64, height: 200,
                                      workingDirectory: fixtures.files, environment: fixtures.environment)
        let screen = try session.waitFor("Exit codes:")
        let lines = screen.lines.filter { !$0.isEmpty }
        #expect(lines.allSatisfy { $0.count <= 64 })
        // Wrapped, not cut: the long help of --json goes on to a second line at the help column.
        let json = try #require(lines.firstIndex { $0.hasPrefix("  --json") })
        #expect(lines[json + 1].hasPrefix(String(repeating: " ", count: 23)) && !lines[json + 1].hasPrefix(String(repeating: " ", count: 24)),
                "\(lines[json]) / \(lines[json + 1])")
    }
}
