import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Accepted means sent (issue: nothing lost, nothing sent twice): a message
/// the server accepted is `sent` even when its copy cannot be filed, and
/// concurrent flushes deliver each queued message exactly once.
@Suite struct MailAcceptedTests {
    static func send(_ world: MailWorld, subject: String) throws -> ShareRun {
        try world.share(["--send", "--json", "--to", "park@example.com", "--subject", subject, "--body", "body of \(subject)"])
    }

    /// A file where the Sent Maildir should be: no copy can be written there, as root or not.
    static func breakSent(_ world: MailWorld) throws {
        try Data("not a folder".utf8).write(to: world.sent)
    }

    @Test func aSentMessageWhoseCopyCannotBeFiledIsSentWithAWarningAndKeptInDrafts() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        try Self.breakSent(world)
        let run = try Self.send(world, subject: "once only")
        #expect(run.status == 0, "stderr: \(run.err)")
        let completion = try Completion.parse(run)
        #expect(completion.outcome == "sent" && completion.completed, "\(completion)")
        #expect(run.err.contains("share: warning: the message was sent, but its copy could not be saved in \(world.sent.path)"),
                "stderr: \(run.err)")
        #expect(run.out.contains("\"warnings\":[\"the message was sent"), "stdout: \(run.out)")
        #expect(try server.messages().count == 1)
        // The message is not lost: it stays in drafts, and nothing waits to be sent again.
        #expect(world.allMessages(in: world.drafts).count == 1, "\(world.folders)")
        world.expectEmpty(world.outbox)
    }

    @Test func aFlushedMessageWhoseCopyCannotBeFiledLeavesTheOutboxAndIsNeverSentTwice() throws {
        let world = try MailWorld()
        let queued = try Self.send(world, subject: "queued")
        #expect(queued.status == 1, "stderr: \(queued.err)")
        let server = try world.startServer()
        defer { server.stop() }
        try Self.breakSent(world)
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        #expect(flush.out.hasPrefix("sent\t\t") && flush.out.contains("it is kept in drafts"), "stdout: \(flush.out)")
        world.expectEmpty(world.outbox)
        #expect(world.allMessages(in: world.drafts).count == 1, "\(world.folders)")
        let again = try world.share(["--flush"])
        #expect(again.err.contains("the outbox is empty"), "stderr: \(again.err)")
        #expect(try server.messages().count == 1, "sent once, not twice")
    }

    @Test func threeFlushesAtOnceDeliverEachMessageExactlyOnce() throws {
        let world = try MailWorld()
        let subjects = (1...6).map { "queued \($0)" }
        for subject in subjects {
            #expect(try Self.send(world, subject: subject).status == 1)
        }
        try #require(world.messages(in: world.outbox, "new").count == subjects.count, "\(world.folders)")
        let server = try world.startServer()
        defer { server.stop() }

        // Three flushes started together, each its own process.
        let binary = try Share.binary()
        let processes = try (1...3).map { _ -> Process in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--config", world.config.path, "--flush"]
            process.environment = world.fixtures.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let watchdogs = processes.map { ProcessWatchdog(pid: $0.processIdentifier, seconds: Share.watchdogSeconds) }
        for process in processes { process.waitUntilExit() }
        #expect(watchdogs.map { $0.finish() } == [false, false, false], "a flush hung")
        let received = try server.messages().map { try server.check($0).header("Subject") ?? "" }
        #expect(received.sorted() == subjects.sorted(), "each exactly once: \(received)")
        world.expectEmpty(world.outbox)
        #expect(world.allMessages(in: world.sent).count == subjects.count, "\(world.folders)")
    }

    /// A kill during the first write of a draft leaves part of it in tmp/;
    /// the next run clears such parts once they are 36 hours old (the
    /// Maildir rule), and leaves younger ones (a write in progress) alone.
    @Test func partsLeftInTmpAreClearedAfter36Hours() throws {
        let world = try MailWorld()
        let tmp = world.drafts.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let stale = tmp.appendingPathComponent("1700000000.M1P1Q1.host")
        let fresh = tmp.appendingPathComponent("1700000001.M1P2Q1.host")
        try Data("From: half a message".utf8).write(to: stale)
        try Data("From: being written".utf8).write(to: fresh)
        let old = Date().addingTimeInterval(-37 * 3600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: stale.path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-35 * 3600)], ofItemAtPath: fresh.path)
        let run = try world.share(["--save-draft", "--to", "park@example.com", "--subject", "later", "--body", "soon"])
        #expect(run.status == 1, "stderr: \(run.err)")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "37 hours old: cleared")
        #expect(FileManager.default.fileExists(atPath: fresh.path), "35 hours old: kept")
        #expect(world.messages(in: world.drafts, "cur").count == 1, "\(world.folders)")
    }
}
