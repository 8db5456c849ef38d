import Foundation
import Testing

/// Arguments that cannot become items: exit 2, the path on stderr,
/// nothing on stdout, nothing started (SPEC §1, §3).
@Suite struct ItemErrorTests {
    /// One bad item and what stderr must say about it.
    enum BadItem: String, CaseIterable, CustomTestStringConvertible {
        case bareWord, directory, fifo, socket, danglingSymlink, missingFileOption, fileURLToMissingFile,
             fileURLToDirectory, urlWithoutScheme, urlWithSpace

        var testDescription: String { rawValue }

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
