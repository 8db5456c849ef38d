import Foundation
import Testing

/// A real IMAP server for one test: Debian's dovecot started by
/// `Tests/Support/imap_server.py` with a config of its own, a passwd-file
/// user, SPECIAL-USE folders ("Sent Messages" is `\Sent`, "Drafts" is
/// `\Drafts`), plain IMAP and imaps with the test's certificate on
/// 127.0.0.1. What it holds is read back with Python's imaplib and email.
final class IMAPServer {
    static let user = "kim"
    static let password = "imap pass 7731"  // passwd-file fields end at a colon

    /// One message of a folder, as imaplib and email read it.
    struct Message: Decodable {
        var uid: Int
        var flags: [String]
        var messageID: String?
        var subject: String?
        var from: String
        var to: String
        var bcc: String?
        var defects: [String]
        var sha256: String
        var size: Int
        var crlf: Bool

        enum CodingKeys: String, CodingKey {
            case uid, flags, subject, from, to, bcc, defects, sha256, size, crlf
            case messageID = "message_id"
        }
    }

    private struct Listing: Decodable {
        var messages: [Message]
    }

    /// Plain IMAP (LOGIN on loopback).
    let port: Int
    /// imaps, with ``certificate``.
    let tlsPort: Int
    let certificate: MailTLSTests.Certificate
    private let server: ServerScript

    /// Where dovecot runs.
    let directory: URL

    /// Starts dovecot in a fresh folder under `base`; with `oauth`, it also
    /// takes that token for ``user`` (XOAUTH2, OAUTHBEARER).
    init(directory base: URL, oauth: String? = nil) throws {
        certificate = try MailTLSTests.makeCertificate(in: base)
        let directory = base.appendingPathComponent("imap-\(UUID().uuidString.prefix(8))", isDirectory: true)
        self.directory = directory
        server = try ServerScript(script: "imap_server.py",
                                  arguments: [directory.path, "--cert", certificate.cert.path, certificate.key.path,
                                              "--user", "\(IMAPServer.user):\(IMAPServer.password)"] + (oauth.map { ["--oauth", $0] } ?? []),
                                  logFile: base.appendingPathComponent(directory.lastPathComponent + ".log"))
        port = server.port
        let line = server.nextLine() ?? ""
        guard line.hasPrefix("TLS "), let tls = Int(line.dropFirst(4)) else {
            server.stop()
            Issue.record("imap_server.py said no TLS port: \(line.debugDescription); log: \(server.log)")
            throw ServerScriptError.notStarted("imap_server.py")
        }
        tlsPort = tls
    }

    func stop() { server.stop() }

    var log: String { server.log }

    /// What the introspection endpoint answered dovecot, a line a token: `active` or `refused`.
    func tokens() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("tokens.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The messages of `folder`, oldest first.
    func messages(in folder: String) throws -> [Message] {
        let data = try ServerScript.query("imap_server.py", ["--read", String(port), "\(IMAPServer.user):\(IMAPServer.password)", folder])
        return try JSONDecoder().decode(Listing.self, from: data).messages
    }

    /// APPENDs the file at `path` to `folder` with imaplib, flagged `\Seen`, as another client would.
    func append(_ path: URL, to folder: String) throws {
        _ = try ServerScript.query("imap_server.py", ["--append", String(port), "\(IMAPServer.user):\(IMAPServer.password)", folder, path.path])
    }

    /// The config lines of an account whose sent copies (`sent`) go to this server over imaps.
    func configLines(in world: MailWorld, sent: String = "imap:auto", extra: [String] = []) throws -> [String] {
        let secret = world.root.appendingPathComponent("imap-password.txt")
        try Data((IMAPServer.password + "\n").utf8).write(to: secret)
        return ["imap = imaps://\(IMAPServer.user)@localhost:\(tlsPort)", "imap-password-command = cat '\(secret.path)'",
                "ca-file = \(certificate.cert.path)", "sent = \(sent)"] + extra
    }
}

/// An IMAP server that accepts connections and never answers: a client
/// waiting on it can be killed while it waits.
final class SilentServer {
    let port: Int
    private let server: ServerScript

    init(directory base: URL) throws {
        server = try ServerScript(script: "imap_server.py", arguments: ["--silent"],
                                  logFile: base.appendingPathComponent("silent-\(UUID().uuidString.prefix(8)).log"))
        port = server.port
    }

    func stop() { server.stop() }
}
