import Foundation
import Testing

/// `share --list`: the eligible activities, TYPE<TAB>TITLE per line, or a
/// JSON array; exit 4 and a pointer to `--explain` when none is (SPEC §3, §4).
@Suite struct ListTests {
    @Test func eligibleActivitiesArePrintedTypeTabTitle() throws {
        let fixtures = try Fixtures()
        for items in [["--text", "hi"], [fixtures.png.path], ["https://example.com"], [fixtures.pdf.path]] {
            let run = try fixtures.share(["--list"] + items)
            #expect(run.status == 0, "\(items): stderr: \(run.err)")
            #expect(run.out == "mail\tMail\n", "\(items): stdout: \(run.out)")
        }
    }

    @Test func jsonListsOnlyEligibleRows() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--json", "--text", "hi", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.map(\.type) == ["mail"])
        #expect(rows.allSatisfy { $0.eligible })
    }

    @Test func nothingEligibleExitsFourWithEmptyStdout() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--exclude", "mail", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty, "stdout: \(run.out)")
        #expect(run.err.contains("--explain"), "stderr: \(run.err)")
        let json = try fixtures.share("--list", "--json", "--exclude", "mail", fixtures.png.path)
        #expect(json.status == 4, "stderr: \(json.err)")
        #expect(json.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func everythingExcludedExitsFour() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--list", "--only", "com.example.x", "--text", "hi")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.stdout.isEmpty)
    }
}
