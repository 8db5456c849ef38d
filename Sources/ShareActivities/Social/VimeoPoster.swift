import FoundationEssentials
import ShareCore

/// Videos to Vimeo with its tus upload approach: `POST /me/videos` makes
/// the video and gives an upload link; the file then goes there in chunks
/// of `PATCH` (tus 1.0.0, each at the `Upload-Offset` the server has), and
/// a chunk whose connection drops is resumed from the offset the server
/// answers to `HEAD`, never sent again from the start.
struct VimeoPoster {
    let api: SocialAPI
    /// How many bytes each PATCH carries.
    var chunkSize = VimeoPoster.defaultChunkSize
    static let defaultChunkSize = 16 << 20
    /// How many dropped connections in a row a video may have before the upload gives up.
    var attempts = 3

    /// Uploads each video with `title` and `description`; returns the first video's page.
    func post(title: String, description: String, media: [SocialMedia]) throws(SocialFailure) -> URL {
        guard case .token(let command) = api.account.credentials else { throw SocialFailure("[social.vimeo] needs token-command") }
        if let other = media.first(where: { !$0.isVideo }) {
            throw SocialFailure("Vimeo takes videos (video/*), and \(other.name) is \(other.type)", code: ActivityError.Code.mediaRejected)
        }
        api.show(Localization.text("Reading the token…"))
        let token = try api.account.secret(command, key: "token-command")
        let authorization = [("Authorization", "bearer \(token)"), ("Accept", "application/vnd.vimeo.*+json;version=3.4")]
        var pages: [URL] = []
        for (index, item) in media.enumerated() {
            api.show(Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(media.count)), progress: 0)
            var document: [(String, JSONValue)] = [("upload", .object([("approach", .string("tus")), ("size", .number(item.size))]))]
            let name = title.isEmpty ? item.name : title
            document.append(("name", .string(name)))
            if !description.isEmpty { document.append(("description", .string(description))) }
            let created = try api.call("POST", api.account.url(host: "api.vimeo.com", "/me/videos"), headers: authorization,
                                       body: .json(.object(document)), media: item.name)
            struct Video: Decodable {
                struct Upload: Decodable { var upload_link: String? }
                var link: String?
                var upload: Upload?
            }
            guard let video = created.decoded(Video.self), let link = video.upload?.upload_link,
                  let page = video.link.flatMap(URL.init(string:)) else {
                throw SocialFailure("Vimeo's answer has no upload link for \(item.name): \(created.excerpt)")
            }
            try upload(item, to: link, index: index, count: media.count)
            pages.append(page)
        }
        guard let first = pages.first else { throw SocialFailure("Vimeo takes videos; there is none to post", code: ActivityError.Code.invalidInput) }
        return first
    }

    /// Sends `item` to the tus `link` in chunks, resuming after a dropped connection.
    private func upload(_ item: SocialMedia, to link: String, index: Int, count: Int) throws(SocialFailure) {
        let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(count))
        let tus = ("Tus-Resumable", "1.0.0")
        var offset = 0
        var failures = 0
        while offset < item.size {
            let length = min(chunkSize, item.size - offset)
            let piece: HTTPClient.Body.Piece = switch item.piece {
            case .file(let path, let start, _): .file(path: path, offset: start + offset, length: length)
            case .bytes(let bytes): .bytes(Array(bytes[offset..<offset + length]))
            }
            let before = offset
            do {
                try api.checkStopped()
                let response = try api.client.perform("PATCH", link, headers: [tus, ("Upload-Offset", String(offset))],
                                                      body: HTTPClient.Body(pieces: [piece], contentType: "application/offset+octet-stream")) { sent, _ in
                    api.show(uploading, progress: Double(before + sent) / Double(max(1, item.size)))
                    return !api.display.isCancelled
                }
                try api.check(response, media: item.name)
                guard let next = response.header("Upload-Offset").flatMap({ Int($0) }), next > offset, next <= item.size else {
                    throw SocialFailure("Vimeo's upload server answered no new offset for \(item.name) (at \(offset) of \(item.size) bytes)")
                }
                offset = next
                failures = 0
            } catch let failure as HTTPClient.Failure {
                if failure.cancelled { throw .stopped }
                failures += 1
                guard failures < attempts else {
                    throw SocialFailure("Vimeo's upload of \(item.name) broke off \(attempts) times at \(offset) of \(item.size) bytes: \(failure.reason)",
                                        code: ActivityError.Code.sendFailed)
                }
                // The connection dropped: ask where the server is, and go on from there.
                api.show(Localization.text("The connection dropped; resuming %@…", item.name), progress: Double(offset) / Double(max(1, item.size)))
                let head = try api.call("HEAD", link, headers: [tus])
                guard let resumed = head.header("Upload-Offset").flatMap({ Int($0) }), resumed >= 0, resumed <= item.size else {
                    throw SocialFailure("Vimeo's upload server does not say how much of \(item.name) it has")
                }
                offset = resumed
            } catch let failure as SocialFailure {
                throw failure
            } catch {
                throw SocialFailure("\(error)")
            }
        }
        api.show(uploading, progress: 1)
    }
}
