import Foundation
import Testing

/// OAuth2 logins (SPEC §9: `[mail] auth`, `token-command`) against a real
/// SMTP server on 127.0.0.1 whose authenticator reads the XOAUTH2 and
/// OAUTHBEARER strings libcurl sends and refuses a stale token as Gmail
/// does (334 with an error JSON, then 535).
@Suite struct MailOAuthTests {
    static let user = "kim@example.com"
    static let fresh = "ya29.fresh-token-5521"
    static let stale = "ya29.stale-token-0097"

    /// A token command that counts its runs in `runs` and prints `first` on
    /// the first run and `later` on every other, as a refresh command does.
    static func tokenCommand(in world: MailWorld, first: String, later: String) throws -> (command: String, runs: URL) {
        let runs = world.root.appendingPathComponent("token-runs")
        let script = world.root.appendingPathComponent("token.sh")
        try Data("""
            #!/bin/sh
            n=$(cat '\(runs.path)' 2>/dev/null || echo 0)
            n=$((n + 1))
            echo $n > '\(runs.path)'
            if [ $n -eq 1 ]; then echo '\(first)'; else echo '\(later)'; fi

            """.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        return (script.path, runs)
    }

    static func runs(_ file: URL) -> Int {
        Int(((try? String(contentsOf: file, encoding: .utf8)) ?? "0").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// A world whose config logs in with `auth` and the token command, and an OAuth2 server for ``user`` and ``fresh``.
    static func start(auth: String?, first: String, later: String = MailOAuthTests.fresh) throws
        -> (world: MailWorld, server: SMTPServer, runs: URL) {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--oauth", "\(user):\(fresh)"])
        let (command, runs) = try tokenCommand(in: world, first: first, later: later)
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "token-command = \(command)"]
            + (auth.map { ["auth = \($0)"] } ?? []))
        return (world, server, runs)
    }

    static let message = ["--send", "--json", "--to", "park@example.com", "--subject", "OAuth2", "--body", "with a bearer token"]

    @Test(arguments: [("xoauth2", "XOAUTH2"), ("oauthbearer", "OAUTHBEARER"), ("oauth2", "OAUTHBEARER")])
    func eachMechanismLogsInWithTheToken(auth: String, mechanism: String) throws {
        let (world, server, runs) = try Self.start(auth: auth, first: Self.fresh)
        defer { server.stop() }
        let sent = try world.send(Self.message, to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        #expect(sent.message.envelope.mechanism == mechanism, "logins: \(server.logins())")
        // The URL names no user: the account is the sender's address.
        #expect(sent.message.envelope.login == Self.user)
        #expect(Self.runs(runs) == 1)
        #expect(!sent.run.out.contains(Self.fresh) && !sent.run.err.contains(Self.fresh))
    }

    @Test func aTokenCommandAloneMeansOAuth2() throws {
        let (world, server, _) = try Self.start(auth: nil, first: Self.fresh)
        defer { server.stop() }
        let sent = try world.send(Self.message, to: server)
        #expect(sent.message.envelope.mechanism == "OAUTHBEARER")
    }

    @Test func aStaleTokenIsAskedForAgainOnce() throws {
        let (world, server, runs) = try Self.start(auth: "xoauth2", first: Self.stale)
        defer { server.stop() }
        let sent = try world.send(Self.message, to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        #expect(Self.runs(runs) == 2, "the token command must run again once")
        #expect(server.logins() == ["refused XOAUTH2 \(Self.user)", "accepted XOAUTH2 \(Self.user)"])
        #expect(world.allMessages(in: world.sent).count == 1, "\(world.folders)")
        world.expectEmpty(world.drafts, world.outbox)
    }

    @Test func aTokenRefusedTwiceIsUnauthorizedNamingTheKey() throws {
        let (world, server, runs) = try Self.start(auth: "oauthbearer", first: Self.stale, later: Self.stale)
        defer { server.stop() }
        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(run, saying: "refused the OAuth2 token", "check token-command in [mail]")
        #expect(try Completion.parse(run).errorCode == "unauthorized")
        #expect(Self.runs(runs) == 2, "run once, then once again: never more")
        #expect(server.logins() == ["refused OAUTHBEARER \(Self.user)", "refused OAUTHBEARER \(Self.user)"])
        #expect(try server.messages().isEmpty)
        #expect(!run.out.contains(Self.stale) && !run.err.contains(Self.stale), "the token must never be shown: \(run.err)")
        let stored = world.allMessages(in: world.drafts).compactMap { try? Data(contentsOf: $0) }
        #expect(!stored.contains { $0.range(of: Data(Self.stale.utf8)) != nil })
    }

    @Test func aFailingTokenCommandSaysSoAndSendsNothing() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root, arguments: ["--oauth", "\(Self.user):\(Self.fresh)"])
        defer { server.stop() }
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "auth = oauth2",
                             "token-command = echo 'no refresh token: run oama authorize' >&2; exit 4"])
        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(run, saying: "token-command failed (exit 4): no refresh token: run oama authorize")
        #expect(try Completion.parse(run).errorCode == "configuration")
        #expect(server.logins().isEmpty)
    }

    @Test func oauth2WithoutATokenCommandIsAConfigError() throws {
        let world = try MailWorld()
        try world.configure(["transport = smtp://127.0.0.1:1", "auth = xoauth2"])
        let run = try world.share(["--explain", "--text", "hi"])
        #expect(run.status == 2, "stdout: \(run.out)")
        #expect(run.err.contains("auth = xoauth2 needs token-command"), "stderr: \(run.err)")
    }

    @Test func anUnknownAuthIsAConfigError() throws {
        let world = try MailWorld()
        try world.configure(["transport = smtp://127.0.0.1:1", "auth = kerberos"])
        let run = try world.share(["--explain", "--text", "hi"])
        #expect(run.status == 2)
        #expect(run.err.contains("auth is password, oauth2, xoauth2 or oauthbearer, not 'kerberos'"), "stderr: \(run.err)")
    }
}

extension MailOAuthTests {
    /// `--explain` says how Mail logs in, and when the token command's program is not there, what to do.
    @Test func explainNamesAMissingTokenCommand() throws {
        let world = try MailWorld()
        try world.configure(["transport = smtp://smtp.gmail.com:587", "auth = xoauth2", "token-command = oama-not-here access kim@example.com"])
        let run = try world.share(["--explain", "--text", "hi"])
        #expect(run.status == 0, "stderr: \(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("mail ") })
        #expect(line.contains("through smtp://smtp.gmail.com:587 with OAuth2 (XOAUTH2)"), "\(line)")
        #expect(line.contains("token-command's program oama-not-here is not installed or not on PATH"), "\(line)")
        #expect(line.contains("set token-command in [mail]"), "\(line)")

        let (command, _) = try Self.tokenCommand(in: world, first: Self.fresh, later: Self.fresh)
        try world.configure(["transport = smtp://smtp.gmail.com:587", "auth = oauth2", "token-command = \(command)"])
        let installed = try world.share(["--explain", "--text", "hi"])
        #expect(installed.out.contains("through smtp://smtp.gmail.com:587 with OAuth2"))
        #expect(!installed.out.contains("not installed"), "stdout: \(installed.out)")
    }
}

extension MailOAuthTests {
    /// The account's token logs in to its IMAP server too (dovecot's oauth2
    /// passdb asks the test's introspection endpoint), for the sent copy.
    @Test func theTokenLogsInToIMAPForTheSentCopy() throws {
        let world = try MailWorld()
        let smtp = try SMTPServer(directory: world.root, arguments: ["--oauth", "\(Self.user):\(Self.fresh)"])
        defer { smtp.stop() }
        let imap = try IMAPServer(directory: world.root, oauth: Self.fresh)
        defer { imap.stop() }
        let (command, runs) = try Self.tokenCommand(in: world, first: Self.fresh, later: Self.fresh)
        try world.configure(["transport = smtp://127.0.0.1:\(smtp.port)", "tls = off", "auth = oauth2", "token-command = \(command)",
                             "imap = imaps://\(IMAPServer.user)@localhost:\(imap.tlsPort)", "ca-file = \(imap.certificate.cert.path)",
                             "sent = imap:auto"])
        let sent = try world.send(Self.message, to: smtp)
        #expect(!sent.run.err.contains("could not be stored"), "stderr: \(sent.run.err)")
        #expect(try imap.messages(in: "Sent Messages").count == 1)
        #expect(imap.tokens() == ["active"], "dovecot was asked about: \(imap.tokens())")
        #expect(Self.runs(runs) == 2, "one token for SMTP, one for IMAP")
        #expect(!sent.run.err.contains(Self.fresh))
    }
}
