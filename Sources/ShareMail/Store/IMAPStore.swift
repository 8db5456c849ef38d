import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport
import Synchronization

/// A folder on an IMAP server that keeps sent copies or drafts
/// (`sent = imap:Sent`, `drafts = imap:auto`): its server, the login, and
/// the folder's name, or the SPECIAL-USE attribute (RFC 6154) that finds it.
public struct IMAPFolder: Sendable, Equatable {
    /// Which folder.
    public enum Name: Sendable, Equatable {
        /// A folder by name (`Sent`, `INBOX.Drafts`).
        case named(String)
        /// The folder the server marks with this attribute (`\Sent`, `\Drafts`).
        case specialUse(String)
    }

    /// The server: `imaps://host[:port]` or `imap://host[:port]` (STARTTLS).
    public var serverURL: String
    /// The login (a password or the account's OAuth2 token).
    public var login: MailLogin
    /// Whether STARTTLS is required on `imap://` (`tls`).
    public var requireTLS: Bool
    /// A CA bundle to trust instead of the system's (`ca-file`).
    public var caFile: String?
    /// The folder.
    public var name: Name

    /// Reads `imap = imaps://USER@HOST[:PORT]`.
    /// - Throws: ``MailError`` for another scheme, a missing host, or a password in the URL.
    public init(url: String, name: Name, login method: MailLogin.Method, requireTLS: Bool = true, caFile: String? = nil,
                section: String = "mail", commandTimeout: Double = 30) throws(MailError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "imap" || scheme == "imaps" else {
            throw MailError(.configuration, "'\(url)' is not an imaps:// or imap:// URL")
        }
        guard let host = components.host, !host.isEmpty else { throw MailError(.configuration, "'\(url)' names no server") }
        if components.password != nil {
            throw MailError(.configuration, "'\(url)' has a password in it; use imap-password-command or password-command instead")
        }
        let port = components.port.map { ":\($0)" } ?? ""
        serverURL = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port)"
        login = MailLogin(username: components.user, method: method, section: section, commandTimeout: commandTimeout)
        self.requireTLS = requireTLS
        self.caFile = caFile
        self.name = name
    }

    /// The folder for people: `imaps://host/Sent`, or `imaps://host (\Sent)`.
    public var summary: String {
        switch name {
        case .named(let folder): "\(serverURL)/\(folder)"
        case .specialUse(let use): "\(serverURL) (\(use))"
        }
    }
}

/// What an APPEND stored: the folder's name and the message's UID, when
/// the server says (UIDPLUS' `APPENDUID`).
public struct IMAPStored: Sendable, Equatable {
    public var folder: String
    public var uid: Int?
    /// Where it is, for people and results: `imaps://host/Sent;UID=7`.
    public var location: String
}

/// One connection to an IMAP server through libcurl's IMAP, which does
/// the protocol (login, SELECT, APPEND, the literal); share adds the
/// commands libcurl has no option for as custom requests (LIST with
/// SPECIAL-USE, UID SEARCH, UID STORE, UID EXPUNGE), read back from the
/// server's lines. The handle keeps the connection between requests.
public final class IMAPSession {
    let folder: IMAPFolder
    private let handle: UnsafeMutableRawPointer
    private var secret: String?
    private var resolved: String?

    /// Opens a session (the connection is made by the first request).
    public init(_ folder: IMAPFolder) throws(MailError) {
        try CurlRuntime.start()
        guard let handle = share_curl_easy_init() else { throw MailError(.io, "libcurl could not start") }
        self.folder = folder
        self.handle = handle
    }

    deinit {
        MailLogin.forget(on: handle)
        share_curl_easy_cleanup(handle)
    }

    /// The folder's name on the server: as configured, or the one LIST
    /// marks with the SPECIAL-USE attribute.
    public func folderName() throws(MailError) -> String {
        if let resolved { return resolved }
        switch folder.name {
        case .named(let name):
            resolved = name
            return name
        case .specialUse(let use):
            let lines = try request(path: "", command: "LIST \"\" \"*\" RETURN (SPECIAL-USE)")
            for line in lines {
                guard let listed = IMAPLines.listedFolder(line), listed.attributes.contains(where: { $0.lowercased() == use.lowercased() })
                else { continue }
                resolved = listed.name
                return listed.name
            }
            throw MailError(.configuration, "\(folder.serverURL) has no folder marked \(use) (SPECIAL-USE); name one, such as imap:Sent")
        }
    }

    /// APPENDs the message file at `path` (as stored: CRLF lines, Bcc kept)
    /// to the folder, flagged `\Seen` (libcurl's APPEND flags it so); a
    /// draft is flagged `\Draft` too.
    public func append(file path: String, draft: Bool = false) throws(MailError) -> IMAPStored {
        let name = try folderName()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MailError(.io, "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MailError(.io, "cannot read \(path): \(String(cString: strerror(errno)))") }
        let source = FileSource(fd: fd)
        let lines = try withExtendedLifetime(source) { () throws(MailError) -> [String] in
            try perform(path: name) { handle in
                share_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
                share_curl_setopt_long(handle, CURLOPT_INFILESIZE_LARGE, Int(info.st_size))
                share_curl_setopt_read_function(handle) { buffer, size, count, context in
                    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
                    let source = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
                    let read = source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
                    return read < 0 ? Int(CURL_READFUNC_ABORT) : read
                }
                share_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque())
            }
        }
        let uid = lines.lazy.compactMap(IMAPLines.appendUID).first
        if draft, let uid { _ = try request(path: name, command: "UID STORE \(uid) +FLAGS.SILENT (\\Draft)") }
        return IMAPStored(folder: name, uid: uid, location: "\(folder.serverURL)/\(name)" + (uid.map { ";UID=\($0)" } ?? ""))
    }

    /// The UIDs of the messages in the folder whose Message-ID is `messageID`.
    public func search(messageID: String) throws(MailError) -> [Int] {
        let name = try folderName()
        let quoted = messageID.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return try request(path: name, command: "UID SEARCH HEADER Message-ID \"\(quoted)\"").flatMap(IMAPLines.searched)
    }

    /// The UIDs of every message in the folder that is not deleted, oldest first.
    public func allUIDs() throws(MailError) -> [Int] {
        let name = try folderName()
        return try request(path: name, command: "UID SEARCH UNDELETED").flatMap(IMAPLines.searched).sorted()
    }

    /// Removes the message `uid` from the folder: flagged `\Deleted`, then
    /// expunged by its UID alone (UIDPLUS), so another deleted message stays.
    public func delete(uid: Int) throws(MailError) {
        let name = try folderName()
        _ = try request(path: name, command: "UID STORE \(uid) +FLAGS.SILENT (\\Deleted)")
        _ = try request(path: name, command: "UID EXPUNGE \(uid)")
    }

    /// The message `uid`, written to the file at `path`.
    public func fetch(uid: Int, to path: String) throws(MailError) {
        let name = try folderName()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MailError(.io, "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let sink = FileSource(fd: fd)
        _ = try withExtendedLifetime(sink) { () throws(MailError) -> [String] in
            try perform(path: PercentEncoding.encoded(name) + "/;UID=\(uid)", escaped: true) { handle in
                share_curl_setopt_write_function(handle) { data, size, count, context in
                    guard let data, let context else { return 0 }
                    let sink = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
                    return sink.write(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
                }
                share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
            }
        }
    }

    /// A custom command on the folder at `path` (selected first when named); the server's lines.
    private func request(path: String, command: String) throws(MailError) -> [String] {
        try perform(path: path) { handle in
            share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, command)
            // The untagged answers are read from the session's lines, not the body.
            share_curl_setopt_write_function(handle) { _, size, count, _ in size * count }
        }
    }

    /// One request on the connection: the URL for `path`, TLS and the
    /// login, what `setUp` adds; the server's lines. An OAuth2 token the
    /// server refuses is asked for once more, as SMTP does.
    private func perform(path: String, escaped: Bool = false,
                         setUp: (UnsafeMutableRawPointer) -> Void) throws(MailError) -> [String] {
        var attempt = 0
        let login = folder.login
        while true {
            attempt += 1
            if secret == nil { secret = try login.secret() }
            let log = IMAPLog()
            let url = folder.serverURL + "/" + (escaped ? path : PercentEncoding.encoded(path))
            let tls = folder.requireTLS || folder.serverURL.hasPrefix("imaps")
            let (code, said) = MailServerTransfer.perform(on: handle, url: url, tls: tls, caFile: folder.caFile,
                                                          transcript: log.append) { handle in
                // Each request sets what it needs; what the last one set goes. A body
                // nobody asked for is dropped, never written to standard output (libcurl's default).
                share_curl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, nil)
                share_curl_setopt_long(handle, CURLOPT_UPLOAD, 0)
                share_curl_setopt_write_function(handle) { _, size, count, _ in size * count }
                login.apply(secret, to: handle)
                setUp(handle)
            }
            if code == CURLE_OK { return log.lines }
            if code == CURLE_LOGIN_DENIED {
                secret = nil
                if login.isOAuth2 && attempt == 1 { continue }
                throw login.refused(folder.serverURL, reply: log.refusal)
            }
            if code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CACERT_BADFILE {
                throw MailError(.rejected, "certificate verification failed for \(folder.serverURL) (set ca-file for a private server): \(said)")
            }
            if code == CURLE_USE_SSL_FAILED {
                throw MailError(.rejected, "\(folder.serverURL) does not offer STARTTLS; share will not log in in clear text (use imaps://)")
            }
            let refusal = log.refusal.isEmpty ? "" : " (\(log.refusal))"
            throw MailError(.rejected, "\(folder.serverURL)/\(path): \(said)\(refusal)")
        }
    }
}

/// A file descriptor read from (an APPEND's message) or written to (a FETCH's).
final class FileSource {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do throws(FileError) { try LocalFiles.writeAll(bytes, to: fd) } catch { return false }
        return true
    }
}

/// The server's lines of one request, for its answers and for messages.
/// What share sends after an AUTHENTICATE or LOGIN is a credential: never kept.
final class IMAPLog {
    private(set) var lines: [String] = []
    /// The first tagged NO or BAD, if any.
    private(set) var refusal = ""
    private var authenticating = false

    func append(_ bytes: UnsafeRawBufferPointer, sent: Bool) {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
        guard !text.isEmpty else { return }
        if sent {
            let words = text.split(separator: " ")
            if words.count > 1, ["AUTHENTICATE", "LOGIN"].contains(words[1].uppercased()) { authenticating = true }
            return
        }
        if !text.hasPrefix("+") { authenticating = false }
        guard lines.count < 10_000 else { return }
        lines.append(text)
        let words = text.split(separator: " ", maxSplits: 2)
        if refusal.isEmpty, words.count >= 2, words[0] != "*", ["NO", "BAD"].contains(words[1].uppercased()) { refusal = text }
    }
}

/// Reading the server's lines.
enum IMAPLines {
    /// `* LIST (\HasNoChildren \Sent) "/" "Sent Messages"` → its attributes and name.
    static func listedFolder(_ line: String) -> (attributes: [String], name: String)? {
        guard line.hasPrefix("* LIST ("), let close = line.firstIndex(of: ")") else { return nil }
        let attributes = line[line.index(line.startIndex, offsetBy: 8)..<close].split(separator: " ").map(String.init)
        var rest = line[line.index(after: close)...].drop { $0 == " " }
        // The delimiter: a quoted character or NIL.
        if rest.hasPrefix("NIL") {
            rest = rest.dropFirst(3)
        } else if rest.first == "\"" {
            rest = rest.dropFirst()
            if rest.first == "\\" { rest = rest.dropFirst() }
            rest = rest.dropFirst(2)
        }
        rest = rest.drop { $0 == " " }
        guard rest.first == "\"" else { return (attributes, String(rest.prefix { $0 != " " })) }
        var name = ""
        var escaped = false
        for character in rest.dropFirst() {
            if escaped {
                name.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                name.append(character)
            }
        }
        return (attributes, name)
    }

    /// `A004 OK [APPENDUID 1733 7] Append completed.` → 7.
    static func appendUID(_ line: String) -> Int? {
        guard let range = line.firstRange(of: "[APPENDUID ") else { return nil }
        let words = line[range.upperBound...].prefix { $0 != "]" }.split(separator: " ")
        return words.count == 2 ? Int(words[1]) : nil
    }

    /// `* SEARCH 3 7` → [3, 7].
    static func searched(_ line: String) -> [Int] {
        guard line.hasPrefix("* SEARCH") else { return [] }
        return line.dropFirst(8).split(separator: " ").compactMap { Int($0) }
    }
}

/// The draft a compose screen keeps on the IMAP server (`drafts =
/// imap:…`): each save APPENDs the new one and then deletes the one
/// before by its UID, so the folder holds one draft per message and never
/// none while a save is in flight.
public final class IMAPDraftSlot: Sendable {
    private let state = Mutex<(folder: IMAPFolder, uid: Int)?>(nil)

    public init() {}

    /// The draft on the server now: its folder and UID.
    public var current: (folder: IMAPFolder, uid: Int)? { state.withLock { $0 } }

    /// Takes `uid` in `folder` as the draft this screen replaces next (a draft reopened from the server).
    public func adopt(_ folder: IMAPFolder, uid: Int) { state.withLock { $0 = (folder, uid) } }

    /// Stores the draft file at `path` in `folder` (flagged `\Draft`) and
    /// deletes the one it replaces. Where it is now.
    @discardableResult
    public func store(_ path: String, in folder: IMAPFolder) throws(MailError) -> IMAPStored {
        let session = try IMAPSession(folder)
        var stored = try session.append(file: path, draft: true)
        if stored.uid == nil, let id = try? MessageFile(path: path).header("Message-ID")?.trimmingWhitespace() {
            // Without UIDPLUS the new draft is found by its Message-ID.
            stored.uid = try session.search(messageID: id).max()
        }
        let previous = state.withLock { slot in
            defer { slot = stored.uid.map { (folder, $0) } }
            return slot
        }
        if let previous, previous.uid != stored.uid || previous.folder != folder {
            try (previous.folder == folder ? session : IMAPSession(previous.folder)).delete(uid: previous.uid)
        }
        return stored
    }

    /// Deletes the draft from the server (its message was sent or queued).
    public func discard() throws(MailError) {
        guard let previous = state.withLock({ slot in defer { slot = nil }; return slot }) else { return }
        try IMAPSession(previous.folder).delete(uid: previous.uid)
    }
}
