import Foundation
import Testing

/// Nothing hangs, nothing is cut short: a FIFO where share reads a file is
/// refused with its name at once (never opened for a read that waits for a
/// writer), and a file larger than its reader's limit is an error.
@Suite struct NonRegularFileTests {
    @Test func aFIFOAsTheConfigIsRefusedAtOnce() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", fixtures.fifo.path, "--list", "--text", "hi")
        #expect(!run.timedOut)
        run.expectExit(2, saying: "cannot read config \(fixtures.fifo.path): it is not a regular file")
    }

    @Test func devNullAsTheConfigIsNoSettings() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--config", "/dev/null", "--list", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("mail\tMail"), "stdout: \(run.out)")
    }

    @Test func aFIFOAsTheDefaultConfigIsRefusedToo() throws {
        let fixtures = try Fixtures()
        try fixtures.makeFIFO(at: "config/share/config")
        let run = try fixtures.share("--list", "--text", "hi")
        run.expectExit(2, saying: "it is not a regular file")
    }

    @Test func aFIFOAsAPluginManifestIsABrokenPluginNamed() throws {
        let fixtures = try Fixtures()
        let manifest = try fixtures.makeFIFO(at: "config/share/activities/pipe.activity")
        let run = try fixtures.share("--explain", "--text", "hi")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("\(manifest.path): cannot be read: it is not a regular file"), "stdout: \(run.out)")
    }

    @Test func aFIFOAsTheReadingListIsRefusedWithItsName() throws {
        let fixtures = try Fixtures()
        let list = try fixtures.makeFIFO(at: "data/share/reading-list.tsv")
        let read = try fixtures.share("--reading-list")
        read.expectExit(3, saying: "cannot read the reading list \(list.path): it is not a regular file")
        let add = try fixtures.share("--activity", "addToReadingList", "https://example.com/a")
        add.expectExit(3, saying: "it is not a regular file")
    }

    @Test func aConfigLargerThanItsLimitIsAnErrorNotCutShort() throws {
        let fixtures = try Fixtures()
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let config = try fixtures.writeConfig(String(repeating: comment, count: 1100))
        let run = try fixtures.share("--config", config.path, "--list", "--text", "hi")
        run.expectExit(2, saying: "cannot read config \(config.path): it is too large (a config is at most 1 MiB)")
    }
}
