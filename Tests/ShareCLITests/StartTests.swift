import Foundation
import ShareCLI
import ShareCore
import Synchronization
import Testing

/// `ShareCommand.start` does everything before an activity runs without
/// concurrency, and hands the activity's lifecycle back undone.
@MainActor @Suite final class StartTests {
    final class Streams: Sendable {
        let out = Mutex("")
        let err = Mutex("")
    }

    let directory: URL
    let streams = Streams()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("share-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var console: Console {
        let streams = self.streams
        return Console(output: { text in streams.out.withLock { $0 += text } },
                       error: { text in streams.err.withLock { $0 += text } },
                       readInput: { Data() }, hasTerminal: { false },
                       environment: ["HOME": directory.path, "XDG_CONFIG_HOME": directory.path + "/config",
                                     "XDG_DATA_HOME": directory.path + "/data", "PATH": "/usr/bin:/bin"])
    }

    /// The exit status when `ShareCommand.start` ends the run itself, or
    /// `nil` when it leaves work for an activity.
    func exitStatus(_ arguments: [String]) -> Int32? {
        guard case .exit(let code) = ShareCommand.start(arguments, console: console) else { return nil }
        return code
    }

    @Test func aListingEndsInTheSynchronousPart() {
        #expect(exitStatus(["--list", "https://example.com"]) == ExitCode.completed, "--list ended, leaving no work for an activity")
        #expect(streams.out.withLock { $0 }.contains("addToReadingList\t"))
    }

    @Test func aUsageErrorEndsThereWithItsMessage() {
        #expect(exitStatus(["--no-such-option", "https://example.com"]) == ExitCode.usage, "a usage error ended, leaving no work for an activity")
        #expect(streams.err.withLock { $0 }.contains("--no-such-option"))
        #expect(streams.out.withLock { $0 }.isEmpty)
    }

    @Test func aNamedActivityRunsOnlyInTheAsynchronousPart() async throws {
        let list = directory.path + "/data/share/reading-list.tsv"
        guard case .activity(let rest) = ShareCommand.start(["--activity", "addToReadingList", "--json", "https://example.com/a"],
                                                            console: console) else {
            Issue.record("--activity ended before its activity ran")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: list), "the activity ran before its lifecycle was awaited")
        #expect(await rest() == ExitCode.completed)
        let saved = try String(contentsOfFile: list, encoding: .utf8)
        #expect(saved.contains("https://example.com/a"))
        #expect(streams.out.withLock { $0 }.contains("\"outcome\":\"performed\""))
    }
}
