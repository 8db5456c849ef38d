import FoundationEssentials
import ShareCore
import ShareSupport

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
    /// How many troubles in a row (a dropped connection, a 5xx or 409
    /// answer, a HEAD that fails) a video may have before the upload gives
    /// up; the pauses between them double from half a second (7.5 s in all).
    var attempts = 5
    /// How long a HEAD or a DELETE may take.
    static let questionSeconds = 15

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
            let created: HTTPClient.Response
            do throws(SocialFailure) {
                created = try api.call("POST", api.account.url(host: "api.vimeo.com", "/me/videos"), headers: authorization,
                                       body: .json(.object(document)), media: item.name)
            } catch {
                var failure = error
                failure.posted = pages
                throw failure
            }
            struct Video: Decodable {
                struct Upload: Decodable { var upload_link: String? }
                var uri: String?
                var link: String?
                var upload: Upload?
            }
            let video = created.decoded(Video.self)
            do throws(SocialFailure) {
                guard let link = video?.upload?.upload_link, video?.link.flatMap(URL.init(string:)) != nil else {
                    throw SocialFailure("Vimeo's answer has no upload link for \(item.name): \(created.excerpt)")
                }
                try upload(item, to: link, index: index, count: media.count)
            } catch {
                // The video exists, unfinished: it goes, so that a try again does not leave one more.
                var failure = error
                failure.note = delete(video?.uri, page: video?.link, headers: authorization)
                failure.posted = pages
                throw failure
            }
            guard let page = video?.link.flatMap(URL.init(string:)) else { continue }
            pages.append(page)
        }
        guard let first = pages.first else { throw SocialFailure("Vimeo takes videos; there is none to post", code: ActivityError.Code.invalidInput) }
        return first
    }

    /// Deletes the unfinished video at `uri`; what to tell about it.
    private func delete(_ uri: String?, page: String?, headers: [(String, String)]) -> String? {
        var client = api.client
        client.totalSeconds = VimeoPoster.questionSeconds
        if let uri, (try? client.perform("DELETE", api.account.url(host: "api.vimeo.com", uri), headers: headers))?.isSuccess == true {
            return "the unfinished video was deleted"
        }
        return page.map { "the unfinished video \($0) is left on Vimeo: delete it there" }
    }

    /// Sends `item` to the tus `link` in chunks. A dropped connection, or
    /// an offset the server does not agree with (409), is followed by a
    /// HEAD that says where the server is, and the upload goes on from
    /// there; `attempts` such troubles in a row give up.
    private func upload(_ item: SocialMedia, to link: String, index: Int, count: Int) throws(SocialFailure) {
        let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(count))
        let tus = ("Tus-Resumable", "1.0.0")
        var offset = 0
        var troubles = 0
        var resync = false
        while offset < item.size || resync {
            try api.checkStopped()
            if resync {
                // Where is the server? A HEAD that fails is one more trouble, tried again after a pause.
                api.show(Localization.text("The connection dropped; resuming %@…", item.name), progress: Double(offset) / Double(max(1, item.size)))
                var client = api.client
                client.totalSeconds = VimeoPoster.questionSeconds
                let display = api.display
                let why: String
                do {
                    let head = try client.perform("HEAD", link, headers: [tus], progress: { _, _ in !display.isCancelled })
                    if head.isSuccess, let resumed = head.header("Upload-Offset").flatMap({ Int($0) }), (0...item.size).contains(resumed) {
                        offset = resumed
                        resync = false
                        continue
                    }
                    why = "HTTP \(head.status)"
                } catch {
                    if error.cancelled { throw .stopped }
                    why = error.reason
                }
                troubles += 1
                guard troubles < attempts else {
                    throw SocialFailure("Vimeo's upload server does not say how much of \(item.name) it has (\(why))", code: ActivityError.Code.sendFailed)
                }
                try pause(troubles)
                continue
            }
            let length = min(chunkSize, item.size - offset)
            let piece: HTTPClient.Body.Piece = switch item.piece {
            case .file(let path, let start, _): .file(path: path, offset: start + offset, length: length)
            case .bytes(let bytes): .bytes(Array(bytes[offset..<min(bytes.count, offset + length)]))
            }
            let response: HTTPClient.Response
            do {
                response = try api.client.perform("PATCH", link, headers: [tus, ("Upload-Offset", String(offset))],
                                                  body: HTTPClient.Body(pieces: [piece], contentType: "application/offset+octet-stream"),
                                                  progress: api.watch(uploading, offset: offset, total: item.size))
            } catch {
                if error.cancelled { throw .stopped }
                if error.local { throw SocialFailure("cannot send \(item.name): \(error.reason)", code: ActivityError.Code.ioError) }
                troubles += 1
                guard troubles < attempts else {
                    throw SocialFailure("Vimeo's upload of \(item.name) broke off \(attempts) times at \(offset) of \(item.size) bytes: \(error.reason)",
                                        code: ActivityError.Code.sendFailed)
                }
                try pause(troubles)
                resync = true
                continue
            }
            if response.status == 409 || response.status >= 500 {
                troubles += 1
                guard troubles < attempts else {
                    throw SocialFailure("Vimeo's upload server kept refusing \(item.name) at \(offset) of \(item.size) bytes"
                                        + " (HTTP \(response.status): \(SocialAPI.serverMessage(response)))")
                }
                try pause(troubles)
                resync = true
                continue
            }
            try api.check(response, media: item.name)
            guard let next = response.header("Upload-Offset").flatMap({ Int($0) }), next > offset, next <= item.size else {
                throw SocialFailure("Vimeo's upload server answered no new offset for \(item.name) (at \(offset) of \(item.size) bytes)")
            }
            offset = next
            troubles = 0
        }
        api.show(uploading, progress: 1)
    }

    /// Waits longer after each trouble in a row (0.5 s, 1 s, 2 s, 4 s) before going on.
    private func pause(_ troubles: Int) throws(SocialFailure) {
        try api.pause(0.5 * Double(1 << max(0, troubles - 1)))
    }
}
