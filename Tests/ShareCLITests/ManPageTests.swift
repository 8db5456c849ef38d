import Foundation
import ShareCLI
import Testing

/// The man page is made from the option table: the checked-in `share.1`
/// is exactly what `make man` writes, and groff renders it without a warning.
@Suite struct ManPageTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("share.1")

    @Test func theCheckedInPageIsTheGeneratedOne() throws {
        let checkedIn = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(checkedIn == ManPage.roff, "share.1 is out of date: run make man")
    }

    @Test func everyOptionIsOnThePage() {
        for spec in OptionTable.all {
            #expect(ManPage.roff.contains(ManPage.escape(spec.name)), "\(spec.name) is not on the man page")
        }
    }

    @Test func groffRendersItWithoutWarnings() throws {
        let groff = URL(fileURLWithPath: "/usr/bin/groff")
        try #require(FileManager.default.isExecutableFile(atPath: groff.path), "groff is needed (Debian: groff-base)")
        let run = try Share.run(groff, ["-ww", "-z", "-man", Self.page.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                                directory: Self.page.deletingLastPathComponent())
        #expect(run.status == 0)
        #expect(run.err.isEmpty, "groff warns: \(run.err)")
    }
}
