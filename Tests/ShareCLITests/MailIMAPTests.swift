import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Sent copies on an IMAP server (SPEC §9: `imap`, `sent = imap:…`): a
/// real dovecot on 127.0.0.1 receives the APPEND after the SMTP server
/// accepted the message; a copy it could not take is kept locally and
/// stored by `share --flush`, exactly once.
@Suite struct MailIMAPTests {
    static let sentFolder = "Sent Messages"
    static let message = ["--send", "--json", "--to", "park@example.com", "--bcc", "hidden@example.com",
                          "--subject", "보낸 편지함", "--body", "a copy for the server"]

    /// A world sending through a plain SMTP server, its copies to `imap` lines.
    static func start() throws -> (MailWorld, SMTPServer, IMAPServer) {
        let world = try MailWorld()
        let smtp = try world.startServer()
        do {
            return (world, smtp, try IMAPServer(directory: world.root))
        } catch {
            smtp.stop()
            throw error
        }
    }

    static func configure(_ world: MailWorld, smtp: SMTPServer, imap lines: [String]) throws {
        try world.configure(["transport = smtp://127.0.0.1:\(smtp.port)", "tls = off"] + lines)
    }

    /// The local Maildir of copies waiting for the IMAP server.
    static func pending(_ world: MailWorld) -> URL {
        world.root.appendingPathComponent("data/share/imap-pending", isDirectory: true)
    }

    @Test(arguments: ["imap:auto", "imap:Sent Messages"])
    func theSentCopyIsAppendedSeenAfterTheServerAccepted(sent: String) throws {
        let (world, smtp, imap) = try Self.start()
        defer { smtp.stop(); imap.stop() }
        try Self.configure(world, smtp: smtp, imap: try imap.configLines(in: world, sent: sent))

        let delivery = try world.send(Self.message, to: smtp)
        #expect(try Completion.parse(delivery.run).outcome == "sent")
        #expect(!delivery.run.err.contains("could not be stored"), "stderr: \(delivery.run.err)")
        let copies = try imap.messages(in: Self.sentFolder)
        try #require(copies.count == 1, "Sent holds \(copies.count); dovecot: \(imap.log)")
        let copy = copies[0]
        #expect(copy.flags.contains("\\Seen"))
        #expect(copy.defects.isEmpty && copy.crlf)
        #expect(copy.messageID == delivery.check.header("message-id"))
        #expect(copy.subject == "보낸 편지함")
        // The copy keeps the Bcc (SPEC §5, Fcc); the transmitted message never had it.
        #expect(copy.bcc?.contains("hidden@example.com") == true)
        #expect(!delivery.check.hasBccHeader)
        world.expectEmpty(world.drafts, world.outbox, Self.pending(world))
        #expect(!delivery.run.out.contains(IMAPServer.password) && !delivery.run.err.contains(IMAPServer.password))
    }

    @Test func aFailedAppendIsAWarningAndFlushStoresTheCopyOnce() throws {
        let (world, smtp, imap) = try Self.start()
        defer { smtp.stop(); imap.stop() }
        // First the IMAP server is away: nothing listens on its port.
        let away = try imap.configLines(in: world).map { $0.replacingOccurrences(of: ":\(imap.tlsPort)", with: ":1") }
        try Self.configure(world, smtp: smtp, imap: away)

        let run = try world.share(Self.message)
        #expect(run.status == 0, "the message went: stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")
        #expect(run.err.contains("its copy could not be stored in imaps://localhost:1"), "stderr: \(run.err)")
        #expect(run.err.contains("share --flush stores it"), "stderr: \(run.err)")
        #expect(try smtp.messages().count == 1)
        #expect(world.allMessages(in: Self.pending(world)).count == 1, "\(world.folders)")

        try Self.configure(world, smtp: smtp, imap: try imap.configLines(in: world))
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        #expect(flush.out.hasPrefix("stored\timaps://localhost:\(imap.tlsPort)/\(Self.sentFolder);UID="), "stdout: \(flush.out)")
        #expect(try imap.messages(in: Self.sentFolder).count == 1)
        world.expectEmpty(Self.pending(world))

        // Nothing is sent twice, nothing stored twice.
        let again = try world.share(["--flush"])
        #expect(again.status == 0)
        #expect(try imap.messages(in: Self.sentFolder).count == 1)
        #expect(try smtp.messages().count == 1)
    }

    @Test func aCopyTheServerHasAlreadyIsNotStoredAgain() throws {
        let (world, smtp, imap) = try Self.start()
        defer { smtp.stop(); imap.stop() }
        let away = try imap.configLines(in: world).map { $0.replacingOccurrences(of: ":\(imap.tlsPort)", with: ":1") }
        try Self.configure(world, smtp: smtp, imap: away)
        _ = try world.share(Self.message)
        let kept = try #require(world.allMessages(in: Self.pending(world)).first)
        // The APPEND went through but share died before removing its copy.
        try imap.append(kept, to: Self.sentFolder)

        try Self.configure(world, smtp: smtp, imap: try imap.configLines(in: world))
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        #expect(try imap.messages(in: Self.sentFolder).count == 1)
        world.expectEmpty(Self.pending(world))
    }

    @Test func killedBetweenTheAcceptAndTheAppendTheCopyIsStoredOnceByFlush() throws {
        let (world, smtp, imap) = try Self.start()
        defer { smtp.stop(); imap.stop() }
        // An IMAP server that never answers holds share between the SMTP accept and the APPEND.
        let silent = try SilentServer(directory: world.root)
        defer { silent.stop() }
        let held = try imap.configLines(in: world).map { $0.replacingOccurrences(of: ":\(imap.tlsPort)", with: ":\(silent.port)") }
        try Self.configure(world, smtp: smtp, imap: held)

        let process = Process()
        process.executableURL = try Share.binary()
        process.arguments = ["--config", world.config.path] + Self.message
        process.environment = world.fixtures.environment
        process.currentDirectoryURL = world.fixtures.files
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: 30)
        // Polled with a deadline: the state the kill must come in, not a time.
        var accepted = false
        while process.isRunning && !accepted {
            accepted = (try? smtp.messages().count) == 1 && world.messages(in: Self.pending(world), "cur").count == 1
            if !accepted { usleep(10_000) }
        }
        #expect(accepted && process.isRunning, "share was not held between the accept and the APPEND")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!watchdog.finish())
        #expect(process.terminationReason == .uncaughtSignal)

        try Self.configure(world, smtp: smtp, imap: try imap.configLines(in: world))
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        #expect(try imap.messages(in: Self.sentFolder).count == 1)
        #expect(try smtp.messages().count == 1, "the message was sent twice")
        world.expectEmpty(Self.pending(world), world.outbox, world.drafts)
        _ = try world.share(["--flush"])
        #expect(try imap.messages(in: Self.sentFolder).count == 1)
    }

    @Test func aRefusedIMAPLoginIsAWarningNamingTheKey() throws {
        let (world, smtp, imap) = try Self.start()
        defer { smtp.stop(); imap.stop() }
        let wrong = world.root.appendingPathComponent("wrong.txt")
        try Data("not-the-imap-password-3391\n".utf8).write(to: wrong)
        let lines = try imap.configLines(in: world).map { $0.hasPrefix("imap-password-command") ? "imap-password-command = cat '\(wrong.path)'" : $0 }
        try Self.configure(world, smtp: smtp, imap: lines)
        let run = try world.share(Self.message)
        #expect(run.status == 0)
        #expect(run.err.contains("refused the login") && run.err.contains("password-command in [mail]"), "stderr: \(run.err)")
        #expect(!run.err.contains("not-the-imap-password-3391"))
        #expect(world.allMessages(in: Self.pending(world)).count == 1)
    }

    @Test func imapFoldersNeedAnIMAPServer() throws {
        let world = try MailWorld()
        try world.configure(["sent = imap:auto"])
        let run = try world.share(["--explain", "--text", "hi"])
        #expect(run.status == 2)
        #expect(run.err.contains("sent = imap:auto needs imap = imaps://USER@HOST[:PORT] in [mail]"), "stderr: \(run.err)")
    }
}
