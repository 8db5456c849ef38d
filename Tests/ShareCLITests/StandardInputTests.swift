import Foundation
import Testing

/// `-` reads standard input: UTF-8 text is a string, other bytes a file (SPEC §1).
@Suite struct StandardInputTests {
    @Test func utf8TextIsAString() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "-", input: Data("hi\n".utf8))
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["s"]))
        #expect(rows.reason("mail") == nil)
        #expect(rows.reason("addToReadingList") == "unsupported-items")
        #expect(rows.reason("print") == "unsupported-items")
    }

    @Test func pngBytesAreAnImage() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "-", input: FixtureBytes.png)
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["i"]))
        #expect(rows.reason("assignToContact") == "unavailable")
    }

    @Test func nonUTF8BytesAreAFile() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "-", input: Data([0xFF, 0xFE, 0x00, 0x41, 0xC3, 0x28, 0x80]))
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["f"]))
        #expect(rows.reason("print") == "unavailable")
        #expect(rows.reason("postToTwitter") == "unsupported-items")
    }

    @Test func stdinMixesWithOtherItems() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "https://example.com", "-", input: Data("note".utf8))
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try ActivityRow.parse(run).reasons == SystemActivity.expectedReasons(itemKinds: ["s", "u"]))
    }

    @Test func emptyStdinIsAnError() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "-", input: Data())
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("standard input"), "stderr: \(run.err)")
    }

    @Test func dashTwiceIsAnError() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "-", "-", input: Data("hi\n".utf8))
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("'-'"), "stderr: \(run.err)")
    }
}
