import Foundation
import Testing

/// The product modules link Foundation's essentials only: full Foundation
/// (and CoreFoundation with it) costs every start of share (DECISIONS.md,
/// 2026-12-01). The tests and the examples may import all of it.
struct FoundationImportTests {
    /// The package's root folder, from where this file is.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `import Foundation`, with or without attributes (`@preconcurrency`)
    /// or an import kind (`import struct Foundation.Data`); not
    /// `FoundationEssentials` or `FoundationInternationalization`.
    static func importsFoundation(_ line: some StringProtocol) -> Bool {
        // The regex only for lines that can match: it is slow over thousands.
        guard line.contains("import"), line.contains("Foundation") else { return false }
        let rule = #/^\s*(@\w+(\([^)]*\))?\s+)*import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?Foundation(\.|\s|;|$)/#
        return String(line).firstMatch(of: rule) != nil
    }

    @Test func theRuleTellsFoundationFromItsEssentials() {
        for line in ["import Foundation", "  @preconcurrency import Foundation", "import struct Foundation.Data",
                     "@_exported import Foundation // all of it", "import Foundation;"] {
            #expect(Self.importsFoundation(line), "\(line)")
        }
        for line in ["import FoundationEssentials", "import FoundationInternationalization", "// import Foundation",
                     "let text = \"import Foundation\""] {
            #expect(!Self.importsFoundation(line), "\(line)")
        }
    }

    @Test func noProductSourceImportsFoundation() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 10, "the sources were found under \(sources.path)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.importsFoundation(line) {
                let relative = file.path.replacingOccurrences(of: Self.packageRoot.path + "/", with: "")
                Issue.record("\(relative):\(number + 1) imports Foundation; import FoundationEssentials (and the C library) instead")
            }
        }
    }
}
