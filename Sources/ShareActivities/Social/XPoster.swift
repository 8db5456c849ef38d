import FoundationEssentials
import ShareCore
import ShareSupport

/// A post to X through its API v2 with OAuth 1.0a user tokens: each
/// picture to `POST /2/media/upload`, then `POST /2/tweets` with the
/// media's ids. Neither body is signed (multipart and JSON are not form
/// parameters in OAuth 1.0a), only the protocol's parameters.
struct XPoster {
    let api: SocialAPI

    /// What a post takes of pictures.
    static let pictures = PictureLimit(service: "X", count: 4, bytes: 5 << 20, words: "5 MiB")

    /// Posts `text` with `media`; returns the post's address.
    func post(text: String, media: [SocialMedia]) throws(SocialFailure) -> URL {
        if let refusal = XPoster.pictures.refusal(media) { throw SocialFailure(refusal, code: ActivityError.Code.mediaRejected) }
        let oauth = try api.oauth()
        var ids: [String] = []
        for (index, item) in media.enumerated() {
            let upload = api.account.url(host: "api.x.com", "/2/media/upload")
            let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(media.count))
            api.show(uploading, progress: 0)
            let body = HTTPClient.Body.multipart([.text("media_category", "tweet_image"),
                                                  HTTPClient.Body.Part(name: "media", value: item.piece, filename: item.name, type: item.type)])
            let response = try api.call("POST", upload, headers: [("Authorization", OAuth1.header(try oauth.sign("POST", upload)))], body: body,
                                        media: item.name, uploading: uploading)
            struct Uploaded: Decodable {
                struct Media: Decodable { var id: String }
                var data: Media
            }
            guard let id = response.decoded(Uploaded.self)?.data.id else {
                throw SocialFailure("X's answer to the upload of \(item.name) has no media id: \(response.excerpt)")
            }
            ids.append(id)
        }
        api.show(Localization.text("Posting…"))
        let tweets = api.account.url(host: "api.x.com", "/2/tweets")
        var document: [(String, JSONValue)] = [("text", .string(text))]
        if !ids.isEmpty { document.append(("media", .object([("media_ids", .array(ids.map(JSONValue.string)))]))) }
        let response = try api.call("POST", tweets, headers: [("Authorization", OAuth1.header(try oauth.sign("POST", tweets)))],
                                    body: .json(.object(document)), creating: true)
        struct Created: Decodable {
            struct Post: Decodable { var id: String }
            var data: Post
        }
        guard let id = response.decoded(Created.self)?.data.id, let address = URL(string: "https://x.com/i/web/status/" + PercentEncoding.encoded(id)) else {
            throw api.madeWithoutAddress(response, fallback: URL(string: "https://x.com/home")!)
        }
        return address
    }
}
