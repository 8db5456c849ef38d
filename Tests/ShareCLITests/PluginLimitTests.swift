import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A plugin cannot make share hold 800 MB of output or show a name the
/// length of a book: both have limits, each a clear error.
@Suite struct PluginLimitTests {
    static func manifest(_ fixtures: Fixtures, _ text: String) throws -> URL {
        let folder = fixtures.configHome.appendingPathComponent("share/activities", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("limit.activity")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aPluginThatPrintsWithoutEndIsStoppedAtMaxOutput() throws {
        let fixtures = try Fixtures()
        _ = try Self.manifest(fixtures, "[Activity]\nType=com.example.chatty\nName=Chatty\nExec=yes\nMaxOutput=100000\n")
        let started = Date()
        let run = try fixtures.share("--activity", "com.example.chatty", "--json", "--text", "hi")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.status == 3, "stderr: \(run.err)")
        #expect(run.err.contains("Chatty printed more than 100000 bytes on standard output (MaxOutput) and was stopped"), "stderr: \(run.err)")
        #expect(run.out.contains("\"plugin-failed\""), "stdout: \(run.out.prefix(300))")
    }

    @Test func aNameOfAHundredThousandCharactersIsABrokenManifest() throws {
        let fixtures = try Fixtures()
        let url = try Self.manifest(fixtures, "[Activity]\nType=com.example.long\nName=\(String(repeating: "n", count: 100_000))\nExec=/bin/true\n")
        let run = try fixtures.share("--explain", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err.prefix(300))")
        #expect(run.out.contains("\(url.path): Name is 100000 characters long; a name is at most 200"), "stdout: \(run.out.suffix(400))")
        #expect(!run.out.contains(String(repeating: "n", count: 300)), "the name is never printed whole")
    }
}
