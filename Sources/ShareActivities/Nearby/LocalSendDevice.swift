import CCrypto
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// A LocalSend device (protocol v2.1, the `localsend/protocol`
/// repository's README) as it made itself known: by multicast, by
/// registering with us, or by answering our register.
public struct LocalSendDevice: Sendable, Equatable {
    /// The name its owner gave it (`Kim's Pixel`).
    public var alias: String
    /// Its make or system (`Samsung`, `Linux`), when it says.
    public var model: String?
    /// `mobile`, `desktop`, `web`, `headless` or `server` (anything else is shown as a desktop).
    public var type: String
    /// The SHA-256 of its certificate (HTTPS), or a random string (HTTP).
    public var fingerprint: String
    public var host: String
    public var port: Int
    /// Whether it serves HTTPS (its certificate then has ``fingerprint``'s digest) or plain HTTP.
    public var isHTTPS: Bool

    public init(alias: String, model: String?, type: String, fingerprint: String, host: String, port: Int, isHTTPS: Bool) {
        self.alias = alias
        self.model = model
        self.type = type
        self.fingerprint = fingerprint
        self.host = host
        self.port = port
        self.isHTTPS = isHTTPS
    }

    /// `HOST:PORT` (`[HOST]:PORT` for IPv6).
    public var address: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// Where its API is (`https://192.168.1.20:53317`).
    var url: String { (isHTTPS ? "https://" : "http://") + address }

    /// The icon of its type, as LocalSend draws one.
    public var icon: String {
        switch type {
        case "mobile": "📱"
        case "web": "🌐"
        case "headless": "⌨️"
        case "server": "🗄️"
        default: "💻"
        }
    }

    /// `Kim's Pixel (Samsung, mobile)`: the alias and what it is.
    public var label: String {
        alias + " (" + ([model, type].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")) + ")"
    }

    /// The 32 bytes its certificate's digest must be, from ``fingerprint``
    /// (hexadecimal in any case, with or without colons); `nil` when it is not one.
    var certificateDigest: [UInt8]? {
        let hex = fingerprint.filter { $0 != ":" }.lowercased()
        guard hex.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// Whether `query` names it: its alias in any case, or its address
    /// (`HOST:PORT`, or `HOST` for the default port).
    public func matches(_ query: String) -> Bool {
        let query = query.trimmingWhitespace()
        if alias.lowercased() == query.lowercased() { return true }
        if query == address || query == host + ":\(port)" { return true }
        return port == LocalSendDevice.defaultPort && query == host
    }

    /// The protocol's port, UDP and TCP.
    public static let defaultPort = 53317

    /// A device from its info (an announcement, a register body or
    /// answer) sent from `host`; `nil` when the info is not LocalSend's.
    /// `port` and `scheme` stand in when the info leaves them out (a
    /// register answer does).
    static func from(_ info: LocalSendInfo, host: String, port: Int? = nil, https: Bool? = nil) -> LocalSendDevice? {
        let alias = info.alias.trimmingWhitespace()
        // A datagram from 0.0.0.0 (a multicast route without a source address) names no one to answer.
        guard !alias.isEmpty, let fingerprint = info.fingerprint, !fingerprint.isEmpty, host != "0.0.0.0", !host.isEmpty else { return nil }
        let givenPort = info.port ?? port ?? defaultPort
        guard (1...65_535).contains(givenPort) else { return nil }
        let isHTTPS = info.protocol.map { $0.lowercased() != "http" } ?? https ?? true
        return LocalSendDevice(alias: String(alias.prefix(64)), model: info.deviceModel.map { String($0.prefix(64)) },
                               type: info.deviceType ?? "desktop", fingerprint: fingerprint, host: host, port: givenPort, isHTTPS: isHTTPS)
    }
}

/// A device's info as the protocol writes it: announcements, register
/// bodies and answers, and the `info` of a prepare-upload.
struct LocalSendInfo: Codable, Sendable {
    var alias: String
    var version: String?
    var deviceModel: String?
    var deviceType: String?
    var fingerprint: String?
    var port: Int?
    var `protocol`: String?
    var download: Bool?
    var announce: Bool?

    /// The info in `bytes`, or `nil` when they are not a device's JSON.
    static func decoded(_ bytes: some Collection<UInt8>) -> LocalSendInfo? {
        try? JSONDecoder().decode(LocalSendInfo.self, from: Data(bytes))
    }
}

/// Who share is to LocalSend devices: its alias, and the self-signed
/// certificate of its register listener, whose SHA-256 is its fingerprint.
/// Made once and kept (`$XDG_STATE_HOME/share/localsend/identity.pem`, the
/// key and the certificate in one file written at once, so that they
/// always belong together), as phones remember a device by its fingerprint.
struct LocalSendIdentity: Sendable {
    var alias: String
    /// The certificate's SHA-256, lower-case hexadecimal.
    var fingerprint: String
    var certificate: String
    var key: String

    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The identity kept in `folder`, made there the first time; `alias`
    /// is what the other side sees (`share@HOST`).
    static func load(folder: String, alias: String = "share@" + HostName.current) throws(Failure) -> LocalSendIdentity {
        let path = folder + "/identity.pem"
        if let identity = read(path, alias: alias) { return identity }
        // The two files of earlier versions, each replaced on its own: kept while the key is the certificate's, in the one file from now on.
        let certificatePath = folder + "/certificate.pem", keyPath = folder + "/key.pem"
        if case .success(let certificate) = LocalFiles.contents(ofFile: certificatePath),
           case .success(let key) = LocalFiles.contents(ofFile: keyPath),
           let identity = make(alias: alias, certificate: String(decoding: certificate, as: UTF8.self), key: String(decoding: key, as: UTF8.self)) {
            if (try? keep(identity, at: path, alias: alias)) != nil {
                unlink(certificatePath)
                unlink(keyPath)
            }
            return identity
        }
        var certificate = [CChar](repeating: 0, count: 8192), key = [CChar](repeating: 0, count: 8192)
        var error = [CChar](repeating: 0, count: 256)
        guard share_self_signed_certificate("share", Int.random(in: 1...Int(Int32.max)), &certificate, certificate.count, &key, key.count,
                                            &error, error.count) == 0 else {
            throw Failure(description: "cannot make LocalSend's certificate: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let certificateText = String(decoding: certificate.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), keyText = String(decoding: key.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let made = make(alias: alias, certificate: certificateText, key: keyText) else {
            throw Failure(description: "LocalSend's new certificate cannot be read")
        }
        if let failure = LocalFiles.createFolders(folder) { throw Failure(description: "cannot keep LocalSend's certificate: \(failure)") }
        do throws(FileReplaceError) {
            try keep(made, at: path, alias: alias)
        } catch {
            // Another share made one meanwhile (two first runs at once): theirs, so that both are the same device.
            if let theirs = read(path, alias: alias) { return theirs }
            throw Failure(description: "cannot keep LocalSend's certificate: \(error)")
        }
        return made
    }

    /// Writes `identity`'s key and certificate to `path` at once (readable
    /// by its owner alone); refused, and the file left as it is, when an
    /// identity appeared there meanwhile.
    private static func keep(_ identity: LocalSendIdentity, at path: String, alias: String) throws(FileReplaceError) {
        try LocalFiles.replace(path, with: Array((identity.key + identity.certificate).utf8), mode: 0o600) { () throws(FileReplaceError) in
            if read(path, alias: alias) != nil { throw FileReplaceError("\(path) was made meanwhile") }
        }
    }

    /// The identity in the file at `path`, when its key is its certificate's.
    private static func read(_ path: String, alias: String) -> LocalSendIdentity? {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let key = pemBlock(in: text, labelled: { $0.hasSuffix("PRIVATE KEY") }),
              let certificate = pemBlock(in: text, labelled: { $0 == "CERTIFICATE" }) else { return nil }
        return make(alias: alias, certificate: certificate, key: key)
    }

    /// The identity of `certificate` and `key`, when the key is the certificate's.
    private static func make(alias: String, certificate: String, key: String) -> LocalSendIdentity? {
        var error = [CChar](repeating: 0, count: 256)
        guard let der = derOfPEM(certificate), share_key_matches_certificate(certificate, key, &error, error.count) == 1 else { return nil }
        return LocalSendIdentity(alias: alias, fingerprint: SHA256.hex(der), certificate: certificate, key: key)
    }

    /// The first block of `text` (`-----BEGIN LABEL-----` to its end line,
    /// those lines included) whose label `matches`.
    static func pemBlock(in text: String, labelled matches: (String) -> Bool) -> String? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        for (index, line) in lines.enumerated() where line.hasPrefix("-----BEGIN ") && line.hasSuffix("-----") {
            let label = String(line.dropFirst(11).dropLast(5))
            guard matches(label), let end = lines[index...].firstIndex(of: "-----END " + label + "-----") else { continue }
            return lines[index...end].joined(separator: "\n") + "\n"
        }
        return nil
    }

    /// The DER bytes of the first certificate in `pem`.
    static func derOfPEM(_ pem: String) -> [UInt8]? {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
        guard let start = lines.firstIndex(of: "-----BEGIN CERTIFICATE-----"),
              let end = lines[start...].firstIndex(of: "-----END CERTIFICATE-----") else { return nil }
        return Data(base64Encoded: lines[(start + 1)..<end].joined()).map { Array($0) }
    }

    /// share's info for LocalSend: announced (`announce` set), registered
    /// or sent with a prepare-upload; `port` is the register listener's.
    func info(port: Int, announce: Bool? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("alias", .string(alias)), ("version", .string("2.1")), ("deviceModel", .string("share")),
            ("deviceType", .string("headless")), ("fingerprint", .string(fingerprint)), ("port", .number(port)),
            ("protocol", .string("https")), ("download", .bool(false)),
        ]
        if let announce { members.append(("announce", .bool(announce))) }
        return .object(members)
    }
}
