import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Mail's OpenPGP (RFC 3156 through GPGME): `[mail] pgp-key`, `pgp-sign`
/// and `pgp-encrypt`, `--sign` and `--encrypt`, the form's Ctrl-P, and the
/// keys each message needs, looked up before Send so that a recipient
/// without a key is named before anything goes.
struct MailPGP: Sendable, Equatable {
    /// `pgp-encrypt`: encrypt whenever every recipient has a key, or only when asked.
    enum Encryption: String, Sendable {
        case opportunistic, never
    }

    /// What a message is: the form's Ctrl-P goes through these in turn.
    enum Mode: String, Sendable, CaseIterable {
        case off, sign, signAndEncrypt = "sign+encrypt", encrypt

        var signs: Bool { self == .sign || self == .signAndEncrypt }
        var encrypts: Bool { self == .encrypt || self == .signAndEncrypt }

        init(signs: Bool, encrypts: Bool) {
            self = signs ? (encrypts ? .signAndEncrypt : .sign) : (encrypts ? .encrypt : .off)
        }
    }

    /// `pgp-key`: the fingerprint of the key that signs, and that the message is also encrypted to.
    var key: String?
    /// `pgp-sign = always`.
    var signAlways = false
    var encryption = Encryption.never
    /// Whether a `pgp-*` key is set.
    var configured = false
    /// gpg's home, looked into only when the form is made (not before the picker's first paint).
    var environment: [String: String] = [:]

    /// Whether anything of OpenPGP is configured, or a keyring is there: the form offers Ctrl-P then.
    var offered: Bool { configured || MailPGP.hasSecretKeys(environment: environment) }

    /// The form's key: Ctrl-P.
    static let toggleKey = "C-p"

    init() {}

    /// The `pgp-*` keys of `[mail]`; a bad value is an error naming its line.
    init(_ section: ConfigSection, environment: [String: String]) throws(ConfigurationError) {
        if let entry = section.entry("pgp-key") {
            let fingerprint = entry.value.filter { $0 != " " }.uppercased()
            guard fingerprint.count >= 16, fingerprint.allSatisfy(\.isHexDigit) else {
                throw section.error(entry, "pgp-key is a key's fingerprint (gpg -K shows it), not '\(entry.value)'")
            }
            key = fingerprint
        }
        if let entry = section.entry("pgp-sign") {
            switch entry.value.lowercased() {
            case "always": signAlways = true
            case "never": signAlways = false
            default: throw section.error(entry, "pgp-sign is always or never, not '\(entry.value)'")
            }
        }
        if let entry = section.entry("pgp-encrypt") {
            guard let value = Encryption(rawValue: entry.value.lowercased()) else {
                throw section.error(entry, "pgp-encrypt is opportunistic or never, not '\(entry.value)'")
            }
            encryption = value
        }
        configured = key != nil || section.entry("pgp-sign") != nil || section.entry("pgp-encrypt") != nil
        self.environment = environment
    }

    /// Whether gpg's home holds secret keys (a file in `private-keys-v1.d`): cheap, no gpg run.
    static func hasSecretKeys(environment: [String: String]) -> Bool {
        let home = environment["GNUPGHOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.gnupg"
        return !(LocalFiles.names(inFolder: home + "/private-keys-v1.d") ?? []).isEmpty
    }

    /// The mode a new message starts in: `--sign`/`pgp-sign = always`,
    /// `--encrypt`/`pgp-encrypt = opportunistic`.
    func initialMode(_ request: MailRequest) -> Mode {
        Mode(signs: request.sign || signAlways, encrypts: request.encrypt || encryption == .opportunistic)
    }

    /// Whether a message that cannot be encrypted must not go: asked for
    /// (`--encrypt`, or Ctrl-P when `pgp-encrypt` is not opportunistic),
    /// rather than tried because every recipient might have a key.
    func insists(_ request: MailRequest) -> Bool { request.encrypt || encryption != .opportunistic }

    /// The form's Ctrl-P in `mode`.
    static func toggle(_ mode: Mode) -> FormToggle {
        FormToggle(id: "pgp", label: "OpenPGP", key: toggleKey, states: [
            FormToggle.State(value: Mode.off.rawValue, title: ""),
            FormToggle.State(value: Mode.sign.rawValue, title: Localization.text("Signed")),
            FormToggle.State(value: Mode.signAndEncrypt.rawValue, title: Localization.text("Signed · Encrypted")),
            FormToggle.State(value: Mode.encrypt.rawValue, title: Localization.text("Encrypted")),
        ], selected: Mode.allCases.firstIndex(of: mode) ?? 0)
    }

    /// What the keys make of a message in `mode`: its protection, or why it cannot go.
    struct Plan: Sendable, Equatable {
        var protection: OpenPGPProtection?
        /// What the person should know and confirm (encryption left out for want of keys).
        var warning: String?
        /// Why it cannot go as asked: a missing key, gpg not there.
        var problem: String?
    }

    /// The keys for a message in `mode` from `from` to `visible` (To and
    /// Cc) and `hidden` (Bcc) recipients, looked up in gpg's keyring.
    func plan(_ mode: Mode, from: String?, visible: [String], hidden: [String], insists: Bool) -> Plan {
        guard mode != .off else { return Plan() }
        do throws(MailError) {
            var signer: String?
            if mode.signs {
                guard let found = try lookUp(from: from, secret: true) else {
                    return Plan(problem: key.map { "the secret key \($0) ([mail] pgp-key) cannot sign: gpg -K lists the secret keys" }
                        ?? "no secret OpenPGP key for \(from ?? "the sender") to sign with: set [mail] pgp-key = FINGERPRINT")
                }
                signer = found
            }
            guard mode.encrypts else { return Plan(protection: OpenPGPProtection(signer: signer)) }
            // To the sender too, so that the drafts and the sent copy stay readable.
            let own = try lookUp(from: from, secret: false)
            var missing = own == nil ? [from ?? "yourself"] : []
            var recipients = own.map { [$0] } ?? []
            var hiddenRecipients: [String] = []
            for address in MailPGP.unique(visible + hidden) {
                guard let found = try OpenPGP.key(forAddress: address, secret: false) else {
                    missing.append(address)
                    continue
                }
                if hidden.contains(address) && !visible.contains(address) {
                    hiddenRecipients.append(found)
                } else if !recipients.contains(found) {
                    recipients.append(found)
                }
            }
            guard !missing.isEmpty else {
                return Plan(protection: OpenPGPProtection(signer: signer, recipients: recipients, hiddenRecipients: hiddenRecipients))
            }
            let names = missing.joined(separator: ", ")
            if insists {
                return Plan(problem: Localization.text("No OpenPGP key for %@: import it (gpg --import), or send without encryption", names))
            }
            // Opportunistic: what can be done, said first.
            return Plan(protection: signer.map { OpenPGPProtection(signer: $0) },
                        warning: signer == nil ? Localization.text("No OpenPGP key for %@: the message goes unencrypted.", names)
                            : Localization.text("No OpenPGP key for %@: the message goes signed, not encrypted.", names))
        } catch {
            return Plan(problem: error.message)
        }
    }

    /// The sender's key: `pgp-key`'s, else the From address's.
    private func lookUp(from: String?, secret: Bool) throws(MailError) -> String? {
        if let key { return try OpenPGP.key(key, secret: secret) }
        guard let from else { return nil }
        return try OpenPGP.key(forAddress: from, secret: secret)
    }

    /// The addresses once each, in order, compared without case.
    static func unique(_ addresses: [String]) -> [String] {
        var seen = Set<String>()
        return addresses.filter { seen.insert($0.lowercased()).inserted }
    }

    /// The addr-specs of an address field's value (what parses of it).
    static func addresses(_ value: String) -> [String] {
        guard !value.trimmingWhitespace().isEmpty, let list = try? AddressList.parse(value) else { return [] }
        return AddressList.mailboxes(list).map(\.addrSpec)
    }
}
