import Foundation
import Testing

/// Arguments that cannot become items: exit 2, the path on stderr,
/// nothing on stdout, nothing started (SPEC §1, §3).
@Suite struct ItemErrorTests {
    /// One bad item and what stderr must say about it.
    enum BadItem: String, CaseIterable, CustomTestStringConvertible {
        case bareWord, directory, fifo, socket, danglingSymlink, missingFileOption, fileURLToMissingFile,
             fileURLToDirectory, urlWithoutScheme, urlWithSpace

        /// The arguments naming the bad item, and the texts stderr must contain.
        func arguments(_ fixtures: Fixtures) -> (arguments: [String], mentions: [String]) {
            switch self {
            case .bareWord: (["reprot.pdf"], ["no such file: reprot.pdf (use --text for text)"])
            case .directory: ([fixtures.directory.path], [fixtures.directory.path, "directory"])
            case .fifo: ([fixtures.fifo.path], [fixtures.fifo.path])
            case .socket: ([fixtures.socket.path], [fixtures.socket.path])
            case .danglingSymlink: ([fixtures.danglingLink.path], [fixtures.danglingLink.path])
            case .missingFileOption: (["--file", "missing.pdf"], ["missing.pdf"])
            case .fileURLToMissingFile:
                ([fixtures.files.appendingPathComponent("gone.pdf").absoluteString], ["gone.pdf"])
            case .fileURLToDirectory: ([fixtures.directory.absoluteString], [fixtures.directory.path, "directory"])
            case .urlWithoutScheme: (["--url", "notaurl"], ["notaurl"])
            case .urlWithSpace: (["--url", "https://exa mple.com"], ["https://exa mple.com"])
            }
        }
    }

    @Test(arguments: BadItem.allCases)
    func badItemExitsTwoNamingIt(item: BadItem) throws {
        let fixtures = try Fixtures()
        let (arguments, mentions) = item.arguments(fixtures)
        for mode in [["--explain", "--json"], ["--list"], ["--activity", "copyToPasteboard"], []] {
            let run = try fixtures.share(mode + ["--text", "fine"] + arguments)
            #expect(run.status == 2, "\(mode + arguments): stderr: \(run.err)")
            #expect(run.stdout.isEmpty, "\(mode + arguments): stdout: \(run.out)")
            for text in mentions {
                #expect(run.err.contains(text), "\(mode + arguments): stderr lacks \(text.debugDescription): \(run.err)")
            }
            #expect(run.err.split(separator: "\n").count == 1, "one clear line: \(run.err)")
        }
    }

    @Test func bareWordNeverBecomesText() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "hello world")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.err.contains("no such file: hello world (use --text for text)"), "stderr: \(run.err)")
    }

    /// An existing file the user may not read. Root reads anything, so as
    /// root the binary runs as `nobody` (``Fixtures/shareUnprivileged(_:)``).
    @Test func unreadableFile() throws {
        let runAsNobody = getuid() == 0
        let fixtures = try Fixtures(base: runAsNobody ? URL(fileURLWithPath: "/tmp") : FileManager.default.temporaryDirectory)
        let secret = try fixtures.file("secret.pdf", FixtureBytes.pdf)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: secret.path)

        for arguments in [[secret.path], ["--file", secret.path], [secret.absoluteString]] {
            let run = try fixtures.shareUnprivileged(["--explain", "--json"] + arguments)
            #expect(run.status == 2, "\(arguments): stderr: \(run.err)")
            #expect(run.stdout.isEmpty, "stdout: \(run.out)")
            #expect(run.err.contains("cannot read \(secret.path)"), "stderr: \(run.err)")
        }
    }
}

/// Small things with the same rule: long input is quoted short, long URLs
/// are URLs, bad text is called text, and a failed stdout is an error.
@Suite struct InputEdgeTests {
    /// Runs a /bin/sh command line with share as "$SHARE".
    static func shell(_ fixtures: Fixtures, _ script: String) throws -> ShareRun {
        var environment = fixtures.environment
        environment["SHARE"] = try Share.binary().path
        return try Share.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment, directory: fixtures.files)
    }

    @Test func aLongURLIsAURLAndALongWordIsQuotedShort() throws {
        let fixtures = try Fixtures()
        let url = "https://example.com/" + String(repeating: "0", count: 5000)
        let listed = try fixtures.share("--list", url)
        #expect(listed.status == 0, "stderr: \(listed.err.prefix(300))")
        #expect(listed.out.contains("addToReadingList"))
        let word = String(repeating: "w", count: 5000)
        let refused = try fixtures.share("--list", word)
        #expect(refused.status == 2)
        #expect(refused.err.contains("no such file: " + String(repeating: "w", count: 120) + "…(4880 more characters) (use --text for text)"),
                "stderr: \(refused.err.prefix(400))")
        #expect(refused.err.utf8.count < 400, "the message quotes the word short")
    }

    @Test func textThatIsNotUTF8IsCalledText() throws {
        let fixtures = try Fixtures()
        let run = try Self.shell(fixtures, "\"$SHARE\" --list --text \"$(printf '\\377\\376')\"")
        #expect(run.status == 2)
        #expect(run.err.contains("--text: the text '\\xFF\\xFE' is not UTF-8; give its bytes on standard input instead"), "stderr: \(run.err)")
    }

    @Test func aStandardOutputThatCannotBeWrittenIsAnError() throws {
        let fixtures = try Fixtures()
        let full = try Self.shell(fixtures, "\"$SHARE\" --list --text hi > /dev/full")
        #expect(full.status == 3)
        #expect(full.err.contains("share: cannot write to standard output: no space left on the device"), "stderr: \(full.err)")
        // A reader that left early is not an error.
        let closed = try Self.shell(fixtures, "\"$SHARE\" --list --text hi | true; echo ${PIPESTATUS:-}")
        #expect(closed.status == 0 && closed.err.isEmpty, "stderr: \(closed.err)")
    }
}
