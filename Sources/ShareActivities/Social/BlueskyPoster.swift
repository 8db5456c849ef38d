import FoundationEssentials
import ShareCore
import ShareSupport

/// A post to Bluesky through the AT Protocol's XRPC API: a session from
/// the handle and an app password (`com.atproto.server.createSession`),
/// each picture as a blob (`com.atproto.repo.uploadBlob`), then an
/// `app.bsky.feed.post` record (`com.atproto.repo.createRecord`) whose
/// links are facets — byte ranges of the text's UTF-8, as the protocol
/// counts them — written shortened as Bluesky's composer writes them.
struct BlueskyPoster {
    let api: SocialAPI

    /// What a post takes of pictures.
    static let pictures = PictureLimit(service: "Bluesky", count: 4, bytes: 1_000_000, words: "1 MB")

    private func url(_ method: String) -> String { api.account.url(host: "bsky.social", "/xrpc/" + method) }

    /// The text as posted and its link facets: each link shortened in the
    /// text, with its byte range and full address.
    static func richText(_ text: String) -> (text: String, facets: [(start: Int, end: Int, uri: String)]) {
        var out = ""
        var facets: [(start: Int, end: Int, uri: String)] = []
        PostLength.forEachToken(text) { token, isLink in
            guard isLink else { return out += token }
            let start = out.utf8.count
            out += PostLength.shortened(token)
            facets.append((start, out.utf8.count, String(token)))
        }
        return (out, facets)
    }

    /// Posts `text` with `media`; returns the post's address on bsky.app.
    func post(text: String, media: [SocialMedia]) throws(SocialFailure) -> URL {
        guard case .appPassword(let handle, let command) = api.account.credentials else {
            throw SocialFailure("[social.bluesky] needs handle and token-command")
        }
        if let refusal = BlueskyPoster.pictures.refusal(media) { throw SocialFailure(refusal, code: ActivityError.Code.mediaRejected) }
        api.show(Localization.text("Reading the app password…"))
        let password = try api.account.secret(command, key: "token-command")
        api.show(Localization.text("Signing in as %@…", handle))
        struct Session: Decodable {
            var accessJwt: String
            var did: String
        }
        let signedIn = try api.call("POST", url("com.atproto.server.createSession"),
                                    body: .json(.object([("identifier", .string(handle)), ("password", .string(password))])))
        guard let session = signedIn.decoded(Session.self) else {
            throw SocialFailure("Bluesky's answer to signing in has no session: \(signedIn.excerpt)")
        }
        let authorization = [("Authorization", "Bearer \(session.accessJwt)")]
        var images: [JSONValue] = []
        for (index, item) in media.enumerated() {
            let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(media.count))
            api.show(uploading, progress: 0)
            let response = try api.call("POST", url("com.atproto.repo.uploadBlob"), headers: authorization,
                                        body: HTTPClient.Body(pieces: [item.piece], contentType: item.type), media: item.name, uploading: uploading)
            guard let blob = response.decoded(BlobAnswer.self)?.blob else {
                throw SocialFailure("Bluesky's answer to the upload of \(item.name) has no blob: \(response.excerpt)")
            }
            images.append(.object([("alt", .string(item.alt ?? "")), ("image", blob.json)]))
        }
        api.show(Localization.text("Posting…"))
        let (posted, facets) = BlueskyPoster.richText(text)
        var record: [(String, JSONValue)] = [
            ("$type", .string("app.bsky.feed.post")),
            ("text", .string(posted)),
            ("createdAt", .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date()))),
        ]
        if !facets.isEmpty {
            record.append(("facets", .array(facets.map { facet in
                .object([
                    ("index", .object([("byteStart", .number(facet.start)), ("byteEnd", .number(facet.end))])),
                    ("features", .array([.object([("$type", .string("app.bsky.richtext.facet#link")), ("uri", .string(facet.uri))])])),
                ])
            })))
        }
        if !images.isEmpty {
            record.append(("embed", .object([("$type", .string("app.bsky.embed.images")), ("images", .array(images))])))
        }
        let created = try api.call("POST", url("com.atproto.repo.createRecord"), headers: authorization,
                                   body: .json(.object([("repo", .string(session.did)), ("collection", .string("app.bsky.feed.post")),
                                                        ("record", .object(record))])), creating: true)
        struct Created: Decodable { var uri: String }
        // at://DID/app.bsky.feed.post/RKEY → https://bsky.app/profile/DID/post/RKEY
        guard let uri = created.decoded(Created.self)?.uri, uri.hasPrefix("at://"),
              case let parts = uri.dropFirst(5).split(separator: "/"), parts.count == 3,
              let address = URL(string: "https://bsky.app/profile/\(parts[0])/post/\(PercentEncoding.encoded(String(parts[2])))") else {
            throw api.madeWithoutAddress(created, fallback: URL(string: "https://bsky.app/profile/" + PercentEncoding.encoded(session.did))!)
        }
        return address
    }

    /// uploadBlob's answer: the blob, to put back in the record as it came.
    private struct BlobAnswer: Decodable {
        struct Blob: Decodable {
            struct Ref: Decodable {
                var link: String
                enum CodingKeys: String, CodingKey { case link = "$link" }
            }
            var ref: Ref
            var mimeType: String
            var size: Int

            var json: JSONValue {
                .object([("$type", .string("blob")), ("ref", .object([("$link", .string(ref.link))])),
                         ("mimeType", .string(mimeType)), ("size", .number(size))])
            }
        }
        var blob: Blob
    }
}
