import Foundation
import Testing

/// A keyring for a mail world: `$HOME/.gnupg` of the runs, with keys for
/// kim (the sender), lee and boss made by gpg (`Tests/Support/pgp_tool.py`);
/// its gpg-agent is stopped when the test ends.
final class Keyring {
    struct Key: Decodable {
        var fpr: String
        /// The key id of its encryption subkey, as `gpg --list-packets` names it.
        var encryption: String
    }

    let home: URL
    let keys: [String: Key]

    init(_ world: MailWorld, passphrase: String? = nil) throws {
        home = world.fixtures.home.appendingPathComponent(".gnupg", isDirectory: true)
        let made = try ServerScript.query("pgp_tool.py", ["keys", home.path] + (passphrase.map { ["--passphrase", $0] } ?? []))
        keys = try JSONDecoder().decode([String: Key].self, from: made)
    }

    deinit { _ = try? ServerScript.query("pgp_tool.py", ["stop", home.path]) }

    subscript(name: String) -> Key { keys[name] ?? Key(fpr: "?", encryption: "?") }

    /// gpg's reading of the message in `file`.
    func check(_ file: URL) throws -> PGPCheck {
        try JSONDecoder().decode(PGPCheck.self, from: try ServerScript.query("pgp_tool.py", ["check", home.path, file.path]))
    }
}

/// What pgp_tool.py's `check` found in a message.
struct PGPCheck: Decodable {
    var type: String
    var mshow: String
    var micalg: String?
    var `protocol`: String?
    var signatureType: String?
    var crlf: Bool?
    var verified: Bool?
    var signer: String?
    var hash: String?
    var control: [String]?
    var keyids: [String]?
    var decrypted: Bool?
    var inner: [String]
    var text: String?
    var defects: [String]
}

/// OpenPGP mail (RFC 3156 through GPGME) against aiosmtpd on 127.0.0.1,
/// each message verified and decrypted by gpg, parsed by Python's email
/// and mblaze's mshow.
@Suite struct MailPGPTests {
    @Test func aSignedMessageVerifiesAsItStandsWithItsMicalgAndCRLF() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let keyring = try Keyring(world)
        let attachment = try world.file("notes.txt", Data("line one  \nFrom the start\n.\n".utf8))
        let sent = try world.send(["--send", "--json", "--sign", "--to", "lee@example.com", "--subject", "signed",
                                   "--body", "Hello Lee,\ntrailing space \nFrom here\n", "--attach", attachment.path], to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        let check = try keyring.check(sent.message.file)
        #expect(check.type == "multipart/signed" && check.protocol == "application/pgp-signature", "\(check)")
        #expect(check.signatureType == "application/pgp-signature")
        #expect(check.verified == true && check.signer == keyring["kim"].fpr, "gpg verifies the part as it stands: \(check)")
        #expect(check.micalg == check.hash && check.micalg?.hasPrefix("pgp-sha") == true, "micalg names gpg's hash: \(check)")
        #expect(check.crlf == true, "the signed part's lines end in CRLF")
        #expect(check.inner == ["multipart/mixed", "text/plain", "text/plain"] && check.defects.isEmpty, "\(check)")
        #expect(check.text == "Hello Lee,\ntrailing space \nFrom here\n", "\(check.text ?? "nil")")
        #expect(check.mshow.contains("multipart/signed") && check.mshow.contains("application/pgp-signature"), "\(check.mshow)")
        #expect(sent.check.defects.isEmpty, "\(sent.check.defects)")
    }

    /// Encrypted to every recipient and to the sender, signed in the same
    /// step; the Bcc recipient's key id is not in the message; the sent copy
    /// is the encrypted message, which the sender can read.
    @Test func anEncryptedMessageGoesToEveryKeyAndHidesTheBcc() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let keyring = try Keyring(world)
        let sent = try world.send(["--send", "--sign", "--encrypt", "--to", "lee@example.com", "--bcc", "boss@example.com",
                                   "--subject", "secret", "--body", "비밀 메시지\n", "--attach", world.fixtures.pdf.path], to: server)
        #expect(sent.run.status == 0)
        let check = try keyring.check(sent.message.file)
        #expect(check.type == "multipart/encrypted" && check.protocol == "application/pgp-encrypted", "\(check)")
        #expect(check.control == ["application/pgp-encrypted", "Version: 1"], "\(check)")
        #expect(check.decrypted == true && check.signer == keyring["kim"].fpr, "\(check)")
        let keyids = Set(check.keyids ?? [])
        #expect(keyids == [keyring["kim"].encryption, keyring["lee"].encryption, "0000000000000000"],
                "to lee and to the sender by key id, to the Bcc without one: \(check.keyids ?? [])")
        #expect(!keyids.contains(keyring["boss"].encryption))
        #expect(check.inner == ["multipart/mixed", "text/plain", "application/pdf"] && check.text == "비밀 메시지", "\(check)")
        #expect(!String(decoding: sent.message.raw, as: UTF8.self).contains("비밀"), "nothing of the body in clear")
        let copy = try #require(world.allMessages(in: world.sent).first)
        let sentCopy = try keyring.check(copy)
        #expect(sentCopy.decrypted == true && sentCopy.text == "비밀 메시지", "the sent copy is encrypted and readable: \(sentCopy)")
    }

    /// --encrypt with a recipient who has no key: named, nothing sent.
    /// pgp-encrypt = opportunistic: the message goes signed, and says so.
    @Test func aRecipientWithoutAKeyIsNamedOrTheMessageGoesSignedOnly() throws {
        let world = try MailWorld()
        let server = try world.startServer()
        defer { server.stop() }
        let keyring = try Keyring(world)
        let refused = try world.share(["--send", "--json", "--encrypt", "--to", "lee@example.com, park@example.com", "--body", "x"])
        let failure = try Completion.parse(refused)
        #expect(refused.status == 3 && failure.errorCode == "no-key", "\(refused.out)")
        #expect(failure.errorMessage == "No OpenPGP key for park@example.com: import it (gpg --import), or send without encryption",
                "\(failure.errorMessage ?? "")")
        #expect(try server.messages().isEmpty)

        try world.configure(["transport = smtp://127.0.0.1:\(server.port)", "tls = off", "pgp-sign = always", "pgp-encrypt = opportunistic"])
        let sent = try world.send(["--send", "--json", "--to", "park@example.com", "--subject", "hi", "--body", "x"], to: server)
        let completion = try #require(try JSONSerialization.jsonObject(with: sent.run.stdout) as? [String: Any])
        #expect(completion["warnings"] as? [String] == ["No OpenPGP key for park@example.com: the message goes signed, not encrypted."],
                "\(sent.run.out)")
        #expect(try keyring.check(sent.message.file).verified == true)

        // Everyone with a key: opportunistic encryption encrypts.
        let encrypted = try world.share(["--send", "--to", "lee@example.com", "--subject", "hi", "--body", "x"])
        #expect(encrypted.status == 0, "\(encrypted.err)")
        let second = try #require(try server.messages().last)
        #expect(try keyring.check(second.file).decrypted == true)

        try world.configure(["pgp-encrypt = sometimes"])
        let bad = try world.share(["--send", "--to", "lee@example.com", "--body", "x"])
        #expect(bad.status == 2 && bad.err.contains("pgp-encrypt is opportunistic or never, not 'sometimes'"), "\(bad.err)")
    }

    /// Ctrl-P in the form goes through signed, signed and encrypted,
    /// encrypted and off, the title saying which; a recipient without a
    /// key stops Send with their name.
    @Test func ctrlPInTheFormSignsAndEncrypts() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let keyring = try Keyring(world)
        let run = try ComposeRun.mail(world, ["--to", "lee@example.com, park@example.com", "--subject", "pgp", "--text", "hello"])
        try run.session.waitFor("^P OpenPGP")
        try run.session.send("C-p")
        try run.session.waitUntil("Signed in the title") { $0.lines.first?.contains("New Message · Signed") == true }
        try run.session.send("C-p")
        try run.session.waitUntil("Signed · Encrypted") { $0.lines.first?.contains("New Message · Signed · Encrypted") == true }
        try run.session.send("C-x")
        let refused = try run.session.waitUntil("the missing key named") { ComposeRun.status($0).contains("No OpenPGP key for park@example.com") }
        let nothing = try server.messages().isEmpty
        #expect(!run.session.hasExited && nothing, "screen:\n\(refused.text)")
        // Encrypted, off, then signed again: the message goes signed only.
        try run.session.send("C-p")
        try run.session.waitUntil("Encrypted alone") { $0.lines.first?.hasSuffix("New Message · Encrypted") == true || $0.lines.first?.contains("Message · Encrypted ") == true }
        try run.session.send("C-p")
        try run.session.waitUntil("OpenPGP off") { ComposeRun.status($0).contains("OpenPGP off") }
        try run.session.send("C-p")
        try run.session.waitUntil("Signed again") { $0.lines.first?.contains("New Message · Signed") == true }
        try run.session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (message, _) = try server.onlyMessage()
        let check = try keyring.check(message.file)
        #expect(check.type == "multipart/signed" && check.verified == true && check.signer == keyring["kim"].fpr, "\(check)")
    }

    /// A key with a passphrase: the form leaves its screen for gpg-agent's
    /// curses pinentry on the same terminal, and comes back after.
    @Test func thePassphraseIsAskedByPinentryOnTheSameTerminal() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let keyring = try Keyring(world, passphrase: "correct horse")
        let run = try ComposeRun.mail(world, ["--sign", "--to", "lee@example.com", "--subject", "pin", "--text", "signed with a passphrase"])
        try run.session.waitUntil("Signed in the title") { $0.lines.first?.contains("New Message · Signed") == true }
        try run.session.send("C-x")
        let pinentry = try run.session.waitFor("Passphrase")
        #expect(!pinentry.text.contains("New Message"), "the compose screen is left for pinentry:\n\(pinentry.text)")
        try run.session.sendLiteral("correct horse")
        try run.session.send("Enter")
        let (status, completion) = try run.finish()
        #expect(status == 0 && completion.outcome == "sent", "stderr: \(run.session.stderr)")
        let (message, _) = try server.onlyMessage()
        #expect(try keyring.check(message.file).verified == true)
    }

    /// A 100 MiB attachment signs and encrypts through scratch files:
    /// share's memory stays far below the attachment's size.
    @Test func aBigAttachmentIsEncryptedWithFlatMemory() throws {
        let world = try MailWorld()
        try world.configure([])  // no transport: Send writes the message and puts it in the outbox
        let keyring = try Keyring(world)
        let big = world.root.appendingPathComponent("big.bin")
        try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        for _ in 0..<100 { handle.write(chunk) }
        try handle.close()
        let measured = try ServerScript.query("pgp_tool.py", ["peak", try Share.binary().path, "--config", world.config.path,
                                                              "--send", "--sign", "--encrypt", "--to", "lee@example.com",
                                                              "--body", "big", "--attach", big.path],
                                              environment: world.fixtures.environment)
        let answer = try #require(try JSONSerialization.jsonObject(with: measured) as? [String: Int])
        #expect(answer["status"] == 1, "queued in the outbox: \(answer)")
        let peak = try #require(answer["share"])
        #expect(peak < 64 << 10, "share's peak memory is \(peak) KiB for a 100 MiB attachment")
        let queued = try #require(world.allMessages(in: world.outbox).first)
        let check = try keyring.check(queued)
        #expect(check.decrypted == true && check.inner.contains("application/octet-stream"), "\(check.type) \(check.inner)")
    }
}
