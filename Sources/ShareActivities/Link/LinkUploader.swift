import FoundationEssentials
import ShareCore
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// One upload to a place, off the main actor: the files sent the place's
/// way, progress shown on the display as bytes go, a stop taken while
/// bytes are left to send, and each failure turned into words and a code.
struct LinkUploader: Sendable {
    let place: LinkPlace
    let environment: [String: String]
    let display: LiveDisplay
    /// The screen's heading (`Link`).
    let heading: String
    /// Whether there is a screen for the news; without one, the summary
    /// or the JSON result says all.
    let showsNews: Bool

    /// The links of `uploads`, one each, and what each left on the place
    /// that `share --undo` can delete.
    func upload(_ uploads: [LinkUpload]) throws(LinkFailure) -> [(link: URL, leftover: LinkLeftover)] {
        var links: [(link: URL, leftover: LinkLeftover)] = []
        switch place.kind {
        case .paste:
            for upload in uploads { links.append(try paste(upload)) }
        case .termbin:
            for upload in uploads {
                links.append((try termbin(upload), LinkLeftover(impossible: "termbin keeps what it is sent; \(place.name) cannot delete it")))
            }
        case .webdav:
            let authorization = try basicAuthorization()
            for upload in uploads { links.append(try webdav(upload, authorization: authorization)) }
        case .rclone:
            for upload in uploads { links.append(try rclone(upload)) }
        case .s3:
            let signer = try s3Signer()
            for upload in uploads {
                links.append((try s3(upload, signer: signer), LinkLeftover(values: ["key": S3Object.key(for: upload.name, on: place)])))
            }
        }
        return links
    }

    // MARK: - Progress

    /// Shows `text` (and how far along, 0…1).
    func show(_ text: String, progress: Double? = nil) {
        guard showsNews else { return }
        display.show(LiveStatus(title: heading, instruction: Localization.text("Esc stops the upload."), lines: [LiveStatus.Line(text, progress: progress)]))
    }

    /// A progress callback for `upload`: a new whole percent shown, and
    /// whether to go on (a stop is taken only while bytes are left to send).
    func watch(_ upload: LinkUpload) -> (Int, Int) -> Bool {
        var shown = -1
        let text = Localization.text("Uploading %@ to %@…", upload.name, place.name)
        return { sent, total in
            let whole = total > 0 ? total : upload.size
            let stopped = display.isCancelled
            if whole > 0 && !stopped && Int(Double(sent) / Double(whole) * 100) != shown {
                shown = Int(Double(sent) / Double(whole) * 100)
                show(text, progress: Double(sent) / Double(whole))
            }
            return !stopped || (whole > 0 && sent >= whole)
        }
    }

    // MARK: - HTTP

    var client: HTTPClient {
        HTTPClient(protocols: "http,https", caFile: place.caFile, stallSeconds: max(1, Int(place.timeout.rounded(.up))),
                   connectSeconds: max(1, Int(place.timeout.rounded(.up))))
    }

    /// Sends one request; a connection that fails is `place-unreachable`
    /// (or `timeout`), a stop is ``LinkFailure/stop``.
    func call(_ method: String, _ url: String, headers: [(String, String)] = [], body: HTTPClient.Body = .none,
              upload: LinkUpload? = nil) throws(LinkFailure) -> HTTPClient.Response {
        if display.isCancelled { throw .stop }
        do {
            return try client.perform(method, url, headers: headers, body: body, progress: upload.map { watch($0) })
        } catch {
            if error.cancelled { throw .stop }
            if error.local { throw LinkFailure(code: ActivityError.Code.ioError, error.reason) }
            if error.timedOut { throw LinkFailure(code: ActivityError.Code.timeout, "\(place.name) did not answer within \(LinkUploader.seconds(place.timeout)) ([link.\(place.name)] timeout): \(error.reason)") }
            throw LinkFailure(code: ActivityError.Code.placeUnreachable, "\(place.name) cannot be reached: \(error.reason)")
        }
    }

    /// Throws the failure a non-2xx answer means: 4xx refused with the server's words, else failed.
    func check(_ response: HTTPClient.Response, doing what: String) throws(LinkFailure) {
        guard !response.isSuccess else { return }
        let said = response.excerpt
        let detail = "HTTP \(response.status)" + (said.isEmpty ? "" : ": \(said)")
        if (400..<500).contains(response.status) {
            throw LinkFailure(code: ActivityError.Code.uploadRefused, "\(place.name) refused \(what) (\(detail))")
        }
        throw LinkFailure(code: ActivityError.Code.uploadFailed, "\(place.name) failed to take \(what) (\(detail))")
    }

    /// The first line of `text` as a web link, or the failure that the answer holds none.
    func link(in text: String, answering what: String) throws(LinkFailure) -> URL {
        let line = text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingWhitespace() } ?? ""
        let scheme = line.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https", line.contains("://"), !line.contains(" "), let url = URL(string: line), url.host != nil else {
            let shown = String(LinkUploader.printable(line).prefix(200))
            throw LinkFailure(code: ActivityError.Code.noLink,
                              "\(place.name) took \(what), and its answer is not a link: " + (shown.isEmpty ? "it is empty" : "'\(shown)'"))
        }
        return url
    }

    /// `paste`: a multipart form, the file in `field` (and `expires`); the answer's first line is the link.
    func paste(_ upload: LinkUpload) throws(LinkFailure) -> (link: URL, leftover: LinkLeftover) {
        var parts = [HTTPClient.Body.Part(name: place.field, value: .file(path: upload.path, offset: 0, length: upload.size),
                                          filename: upload.name, type: upload.contentType)]
        if let expires = place.expires, !expires.isEmpty { parts.append(.text("expires", expires)) }
        show(Localization.text("Uploading %@ to %@…", upload.name, place.name), progress: 0)
        let response = try call("POST", place.url ?? "", body: .multipart(parts), upload: upload)
        try check(response, doing: upload.name)
        let url = try link(in: String(decoding: response.body, as: UTF8.self), answering: upload.name)
        // 0x0 hands back a token that deletes the file; a service without one keeps it.
        guard let token = response.header("X-Token")?.trimmingWhitespace(), !token.isEmpty, HTTPClient.isOneLine(token) else {
            return (url, LinkLeftover(impossible: "\(place.name) gave no token to delete \(upload.name) with; remove it there"))
        }
        return (url, LinkLeftover(values: ["url": url.absoluteString, "token": token]))
    }

    /// `webdav`'s `Authorization` header, its password read from `password-command`.
    func basicAuthorization() throws(LinkFailure) -> [(String, String)] {
        guard let user = place.user, let command = place.passwordCommand else { return [] }
        show(Localization.text("Reading the password…"))
        let password: String
        do throws(PasswordCommand.Failure) {
            password = try PasswordCommand.run(command, timeout: place.timeout, section: "link.\(place.name)")
        } catch {
            throw LinkFailure(code: ActivityError.Code.configuration, "[link.\(place.name)] \(error.message)")
        }
        return [("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())]
    }

    /// `webdav`: a PUT into the folder, then the public share or the file's address.
    func webdav(_ upload: LinkUpload, authorization: [(String, String)]) throws(LinkFailure) -> (link: URL, leftover: LinkLeftover) {
        let folder = place.url ?? ""
        let address = (folder.hasSuffix("/") ? folder : folder + "/") + PercentEncoding.encoded(upload.name)
        show(Localization.text("Uploading %@ to %@…", upload.name, place.name), progress: 0)
        let response = try call("PUT", address, headers: authorization, body: .file(upload.path, size: upload.size, type: upload.contentType),
                                upload: upload)
        if response.status == 404 || response.status == 409 {
            throw LinkFailure(code: ActivityError.Code.uploadRefused,
                              "\(place.name) refused \(upload.name) (HTTP \(response.status)): the folder \(folder) does not exist there; make it first")
        }
        try check(response, doing: upload.name)
        guard let api = place.share else {
            guard let url = URL(string: address) else { throw LinkFailure(code: ActivityError.Code.noLink, "\(address) is not a link") }
            return (url, LinkLeftover(values: ["url": address]))
        }
        let (url, share) = try publicShare(of: upload.name, folder: folder, api: api, authorization: authorization)
        return (url, LinkLeftover(values: ["url": address].merging(share.map { ["share": $0] } ?? [:]) { old, _ in old }))
    }

    /// Where a WebDAV folder's server keeps its share API, and the folder's
    /// path as that API names it: `https://cloud/remote.php/dav/files/kim/shared/`
    /// is `https://cloud` and `/shared/` (also `…/remote.php/webdav/shared/`).
    static func shareAPI(for folder: String) -> (server: String, path: String)? {
        guard let marker = folder.firstRange(of: "/remote.php/") else { return nil }
        let server = String(folder[..<marker.lowerBound])
        var rest = folder[marker.upperBound...]
        if rest.hasPrefix("dav/files/") {
            rest = rest.dropFirst("dav/files/".count)
            rest = rest.drop { $0 != "/" }
        } else if rest.hasPrefix("webdav") {
            rest = rest.dropFirst("webdav".count)
        } else {
            return nil
        }
        let path = percentDecoded(String(rest))
        return (server, path.hasPrefix("/") ? path : "/" + path)
    }

    /// `text` with its `%XX` escapes made bytes again (read as UTF-8).
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The public link of a file just put, and the share's id, from the OCS share API (Nextcloud, ownCloud).
    func publicShare(of name: String, folder: String, api: LinkPlace.ShareAPI,
                     authorization: [(String, String)]) throws(LinkFailure) -> (link: URL, share: String?) {
        guard let (server, path) = LinkUploader.shareAPI(for: folder) else {
            throw LinkFailure(code: ActivityError.Code.noLink,
                              "\(place.name): url is not a \(api.rawValue) WebDAV folder (…/remote.php/dav/files/USER/…), so no public link can be asked for")
        }
        show(Localization.text("Making the public link…"))
        let filePath = (path.hasSuffix("/") ? path : path + "/") + name
        let response = try call("POST", server + "/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json",
                                headers: authorization + [("OCS-APIRequest", "true"), ("Accept", "application/json")],
                                body: .form([("path", filePath), ("shareType", "3")]))
        try check(response, doing: "a public link to \(name)")
        struct Answer: Decodable {
            struct OCS: Decodable {
                struct Meta: Decodable { var statuscode: Int?; var message: String? }
                struct Share: Decodable { var url: String?; var id: ShareID? }
                var meta: Meta?
                var data: Share?
            }
            var ocs: OCS
        }
        guard let answer = response.decoded(Answer.self) else {
            throw LinkFailure(code: ActivityError.Code.noLink, "\(place.name) took \(name), and its share API's answer is not OCS JSON: \(response.excerpt)")
        }
        guard let url = answer.ocs.data?.url else {
            let said = answer.ocs.meta.map { "\($0.statuscode.map(String.init) ?? "")" + ($0.message.map { " \($0)" } ?? "") } ?? ""
            throw LinkFailure(code: ActivityError.Code.noLink, "\(place.name) took \(name), and made no public link for it (\(said.trimmingWhitespace()))")
        }
        return (try link(in: url, answering: name), answer.ocs.data?.id?.text)
    }

    // MARK: - rclone

    /// `rclone copyto FILE REMOTE:PATH/NAME`, then `rclone link` of it.
    func rclone(_ upload: LinkUpload) throws(LinkFailure) -> (link: URL, leftover: LinkLeftover) {
        let remote = place.remote ?? ""
        let target = remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + upload.name : remote + "/" + upload.name
        let program = place.program.contains("/") ? place.program : ProgramSearch.executable(place.program, environment: environment)
        guard let program else {
            throw LinkFailure(code: ActivityError.Code.configuration, "\(place.name) needs rclone, which is not on PATH: apt install rclone")
        }
        show(Localization.text("Uploading %@ to %@…", upload.name, place.name))
        let copied = try run(program, ["copyto", "--", upload.path, target], doing: "rclone copyto")
        guard copied.status == 0 else {
            throw LinkFailure(code: ActivityError.Code.uploadFailed, "rclone copyto to \(target) failed (exit \(copied.status))" + LinkUploader.said(copied))
        }
        show(Localization.text("Making the public link…"))
        let linked = try run(program, ["link", "--", target], doing: "rclone link")
        guard linked.status == 0 else {
            throw LinkFailure(code: ActivityError.Code.noLink, "\(upload.name) is on \(target), and rclone link failed (exit \(linked.status))"
                              + LinkUploader.said(linked) + "; rclone makes public links only on remotes that have them (Drive, Dropbox, OneDrive, S3…)")
        }
        return (try link(in: String(decoding: linked.output, as: UTF8.self), answering: upload.name), LinkLeftover(values: ["target": target]))
    }

    /// Runs rclone (the place's `rclone`, else the one on PATH) with `arguments`.
    func rcloneRun(_ arguments: [String], doing what: String) throws(LinkFailure) -> Subprocess.Outcome {
        let program = place.program.contains("/") ? place.program : ProgramSearch.executable(place.program, environment: environment)
        guard let program else {
            throw LinkFailure(code: ActivityError.Code.configuration, "\(place.name) needs rclone, which is not on PATH: apt install rclone")
        }
        return try run(program, arguments, doing: what)
    }

    private func run(_ program: String, _ arguments: [String], doing what: String) throws(LinkFailure) -> Subprocess.Outcome {
        if display.isCancelled { throw .stop }
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(program, arguments: arguments, environment: environment, outputLimit: 1 << 16,
                                         supervision: Subprocess.Supervision(timeout: place.timeout))
        } catch {
            throw LinkFailure(code: ActivityError.Code.configuration, error.description)
        }
        if outcome.timedOut {
            throw LinkFailure(code: ActivityError.Code.timeout, "\(what) did not finish within \(LinkUploader.seconds(place.timeout)) ([link.\(place.name)] timeout); it was stopped")
        }
        if outcome.cancelled { throw .stop }
        return outcome
    }

    /// `: ` and the last line rclone wrote on standard error, if any,
    /// without the date and time rclone starts its lines with.
    static func said(_ outcome: Subprocess.Outcome) -> String {
        let lines = String(decoding: outcome.errors, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last(where: { !$0.trimmingWhitespace().isEmpty }) else { return "" }
        var words = last.split(separator: " ", omittingEmptySubsequences: false)[...]
        if words.count > 2, words[0].filter({ $0 == "/" }).count == 2, words[1].filter({ $0 == ":" }).count == 2 {
            words = words.dropFirst(2)
        }
        return ": " + String(LinkUploader.printable(words.joined(separator: " ").trimmingWhitespace()).prefix(300))
    }

    /// `30 s`, `1.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// `text` with its control characters shown as `?`, for a message.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }
}

/// An OCS share's id, which Nextcloud writes as a number and ownCloud as a string.
struct ShareID: Decodable, Sendable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) { text = String(number) } else { text = try container.decode(String.self) }
    }
}
