import Foundation
import ShareActivities
import ShareCore
import ShareMail
import Testing

/// The error codes of the JSON result: the share sheet's and each
/// activity's declared ones, one table in the README, and Mail's kinds
/// among them.
struct ErrorCodeTests {
    @Test func everyCodeIsDistinctAndInTheReadmeTable() throws {
        let codes = SystemActivities.errorCodes
        #expect(Set(codes).count == codes.count, "a code is declared twice: \(codes)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        // The rows of the table whose header is "| code | meaning |".
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex(of: "| code | meaning |"))
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| `") }
        let documented = rows.compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(Set(documented).count == documented.count, "README lists a code twice")
        #expect(Set(documented).subtracting(codes).isEmpty, "in README but declared by nobody: \(Set(documented).subtracting(codes))")
        #expect(Set(codes).subtracting(documented).isEmpty, "declared but not in README: \(Set(codes).subtracting(documented))")
    }

    @Test func mailsKindsAreCodesOfTheContract() {
        let codes = MailError.Kind.allCases.map(MailActivity.errorCode)
        // A passphrase gpg-agent could not ask for is the set-up's to fix, as a password command that fails.
        #expect(codes == ["invalid-input", "io-error", "send-failed", "temporary-failure", "configuration", "configuration", "unauthorized"])
        for code in codes { #expect(SystemActivities.errorCodes.contains(code)) }
    }

    @Test func eachActivityDeclaresTheCodesItDefines() {
        // A code an activity defines is in its own declaration, not only in the union.
        #expect(PrintActivity.errorCodes.contains("print-failed"))
        #expect(NearbyActivity.errorCodes.contains("serve-failed"))
        #expect(!ActivityError.Code.sheet.contains("print-failed"))
    }
}
