import CGpgme
import FoundationEssentials
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// How a message is protected with OpenPGP (RFC 3156): signed by one key,
/// encrypted to some, or both (signed and encrypted in one step, §6.2).
public struct OpenPGPProtection: Sendable, Equatable {
    /// The fingerprint of the secret key that signs; `nil`: not signed.
    public var signer: String?
    /// The fingerprints the message is encrypted to, the sender's own
    /// among them, so that the drafts and sent copies stay readable;
    /// empty: not encrypted.
    public var recipients: [String]
    /// Fingerprints it is encrypted to without their key ids in the
    /// message (Bcc: the other recipients cannot tell who they are).
    public var hiddenRecipients: [String]
    /// Whether gpg-agent may ask for a passphrase (its pinentry has the
    /// terminal); when it may not and must, the writing fails with
    /// ``MailError/Kind/passphrase``.
    public var mayAsk: Bool

    /// A protection: signed by `signer`, encrypted to `recipients` (and `hiddenRecipients`).
    public init(signer: String?, recipients: [String] = [], hiddenRecipients: [String] = [], mayAsk: Bool = true) {
        self.signer = signer
        self.recipients = recipients
        self.hiddenRecipients = hiddenRecipients
        self.mayAsk = mayAsk
    }

    /// Whether it encrypts.
    public var encrypts: Bool { !recipients.isEmpty || !hiddenRecipients.isEmpty }
    /// Whether it signs.
    public var signs: Bool { signer != nil }
}

/// OpenPGP through GPGME (`CGpgme`): keys looked up, a part signed or
/// encrypted from one file descriptor into another, so memory stays flat
/// whatever the message's size.
public enum OpenPGP {
    /// The fingerprint of the usable key for `address` (an exact address
    /// in one of its user ids): a secret one that signs, or a public one
    /// that encrypts; `nil` when there is none.
    public static func key(forAddress address: String, secret: Bool) throws(MailError) -> String? {
        try key("<\(address)>", secret: secret)
    }

    /// The fingerprint of the usable key `pattern` names (a fingerprint, `<address>`).
    public static func key(_ pattern: String, secret: Bool) throws(MailError) -> String? {
        var fingerprint = [CChar](repeating: 0, count: 128)
        var error = [CChar](repeating: 0, count: 512)
        switch share_pgp_find_key(pattern, secret ? 1 : 0, &fingerprint, fingerprint.count, &error, error.count) {
        case 1: return text(fingerprint)
        case 0: return nil
        default: throw MailError(.configuration, text(error))
        }
    }

    /// Tells gpg-agent which terminal its pinentry asks on (`GPG_TTY`):
    /// the terminal of standard input, output or error, else the
    /// controlling terminal's pseudo-terminal as `/proc` names it (a file
    /// descriptor of `/dev/tty` names only `/dev/tty`, which a pinentry
    /// started by the agent cannot open); unless the environment says already.
    public static func useTerminal() {
        guard getenv("GPG_TTY") == nil else { return }
        for descriptor: Int32 in [0, 1, 2] where isatty(descriptor) == 1 {
            if let name = ttyname(descriptor) { setenv("GPG_TTY", name, 0); return }
        }
        if let name = controllingPseudoTerminal() { setenv("GPG_TTY", name, 0) }
    }

    /// `/dev/pts/N` of the controlling terminal (`tty_nr` of `/proc/self/stat`), when it is a pseudo-terminal.
    static func controllingPseudoTerminal() -> String? {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: "/proc/self/stat", limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // The fields after the command's closing parenthesis: state, ppid, pgrp, session, tty_nr.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let device = Int(fields[4]) else { return nil }
        let major = (device >> 8) & 0xFFF, minor = (device & 0xFF) | ((device >> 12) & 0xFFF00)
        guard (136...143).contains(major) else { return nil }
        return "/dev/pts/\((major - 136) * 256 + minor)"
    }

    /// A detached, armored signature by `signer` of what `input` holds,
    /// written to `output`: the hash as `micalg` names it (`pgp-sha256`).
    static func sign(_ signer: String, mayAsk: Bool, input: Int32, output: Int32) throws(MailError) -> String {
        var micalg = [CChar](repeating: 0, count: 64)
        var error = [CChar](repeating: 0, count: 512)
        let result = share_pgp_sign(signer, mayAsk ? 1 : 0, input, output, &micalg, micalg.count, &error, error.count)
        try check(result, error)
        return text(micalg)
    }

    /// What `input` holds encrypted (armored) to `protection`'s recipients
    /// and signed by its signer, written to `output`.
    static func encrypt(_ protection: OpenPGPProtection, input: Int32, output: Int32) throws(MailError) {
        var lines = protection.recipients
        if !protection.hiddenRecipients.isEmpty { lines += ["--hidden"] + protection.hiddenRecipients }
        var error = [CChar](repeating: 0, count: 512)
        let result = share_pgp_encrypt(lines.joined(separator: "\n"), protection.signer, protection.mayAsk ? 1 : 0, input, output,
                                       &error, error.count)
        try check(result, error)
    }

    private static func check(_ result: Int32, _ error: [CChar]) throws(MailError) {
        switch result {
        case 0: return
        case -2: throw MailError(.passphrase, "gpg-agent needs the key's passphrase")
        default: throw MailError(.configuration, text(error))
        }
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A private file for a message part on its way through gpg: made with
/// mode 0600 in `$TMPDIR` (or /tmp) and unlinked at once, so nothing is
/// left behind whatever happens; closed when released.
final class ScratchFile {
    let descriptor: Int32

    init() throws(MailError) {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/share-pgp-XXXXXX").utf8CString)
        let made = mkstemp(&template)
        guard made >= 0 else { throw MailError(.io, "cannot make a scratch file in \(base): \(String(cString: strerror(errno)))") }
        _ = fcntl(made, F_SETFD, FD_CLOEXEC)
        _ = template.withUnsafeBufferPointer { name in name.baseAddress.map { unlink($0) } }
        descriptor = made
    }

    deinit { close(descriptor) }

    /// Back to the start, for the next reader.
    func rewind() throws(MailError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw MailError(.io, "cannot read the scratch file back: \(String(cString: strerror(errno)))") }
    }

    /// Hands what the file holds, from the start, to `body` a chunk at a time.
    func chunks(_ body: (UnsafeRawBufferPointer) throws(MailError) -> Void) throws(MailError) {
        try rewind()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw MailError(.io, "cannot read the scratch file back: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
