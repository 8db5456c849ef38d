import Foundation
import Testing

/// The words of a failed send are the reply that failed, with what it
/// refused, not the last of the session (the server's goodbye); and share
/// greets servers with a fully qualified name.
@Suite struct MailWordsTests {
    static let message = ["--send", "--json", "--to", "park@example.com", "--cc", "lee@example.com", "--subject", "words",
                          "--body", "hello"]

    @Test func aRefusedRecipientIsNamedWithTheServersReply() throws {
        let (world, server) = try MailWorld.withServer(["--rcpt-reply", "550 5.1.1 No such user here"])
        defer { server.stop() }
        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(
            run, saying: "550 5.1.1 No such user here (recipient <park@example.com>) — smtp://127.0.0.1:\(server.port) did not accept the message")
        #expect(!run.err.lowercased().contains("221 bye"), "not the goodbye: \(run.err)")
    }

    @Test func aTemporaryRefusalSaysSoAndQueues() throws {
        let (world, server) = try MailWorld.withServer(["--rcpt-reply", "451 4.3.0 Try again later"])
        defer { server.stop() }
        try world.expectQueued(world.share(Self.message), saying: "451 4.3.0 Try again later (recipient <park@example.com>)")
    }

    @Test func aConnectionDroppedDuringDataSaysSo() throws {
        let (world, server) = try MailWorld.withServer(["--drop-mid-data"])
        defer { server.stop() }
        let body = String(repeating: "a long line of the body that goes on\n", count: 40)
        let run = try world.share(["--send", "--to", "park@example.com", "--subject", "drop", "--body", body])
        run.expectExit(3, saying: "the connection closed during DATA")
        #expect(world.messages(in: world.drafts, "cur").count == 1, "the message stays in drafts: \(world.folders)")
    }

    @Test func theGreetingIsTheSendersDomain() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let received = try world.send(Self.message, to: server).message
        #expect(received.envelope.ehlo == "example.com", "EHLO \(received.envelope.ehlo ?? "-")")
    }
}
