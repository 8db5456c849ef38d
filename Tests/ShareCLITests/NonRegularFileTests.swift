import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Nothing hangs, nothing is cut short: a FIFO where share reads a file is
/// refused with its name at once (never opened for a read that waits for a
/// writer), and a file larger than its reader's limit is an error.
@Suite struct NonRegularFileTests {
    @Test func aFIFOAsTheConfigIsRefusedAtOnce() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", fixtures.fifo.path, "--list", "--text", "hi")
        #expect(!run.timedOut)
        #expect(run.status == 2)
        #expect(run.err.contains("cannot read config \(fixtures.fifo.path): it is not a regular file"), "stderr: \(run.err)")
    }

    @Test func devNullAsTheConfigIsNoSettings() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", "/dev/null", "--list", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("mail\tMail"), "stdout: \(run.out)")
    }

    @Test func aFIFOAsTheDefaultConfigIsRefusedToo() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder.appendingPathComponent("config").path, 0o644) == 0)
        let run = try fixtures.share("--list", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.err.contains("it is not a regular file"), "stderr: \(run.err)")
    }

    @Test func aFIFOAsAPluginManifestIsABrokenPluginNamed() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share/activities", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("pipe.activity")
        #expect(mkfifo(manifest.path, 0o644) == 0)
        let run = try fixtures.share("--explain", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("\(manifest.path): cannot be read: it is not a regular file"), "stdout: \(run.out)")
    }

    @Test func aFIFOAsTheReadingListIsRefusedWithItsName() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.root.appendingPathComponent("data/share", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = folder.appendingPathComponent("reading-list.tsv")
        #expect(mkfifo(list.path, 0o644) == 0)
        let read = try fixtures.share("--reading-list")
        #expect(read.status == 3)
        #expect(read.err.contains("cannot read the reading list \(list.path): it is not a regular file"), "stderr: \(read.err)")
        let add = try fixtures.share("--activity", "addToReadingList", "https://example.com/a")
        #expect(add.status == 3)
        #expect(add.err.contains("it is not a regular file"), "stderr: \(add.err)")
    }

    @Test func aConfigLargerThanItsLimitIsAnErrorNotCutShort() throws {
        let fixtures = try Fixtures()
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let config = try fixtures.writeConfig(String(repeating: comment, count: 1100))
        let run = try fixtures.share("--config", config.path, "--list", "--text", "hi")
        #expect(run.status == 2)
        #expect(run.err.contains("cannot read config \(config.path): it is too large (a config is at most 1 MiB)"), "stderr: \(run.err)")
    }
}
