import Foundation
import Synchronization
import Testing
@testable import ShareMail

/// Messages that wait in the outbox until a time: the time travels in the
/// outbox copy (`X-Share-Send-At`), a flush leaves what is not due, the
/// field never goes out, and a message taken back goes to drafts.
struct OutboxScheduleTests {
    /// Three Maildirs in a fresh folder, no transport, and a clock the test sets.
    final class World: Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-tests-\(UUID().uuidString)").path
        let clock = Mutex(Date(timeIntervalSince1970: 1_796_347_800))

        var settings: MailSettings {
            var settings = MailSettings(identities: [], transport: nil, drafts: Maildir(path: root + "/Drafts"),
                                        sent: Maildir(path: root + "/Sent"), outbox: Maildir(path: root + "/Outbox"))
            settings.now = { [self] in self.clock.withLock { $0 } }
            return settings
        }

        var now: Date { clock.withLock { $0 } }

        func move(by seconds: TimeInterval) { clock.withLock { $0 = $0.addingTimeInterval(seconds) } }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    static func message() throws -> MailMessage {
        try MailMessage(from: try MailAddress(parsing: "김민수 <kim@example.com>"), to: try AddressList.parse("park@example.com"),
                        bcc: try AddressList.parse("boss@example.com"), subject: "later", body: .plain("see you"))
    }

    /// The bytes `TransmissionReader` hands the transport.
    static func transmitted(_ path: String) throws -> String {
        let reader = try TransmissionReader(try MessageFile(path: path))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { reader.read(into: $0) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aScheduledMessageWaitsUntilItsTimeAndItsTimeNeverGoesOut() throws {
        let world = World()
        let mailer = Mailer(settings: world.settings)
        let due = world.now.addingTimeInterval(7_200)
        guard case .queued(let path, let reason) = mailer.schedule(try Self.message(), at: due) else {
            Issue.record("not queued")
            return
        }
        #expect(reason.contains("until"))
        #expect(path.hasPrefix(world.root + "/Outbox/new/"), "\(path)")
        #expect(world.settings.drafts.messages().isEmpty, "the draft moved into the outbox")
        let file = try MessageFile(path: path)
        #expect(try SendAt.due(of: file) == due)
        #expect(file.header("Date")?.isEmpty == false)
        #expect(mailer.outboxSummary() == OutboxSummary(count: 1, next: due))

        let text = try Self.transmitted(path)
        #expect(!text.contains("X-Share-Send-At") && !text.contains("Bcc:") && text.contains("Subject: later\r\n"), "\(text)")

        // An hour on: it waits.
        world.move(by: 3_600)
        let early = mailer.flushOutbox()
        #expect(early.flushed.isEmpty && early.waiting == [WaitingMessage(path: path, due: due, recipients: ["park@example.com", "boss@example.com"])])
        // Three hours on: it is tried (here with no transport, so it stays, queued as any message).
        world.move(by: 7_200)
        let due3 = mailer.flushOutbox()
        #expect(due3.waiting.isEmpty && due3.flushed.map(\.outcome) == [.queued(path: path, reason: "no transport is configured")])
        #expect(mailer.outboxSummary() == OutboxSummary(count: 1, next: nil))
    }

    @Test func aTimeThatCannotBeReadStopsTheMessageInsteadOfSendingItEarly() throws {
        let world = World()
        let path = try world.settings.outbox.deliver(flags: nil) { sink throws(MailError) in
            try sink.write(Array("X-Share-Send-At: next week\r\nFrom: kim@example.com\r\nTo: park@example.com\r\n\r\nhi\r\n".utf8))
        }
        let flush = Mailer(settings: world.settings).flushOutbox()
        guard case .failed(let error, let kept)? = flush.flushed.first?.outcome else {
            Issue.record("\(flush)")
            return
        }
        #expect(kept == path && error.message.contains("is not a time"), "\(error.message)")
    }

    @Test func takenBackItGoesToDraftsWithoutItsTimeOnce() throws {
        let world = World()
        let settings = world.settings
        let message = try Self.message()
        guard case .queued(let path, _) = Mailer(settings: settings).schedule(message, at: world.now.addingTimeInterval(600)) else {
            Issue.record("not queued")
            return
        }
        // A mail program marked it read meanwhile: renamed into cur/.
        let read = settings.outbox.path + "/cur/" + (path as NSString).lastPathComponent + ":2,S"
        try FileManager.default.moveItem(atPath: path, toPath: read)
        let taken = Mailer.unschedule(path: path, messageID: message.messageID, outbox: settings.outbox, drafts: settings.drafts,
                                      sent: settings.sent)
        guard case .success(let draft) = taken else {
            Issue.record("\(taken)")
            return
        }
        #expect(settings.outbox.messages().isEmpty && settings.drafts.messages() == [draft] && draft.hasSuffix(":2,D"))
        #expect(try MessageFile(path: draft).header(SendAt.header) == nil && MessageFile(path: draft).header("Subject") == "later")
        let again = Mailer.unschedule(path: path, messageID: message.messageID, outbox: settings.outbox, drafts: settings.drafts,
                                      sent: settings.sent)
        guard case .failure(let refusal) = again else {
            Issue.record("taken back twice")
            return
        }
        #expect(refusal.message.contains("no longer in the outbox"), "\(refusal.message)")
    }
}
