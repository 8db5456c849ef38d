import Foundation
import Testing

/// STARTTLS, AUTH and certificate checks against a real server (SPEC §5:
/// STARTTLS required on smtp:// unless `tls = off`, password from
/// `password-command`, never logged, certificate checks on).
@Suite struct MailTLSTests {
    static let user = "minsu"
    static let password = "c0rrect horse:battery staple"

    /// A self-signed certificate for localhost / 127.0.0.1, made for this test.
    struct Certificate {
        var cert: URL
        var key: URL
    }

    static func makeCertificate(in directory: URL) throws -> Certificate {
        let key = directory.appendingPathComponent("key.pem")
        let cert = directory.appendingPathComponent("cert.pem")
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/openssl"),
                                ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", cert.path,
                                 "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                                environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path], directory: directory)
        try #require(run.status == 0, "openssl req failed: \(run.err)")
        return Certificate(cert: cert, key: key)
    }

    /// Writes the password file and configures the STARTTLS transport.
    static func configure(_ world: MailWorld, port: Int, password: String = MailTLSTests.password,
                          caFile: URL?) throws {
        let secret = world.root.appendingPathComponent("password.txt")
        try Data((password + "\n").utf8).write(to: secret)
        var lines = ["transport = smtp://\(user)@localhost:\(port)", "tls = on", "password-command = cat \(secret.path)"]
        if let caFile { lines.append("ca-file = \(caFile.path)") }
        try world.configure(lines)
    }

    /// Starts a server in `world` that offers STARTTLS with a certificate
    /// made for the test and requires AUTH as ``user`` with ``password``, and
    /// configures the world for it (``configure(_:port:password:caFile:)``)
    /// with `password`, trusting the certificate if `trusted`.
    static func startTLSServer(in world: MailWorld, password: String = MailTLSTests.password, trusted: Bool = true) throws -> SMTPServer {
        let certificate = try makeCertificate(in: world.root)
        let server = try SMTPServer(directory: world.root, arguments: [
            "--starttls", certificate.cert.path, certificate.key.path, "--auth", "\(user):\(MailTLSTests.password)",
        ])
        do {
            try configure(world, port: server.port, password: password, caFile: trusted ? certificate.cert : nil)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    static let message = ["--send", "--json", "--to", "park@example.com", "--bcc", "hidden@example.com",
                          "--subject", "보안 연결", "--body", "over TLS"]

    @Test func starttlsAndAuthDeliver() throws {
        let world = try MailWorld()
        let server = try Self.startTLSServer(in: world)
        defer { server.stop() }

        let sent = try world.send(Self.message, to: server)
        let run = sent.run
        #expect(try Completion.parse(run).outcome == "sent")
        #expect(!run.out.contains(Self.password) && !run.err.contains(Self.password), "the password must never be shown")

        let envelope = sent.message.envelope
        #expect(envelope.tls, "the message went in clear text")
        // The server requires AUTH (auth_required) and its authenticator checks
        // user and password, so a received message proves the login. Its
        // envelope's `login` stays null while smtp_server.py's authenticator
        // returns no auth_data; when it is there, it must be our user.
        if let login = envelope.login {
            #expect(login == Self.user)
        }
        #expect(envelope.rcptTos.sorted() == ["hidden@example.com", "park@example.com"])
        #expect(!sent.check.hasBccHeader)
        #expect(world.allMessages(in: world.sent).count == 1, "\(world.folders)")
        world.expectEmpty(world.drafts)
        #expect(!Self.filesContain(world.root, Self.password, except: world.root.appendingPathComponent("password.txt")),
                "the password was stored in a file")
    }

    @Test func tlsOnAgainstServerWithoutStarttlsFailsAndKeepsDraft() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = on"])

        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(run)
        #expect(try Completion.parse(run).hasError)
        #expect(!run.err.isEmpty)
        #expect(try server.messages().isEmpty, "sent in clear text although tls = on")
    }

    @Test func untrustedCertificateIsRefused() throws {
        let world = try MailWorld()
        // No ca-file: the self-signed certificate is not trusted by the system.
        let server = try Self.startTLSServer(in: world, trusted: false)
        defer { server.stop() }

        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(run, saying: "certificate verification failed for smtp://localhost:\(server.port) (set ca-file for a private server)")
        #expect(try server.messages().isEmpty, "delivered to a server whose certificate is not trusted")
    }

    @Test func wrongPasswordFailsWithoutShowingIt() throws {
        let world = try MailWorld()
        let wrong = "wrong-pass-7391"
        let server = try Self.startTLSServer(in: world, password: wrong)
        defer { server.stop() }

        let run = try world.share(Self.message)
        try world.expectFailedKeepingDraft(run)
        #expect(!run.out.contains(wrong) && !run.err.contains(wrong), "the password must never be shown: \(run.err)")
        #expect(try server.messages().isEmpty)
    }

    /// Whether any regular file under `directory` (except `except`) contains `text`.
    static func filesContain(_ directory: URL, _ text: String, except: URL) -> Bool {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return false
        }
        let needle = Data(text.utf8)
        for case let url as URL in enumerator where url.standardizedFileURL.path != except.standardizedFileURL.path {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = try? Data(contentsOf: url) else { continue }
            if data.range(of: needle) != nil { return true }
        }
        return false
    }
}
