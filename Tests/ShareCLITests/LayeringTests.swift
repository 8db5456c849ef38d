import Foundation
import Testing

/// The command line dispatches modes and shows screens; what an activity
/// is and does stays in its folder. A file under `Sources/ShareCLI` that
/// names a type an activity's folder declares fails here, naming both.
struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// What the command line may use of the activities' folders: the
    /// address book (the compose screen's completion), the plugin loader,
    /// and the options before sharing applied to whichever activity runs.
    static let shared: Set<String> = ["AddressBook", "PluginLoader", "PluginProblem", "SharingAdjuster"]

    /// The types declared in the Swift files below `folder`, by file.
    static func declaredTypes(below folder: URL) throws -> [(type: String, file: String)] {
        let pattern = try NSRegularExpression(pattern: #"^(?:public |package |internal )?(?:final )?(?:class|struct|enum|actor|protocol) +([A-Z][A-Za-z0-9]*)"#,
                                              options: [.anchorsMatchLines])
        var found: [(String, String)] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                found.append((String(text[range]), file.path))
            }
        }
        return found
    }

    @Test func theCommandLineNamesNoActivitysType() throws {
        let activities = Self.sources.appendingPathComponent("ShareActivities")
        let folders = try FileManager.default.contentsOfDirectory(at: activities, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true && $0.lastPathComponent != "System" }
        let types = try folders.flatMap { try Self.declaredTypes(below: $0) }.filter { !Self.shared.contains($0.type) }
        // The folders do declare the activities (the test would pass on nothing otherwise).
        for known in ["MailActivity", "PrintActivity", "NearbyActivity", "CopyActivity", "ReadingListActivity", "PrintRequest", "CUPS"] {
            #expect(types.contains { $0.type == known }, "\(known) is no longer declared in an activity's folder")
        }
        let cli = Self.sources.appendingPathComponent("ShareCLI")
        let files = FileManager.default.enumerator(at: cli, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        #expect(!files.isEmpty)
        for file in files where file.pathExtension == "swift" {
            // Code only: comments may say what an activity does.
            let text = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String(line) }.joined(separator: "\n")
            for (type, declaredIn) in types {
                let word = try NSRegularExpression(pattern: "\\b\(type)\\b")
                if let match = word.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let line = text[..<(Range(match.range, in: text)?.lowerBound ?? text.startIndex)].filter { $0 == "\n" }.count + 1
                    Issue.record("\(file.lastPathComponent):\(line) names \(type), declared in \(declaredIn.replacingOccurrences(of: Self.sources.path + "/", with: ""))")
                }
            }
        }
    }
}
