import Foundation
import ShareCore
import ShareMail
import Testing

/// The error codes of the JSON result: one list in ShareCore, one table in
/// the README, and Mail's kinds among them.
struct ErrorCodeTests {
    @Test func everyCodeIsDistinctAndInTheReadmeTable() throws {
        let codes = ActivityError.Code.all
        #expect(Set(codes).count == codes.count)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // The rows of the table whose header is "| code | meaning |".
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex(of: "| code | meaning |"))
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| `") }
        let documented = rows.compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented == codes, "README table and ActivityError.Code.all differ")
    }

    @Test func mailsKindsAreCodesOfTheContract() {
        #expect(MailError.Kind.allCases.map(\.rawValue) == ["invalid-input", "io-error", "send-failed", "temporary-failure", "configuration"])
        for kind in MailError.Kind.allCases {
            #expect(ActivityError.Code.all.contains(kind.rawValue))
            #expect(MailError.Kind(rawValue: kind.rawValue) == kind)
        }
        #expect(MailError.Kind(rawValue: "smtp") == nil)
    }
}
