import Foundation
import ShareCore
import Synchronization
import Testing
import TestSupport

/// The state files two share runs may change at once (the pins, the
/// unfinished compose screens): twenty runs at once lose no change.
struct StateFileTests {
    /// Runs `share-state-fixture` (next to `share`) once per argument list, all at once; their exit statuses.
    static func atOnce(_ runs: [[String]]) throws -> [Int32] {
        let fixture = try Share.binary().deletingLastPathComponent().appendingPathComponent("share-state-fixture")
        let processes = try runs.map { arguments -> Process in
            let process = Process()
            process.executableURL = fixture
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        return processes.map(\.terminationStatus)
    }

    @Test func twentyPinsAtOnceLoseNone() throws {
        let fixtures = try Fixtures()
        let state = fixtures.root.appendingPathComponent("state/share").path
        let types = (1...20).map { "com.example.pinned\($0)" }
        #expect(try Self.atOnce(types.map { ["pin", state, $0] }) == Array(repeating: 0, count: 20))
        #expect(Set(PinsFile(stateHome: state).read().types.map(\.rawValue)) == Set(types))
    }

    @Test func twentyComposeScreensAtOnceKeepEachTheirOwn() throws {
        let fixtures = try Fixtures()
        let state = fixtures.root.appendingPathComponent("state/share").path
        let subjects = (1...20).map { "Subject \($0)" }
        // Ten kept (left unfinished) and ten saved then cleared (sent), at once.
        let runs = subjects.enumerated().map { index, subject in [index < 10 ? "compose" : "compose-clear", state, subject] }
        #expect(try Self.atOnce(runs) == Array(repeating: 0, count: 20))
        let lines = try String(contentsOfFile: state + "/compose.json", encoding: .utf8).split(separator: "\n")
        let kept = lines.compactMap { line in
            (try? JSONDecoder().decode(ComposeStateFile.Saved.self, from: Data(line.utf8)))?.values["subject"]
        }
        #expect(Set(kept) == Set(subjects.prefix(10)), "\(lines)")
        #expect(kept.count == 10, "each run keeps one line: \(lines)")
    }
}
