import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Nothing hangs: password-command and sendmail run with a deadline
/// (`[mail] command-timeout`), stopped with a clear message when it
/// passes, and the message stays in drafts.
@Suite struct MailDeadlineTests {
    static let message = ["--send", "--to", "park@example.com", "--subject", "deadline", "--body", "waiting"]

    @Test func aPasswordCommandThatHangsIsStoppedAndTheDraftKept() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        try world.configure(["transport = smtp://user@127.0.0.1:\(server.port)", "tls = off", "password-command = sleep 600",
                             "command-timeout = 1"])
        let started = Date()
        let run = try world.share(Self.message)
        #expect(Date().timeIntervalSince(started) < 30, "stopped at the deadline, not after the command")
        #expect(run.status == 3, "stderr: \(run.err)")
        #expect(run.err.contains("password-command did not finish within 1 s ([mail] command-timeout); it was stopped"),
                "stderr: \(run.err)")
        #expect(run.err.contains("the message is kept in drafts"), "stderr: \(run.err)")
        #expect(world.messages(in: world.drafts, "cur").count == 1, "\(world.folders)")
        #expect(try server.messages().isEmpty)
    }

    @Test func aSendmailThatHangsIsStoppedAndTheDraftKept() throws {
        let world = try MailWorld()
        let script = world.fixtures.files.appendingPathComponent("slow-sendmail")
        try "#!/bin/sh\ncat > /dev/null\nsleep 600\n".write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        try world.configure(["sendmail = \(script.path)", "command-timeout = 1"])
        let run = try world.share(Self.message)
        run.expectExit(3, saying: "\(script.path) did not finish within 1 s ([mail] command-timeout); it was stopped")
        #expect(world.messages(in: world.drafts, "cur").count == 1, "\(world.folders)")
    }

    @Test func aTimeoutThatIsNotANumberIsAConfigError() throws {
        let world = try MailWorld()
        try world.configure(["command-timeout = soon"])
        let run = try world.share(Self.message)
        run.expectExit(2, saying: "command-timeout is a number of seconds (such as 30), not 'soon'")
    }
}
