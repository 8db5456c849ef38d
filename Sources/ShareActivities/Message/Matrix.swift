import FoundationEssentials
import ShareCore
import ShareSupport
import CThumbnail
#if canImport(Glibc)
import Glibc
#endif

/// A Matrix account: a `[message.NAME]` section with `type = matrix`.
///
/// Its access token comes from `token-command`, or from logging in once
/// with `password-command`: that token is kept in share's state folder
/// (mode 0600) and used until the server refuses it.
public struct MatrixAccount: Sendable, Equatable {
    /// The section's NAME.
    public var name: String
    /// The homeserver's address (`https://matrix.example.org`).
    public var homeserver: String
    /// The account's Matrix ID (`@kim:example.org`).
    public var user: String
    public var tokenCommand: String?
    public var passwordCommand: String?
    public var caFile: String?
    /// The config file the section is in, which `share --undo` reads again.
    public var configFile = "config"

    /// A `type = matrix` section.
    static func parse(_ section: ConfigSection, name: String, environment: [String: String]) throws(ConfigurationError) -> MatrixAccount {
        guard let homeserver = section.value("homeserver")?.trimmingWhitespace(), !homeserver.isEmpty else {
            throw ConfigurationError("\(section.file): [\(section.name)] (type = matrix) needs `homeserver = https://…`")
        }
        let scheme = homeserver.prefix { $0 != ":" }.lowercased()
        guard (scheme == "https" || scheme == "http") && homeserver.contains("://") else {
            throw ConfigurationError("\(section.file): [\(section.name)] homeserver is an https:// address, not '\(homeserver)'")
        }
        guard let user = section.value("user")?.trimmingWhitespace(), MatrixAccount.isUserID(user) else {
            throw ConfigurationError("\(section.file): [\(section.name)] (type = matrix) needs `user = @NAME:SERVER` (your Matrix ID)")
        }
        let token = section.value("token-command"), password = section.value("password-command")
        guard (token == nil) != (password == nil) else {
            throw ConfigurationError("\(section.file): [\(section.name)] needs exactly one of token-command and password-command")
        }
        return MatrixAccount(name: name, homeserver: homeserver.hasSuffix("/") ? String(homeserver.dropLast()) : homeserver, user: user,
                             tokenCommand: token, passwordCommand: password, caFile: try section.path("ca-file", environment: environment),
                             configFile: LocalFiles.absolutePath(section.file))
    }

    /// `@name:server`.
    static func isUserID(_ text: String) -> Bool { text.hasPrefix("@") && isAddress(text) }

    /// A room or person as Matrix names them: `#alias:server`, `!id:server` or `@user:server`.
    static func isAddress(_ text: String) -> Bool {
        guard let first = text.first, "#!@".contains(first), let colon = text.firstIndex(of: ":") else { return false }
        return colon > text.index(after: text.startIndex) && text.index(after: colon) < text.endIndex
            && !text.contains(where: { $0.isWhitespace || $0 == "/" })
    }
}

/// Why a Matrix step failed, in words; `encrypted` for a room share cannot post in.
struct MatrixFailure: Error, Sendable {
    var message: String
    var encrypted = false
}

/// One session with a homeserver: the token found (or logged in for),
/// each request authorized, and Matrix's errors turned into words.
struct MatrixSession: Sendable {
    let account: MatrixAccount
    /// Where a token logged in for is kept (`$XDG_STATE_HOME/share/matrix`).
    let tokenFolder: String
    let commandTimeout: Double
    let environment: [String: String]
    private(set) var token = ""

    init(account: MatrixAccount, tokenFolder: String, commandTimeout: Double, environment: [String: String]) throws(MatrixFailure) {
        self.account = account
        self.tokenFolder = tokenFolder
        self.commandTimeout = commandTimeout
        self.environment = environment
        token = try findToken(fresh: false)
    }

    private var tokenFile: String { tokenFolder + "/" + account.name + ".token" }

    /// The access token: `token-command`'s, else the one kept, else a new login.
    private func findToken(fresh: Bool) throws(MatrixFailure) -> String {
        if let command = account.tokenCommand {
            do { return try PasswordCommand.run(command, timeout: commandTimeout, section: "message.\(account.name)").trimmingWhitespace() } catch {
                throw MatrixFailure(message: "[message.\(account.name)] token-command: " + error.message.replacingPrefix("password-command ", with: ""))
            }
        }
        if !fresh, case .success(let bytes) = LocalFiles.contents(ofFile: tokenFile, limit: 4096) {
            let kept = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
            if !kept.isEmpty { return kept }
        }
        return try login()
    }

    /// Logs in with `password-command`'s password and keeps the token (mode 0600).
    private func login() throws(MatrixFailure) -> String {
        let password: String
        do { password = try PasswordCommand.run(account.passwordCommand ?? "", timeout: commandTimeout, section: "message.\(account.name)") } catch {
            throw MatrixFailure(message: "[message.\(account.name)] " + error.message)
        }
        let body = JSONValue.object([("type", .string("m.login.password")),
                                     ("identifier", .object([("type", .string("m.id.user")), ("user", .string(account.user))])),
                                     ("password", .string(password)), ("initial_device_display_name", .string("share"))])
        let response = try send("POST", "/_matrix/client/v3/login", body: .json(body), authorized: false)
        struct Answer: Decodable { var access_token: String? }
        guard response.isSuccess, let token = response.decoded(Answer.self)?.access_token else {
            throw MatrixFailure(message: "\(account.homeserver) refused the login of \(account.user)" + MatrixSession.said(response))
        }
        _ = LocalFiles.createFolders(tokenFolder)
        do { try LocalFiles.replace(tokenFile, with: Array((token + "\n").utf8), mode: 0o600) } catch {
            throw MatrixFailure(message: "cannot keep the Matrix token: \(error.description)")
        }
        return token
    }

    /// One request to the homeserver (`path` from `/_matrix/…`), with the token unless `authorized` is false.
    func send(_ method: String, _ path: String, body: HTTPClient.Body = .none, headers: [(String, String)] = [],
              authorized: Bool = true, progress: ((Int, Int) -> Bool)? = nil) throws(MatrixFailure) -> HTTPClient.Response {
        let client = HTTPClient(protocols: "http,https", caFile: account.caFile, stallSeconds: 60, connectSeconds: 30)
        do {
            return try client.perform(method, account.homeserver + path,
                                      headers: (authorized ? [("Authorization", "Bearer " + token)] : []) + headers, body: body, progress: progress)
        } catch {
            throw MatrixFailure(message: "\(account.homeserver) cannot be reached: \(error.reason)")
        }
    }

    /// Like ``send(_:_:body:headers:authorized:progress:)``, logging in again once when a kept token is refused.
    mutating func call(_ method: String, _ path: String, body: HTTPClient.Body = .none, headers: [(String, String)] = [],
                       progress: ((Int, Int) -> Bool)? = nil) throws(MatrixFailure) -> HTTPClient.Response {
        let response = try send(method, path, body: body, headers: headers, progress: progress)
        guard response.status == 401, account.passwordCommand != nil else { return response }
        token = try findToken(fresh: true)
        return try send(method, path, body: body, headers: headers, progress: progress)
    }

    /// `: ERRCODE: error` of a Matrix error answer, or its start.
    static func said(_ response: HTTPClient.Response) -> String {
        struct Error: Decodable { var errcode: String?; var error: String? }
        if let error = response.decoded(Error.self), error.errcode != nil || error.error != nil {
            return " (HTTP \(response.status): " + [error.errcode, error.error].compactMap { $0 }.joined(separator: ": ") + ")"
        }
        return " (HTTP \(response.status)" + (response.excerpt.isEmpty ? "" : ": \(response.excerpt)") + ")"
    }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String { PercentEncoding.encoded(text) }
}

/// Sends a share to Matrix rooms and people: text as `m.text` (with an
/// HTML body that links its links), each file uploaded to the media
/// repository and sent as `m.image` or `m.file` with its info, each event
/// with a transaction id of its own so a retry never posts twice.
struct MatrixDelivery: Sendable {
    var session: MatrixSession

    /// What was sent to one recipient: the room, the event ids, or why not.
    struct Sent: Sendable {
        var recipient: String
        var room: String?
        var events: [String]
        var refusal: String?
        var encrypted = false
    }

    /// Sends `text` and `files` to each of `recipients`.
    mutating func deliver(text: String, files: [XMPPDelivery.Upload], to recipients: [String]) -> [Sent] {
        var uploads: [Uploaded] = []
        if !files.isEmpty {
            do throws(MatrixFailure) { uploads = try upload(files) } catch {
                return recipients.map { Sent(recipient: $0, room: nil, events: [], refusal: error.message) }
            }
        }
        var sent: [Sent] = []
        for recipient in recipients {
            do throws(MatrixFailure) {
                let room = try self.room(for: recipient)
                try refuseEncrypted(room, named: recipient)
                var events: [String] = []
                if !text.isEmpty { events.append(try post(MatrixDelivery.textContent(text), to: room)) }
                for upload in uploads { events.append(try post(MatrixDelivery.fileContent(upload), to: room)) }
                sent.append(Sent(recipient: recipient, room: room, events: events))
            } catch {
                sent.append(Sent(recipient: recipient, room: nil, events: [], refusal: error.message, encrypted: error.encrypted))
            }
        }
        return sent
    }

    // MARK: - Rooms

    /// The room id of a recipient: an id as it is, an alias looked up, a
    /// person's direct room (one there is, or a new one).
    mutating func room(for recipient: String) throws(MatrixFailure) -> String {
        switch recipient.first {
        case "!": return recipient
        case "#":
            let response = try session.call("GET", "/_matrix/client/v3/directory/room/" + MatrixSession.segment(recipient))
            struct Answer: Decodable { var room_id: String? }
            guard response.isSuccess, let room = response.decoded(Answer.self)?.room_id else {
                throw MatrixFailure(message: "no room \(recipient) on \(session.account.homeserver)" + MatrixSession.said(response))
            }
            return room
        default:
            return try directRoom(with: recipient)
        }
    }

    /// The direct room with `person`: the first of `m.direct` that share's
    /// account is still in, else one made (`is_direct`, `person` invited)
    /// and added to `m.direct`.
    mutating func directRoom(with person: String) throws(MatrixFailure) -> String {
        let me = MatrixSession.segment(session.account.user)
        let direct = try session.call("GET", "/_matrix/client/v3/user/\(me)/account_data/m.direct")
        let rooms = (direct.isSuccess ? direct.decoded([String: [String]].self) : nil) ?? [:]
        if let candidates = rooms[person], !candidates.isEmpty {
            let joined = try session.call("GET", "/_matrix/client/v3/joined_rooms")
            struct Joined: Decodable { var joined_rooms: [String] }
            let mine = Set(joined.decoded(Joined.self)?.joined_rooms ?? [])
            if let room = candidates.first(where: mine.contains) { return room }
        }
        let made = try session.call("POST", "/_matrix/client/v3/createRoom", body: .json(.object([
            ("is_direct", .bool(true)), ("invite", .array([.string(person)])), ("preset", .string("trusted_private_chat")),
        ])))
        struct Made: Decodable { var room_id: String? }
        guard made.isSuccess, let room = made.decoded(Made.self)?.room_id else {
            throw MatrixFailure(message: "cannot start a direct room with \(person)" + MatrixSession.said(made))
        }
        var updated = rooms
        updated[person, default: []].append(room)
        let value = JSONValue.object(updated.sorted { $0.key < $1.key }.map { entry -> (String, JSONValue) in
            (entry.key, JSONValue.array(entry.value.map(JSONValue.string)))
        })
        _ = try session.call("PUT", "/_matrix/client/v3/user/\(me)/account_data/m.direct", body: .json(value))
        return room
    }

    /// Refuses a room with end-to-end encryption: share does not encrypt, and would post in clear text.
    mutating func refuseEncrypted(_ room: String, named recipient: String) throws(MatrixFailure) {
        let state = try session.call("GET", "/_matrix/client/v3/rooms/\(MatrixSession.segment(room))/state/m.room.encryption")
        if state.isSuccess {
            throw MatrixFailure(message: "\(recipient) is an end-to-end encrypted room; share does not encrypt for Matrix, so it posts nothing there",
                                encrypted: true)
        }
        if state.status == 403 {
            throw MatrixFailure(message: "\(session.account.user) is not in \(recipient): join it first" + MatrixSession.said(state))
        }
    }

    // MARK: - Events

    /// Posts one event, its transaction id made now: a retry of the same request posts nothing twice.
    mutating func post(_ content: JSONValue, to room: String) throws(MatrixFailure) -> String {
        let transaction = MatrixDelivery.transactionID()
        let path = "/_matrix/client/v3/rooms/\(MatrixSession.segment(room))/send/m.room.message/\(transaction)"
        var response = try session.call("PUT", path, body: .json(content))
        // One retry with the same transaction id, when the server did not answer as it should.
        if response.status >= 500 || response.status == 429 { response = try session.call("PUT", path, body: .json(content)) }
        struct Answer: Decodable { var event_id: String? }
        guard response.isSuccess, let event = response.decoded(Answer.self)?.event_id else {
            throw MatrixFailure(message: "\(session.account.homeserver) did not take the message" + MatrixSession.said(response))
        }
        return event
    }

    /// A transaction id no other share makes: time and randomness.
    static func transactionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "share-\(Int(Date().timeIntervalSince1970 * 1000))-" + String(generator.next() as UInt64, radix: 36)
    }

    /// `m.text`, with an HTML body whose links are links.
    static func textContent(_ text: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("msgtype", .string("m.text")), ("body", .string(text))]
        let html = linkedHTML(text)
        // Only when there is a link: otherwise the plain body says it all.
        if html.contains("<a href=") {
            fields += [("format", .string("org.matrix.custom.html")), ("formatted_body", .string(html))]
        }
        return .object(fields)
    }

    /// The text as HTML: escaped, line breaks as `<br>`, each http(s) link an `<a>`.
    static func linkedHTML(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { word in
                let plain = String(word)
                let lower = plain.lowercased()
                guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), URL(string: plain) != nil else { return MarkupEscaping.html(plain) }
                return "<a href=\"\(MarkupEscaping.html(plain))\">\(MarkupEscaping.html(plain))</a>"
            }.joined(separator: " ")
        }.joined(separator: "<br>")
    }

    /// A file on the media repository, and its thumbnail's when it has one.
    struct Uploaded: Sendable {
        var file: XMPPDelivery.Upload
        var uri: String
        var thumbnail: Thumbnail?
    }

    /// A picture's thumbnail as uploaded: where, and its info.
    struct Thumbnail: Sendable {
        var uri: String
        var width: Int
        var height: Int
        var type: String
        var size: Int
    }

    /// `m.image` for a picture (with its size in pixels when its header
    /// says it, and its thumbnail), else `m.file`.
    static func fileContent(_ upload: Uploaded) -> JSONValue {
        let file = upload.file
        var info: [(String, JSONValue)] = [("mimetype", .string(file.contentType)), ("size", .number(file.size))]
        let isImage = file.contentType.lowercased().hasPrefix("image/")
        if isImage, let (width, height) = PictureMetadata.dimensions(of: MatrixDelivery.start(ofFile: file.path)) {
            info += [("w", .number(width)), ("h", .number(height))]
        }
        if let thumbnail = upload.thumbnail {
            info += [("thumbnail_url", .string(thumbnail.uri)),
                     ("thumbnail_info", .object([("w", .number(thumbnail.width)), ("h", .number(thumbnail.height)),
                                                 ("mimetype", .string(thumbnail.type)), ("size", .number(thumbnail.size))]))]
        }
        return .object([("msgtype", .string(isImage ? "m.image" : "m.file")), ("body", .string(file.name)), ("url", .string(upload.uri)),
                        ("info", .object(info))])
    }

    /// The first 64 KiB of the file at `path`, where a picture's header
    /// says its size (``PictureMetadata/dimensions(of:)``); none when it cannot be read.
    static func start(ofFile path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return Array(bytes.prefix(max(count, 0)))
    }

    /// The largest side of a thumbnail, and the largest picture one is made of (read whole to decode it).
    static let thumbnailSide = 320
    static let thumbnailSource = 32 << 20

    /// A PNG or JPEG picture bigger than a thumbnail, made smaller (its
    /// format kept); `nil` for one that is small already, or undecodable.
    static func thumbnail(of file: XMPPDelivery.Upload) -> (bytes: [UInt8], width: Int, height: Int, type: String)? {
        let type = file.contentType.lowercased()
        guard type == "image/png" || type == "image/jpeg", file.size <= thumbnailSource,
              case .success(let bytes) = LocalFiles.contents(ofFile: file.path, limit: thumbnailSource) else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var format: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        var reason = [CChar](repeating: 0, count: 256)
        let status = share_image_fit(bytes, bytes.count, Int32(thumbnailSide), &output, &size, &format, &width, &height, &reason, reason.count)
        defer { free(output) }
        guard status == SHARE_IMAGE_OK, let output else { return nil }
        return (Array(UnsafeBufferPointer(start: output, count: size)), Int(width), Int(height), format == 1 ? "image/png" : "image/jpeg")
    }

    // MARK: - Media

    /// Each file uploaded (streamed from disk), after the server's
    /// `m.upload.size` was read and every file checked against it.
    mutating func upload(_ files: [XMPPDelivery.Upload]) throws(MatrixFailure) -> [Uploaded] {
        var config = try session.call("GET", "/_matrix/client/v1/media/config")
        if config.status == 404 { config = try session.call("GET", "/_matrix/media/v3/config") }
        struct Config: Decodable {
            var size: Int?
            enum CodingKeys: String, CodingKey { case size = "m.upload.size" }
        }
        if let limit = config.decoded(Config.self)?.size, let big = files.first(where: { $0.size > limit }) {
            throw MatrixFailure(message: "\(big.name) is \(ByteCount.words(Int64(big.size))); \(session.account.homeserver) takes uploads up to "
                                + ByteCount.words(Int64(limit)))
        }
        var uploaded: [Uploaded] = []
        for file in files {
            let uri = try put(.file(file.path, size: file.size, type: file.contentType), named: file.name)
            var thumbnail: Thumbnail?
            if let small = MatrixDelivery.thumbnail(of: file) {
                let thumbnailURI = try put(.bytes(small.bytes, type: small.type), named: "thumbnail-" + file.name)
                thumbnail = Thumbnail(uri: thumbnailURI, width: small.width, height: small.height, type: small.type, size: small.bytes.count)
            }
            uploaded.append(Uploaded(file: file, uri: uri, thumbnail: thumbnail))
        }
        return uploaded
    }

    /// One upload to the media repository: its `mxc://` URI.
    private mutating func put(_ body: HTTPClient.Body, named name: String) throws(MatrixFailure) -> String {
        let response = try session.call("POST", "/_matrix/media/v3/upload?filename=" + MatrixSession.segment(name), body: body)
        struct Answer: Decodable { var content_uri: String? }
        guard response.isSuccess, let uri = response.decoded(Answer.self)?.content_uri else {
            throw MatrixFailure(message: "\(session.account.homeserver) did not take \(name)" + MatrixSession.said(response))
        }
        return uri
    }
}

/// The rooms a Matrix account is in, as Message's To offers them
/// (`Team <#team:example.org>`): read from a file beside the account's
/// token when the form opens, and looked up again in the background for
/// the next time, so the form never waits for the homeserver.
enum MatrixRooms {
    /// The rooms as the last look found them.
    static func cached(_ account: MatrixAccount, folder: String) -> [String] {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: file(account, folder: folder), limit: 1 << 20) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    private static func file(_ account: MatrixAccount, folder: String) -> String { folder + "/" + account.name + ".rooms" }

    /// Looks the rooms up again off the main actor and keeps them, when a
    /// token is at hand without asking anyone (token-command, or one kept).
    static func refresh(_ account: MatrixAccount, folder: String, commandTimeout: Double, environment: [String: String]) {
        let kept = FileStamp(ofFileAt: folder + "/" + account.name + ".token") != nil
        guard account.tokenCommand != nil || kept else { return }
        Task.detached {
            guard var session = try? MatrixSession(account: account, tokenFolder: folder, commandTimeout: commandTimeout,
                                                   environment: environment),
                  let rooms = try? look(&session) else { return }
            _ = LocalFiles.createFolders(folder)
            try? LocalFiles.replace(file(account, folder: folder), with: Array(rooms.map { $0 + "\n" }.joined().utf8), mode: 0o600)
        }
    }

    /// The joined rooms that have an alias and no end-to-end encryption, as `Name <#alias>`.
    static func look(_ session: inout MatrixSession) throws(MatrixFailure) -> [String] {
        struct Joined: Decodable { var joined_rooms: [String] }
        struct Alias: Decodable { var alias: String? }
        struct Name: Decodable { var name: String? }
        let joined = try session.call("GET", "/_matrix/client/v3/joined_rooms").decoded(Joined.self)?.joined_rooms ?? []
        var rooms: [String] = []
        for room in joined.prefix(200) {
            let state = "/_matrix/client/v3/rooms/\(MatrixSession.segment(room))/state/"
            guard let alias = try session.call("GET", state + "m.room.canonical_alias").decoded(Alias.self)?.alias,
                  !(try session.call("GET", state + "m.room.encryption")).isSuccess else { continue }
            let name = (try session.call("GET", state + "m.room.name").decoded(Name.self)?.name ?? "")
                .filter { $0 != "<" && $0 != ">" && $0 != "," && !$0.isNewline }
            rooms.append(name.isEmpty ? alias : "\(name) <\(alias)>")
        }
        return rooms
    }
}
