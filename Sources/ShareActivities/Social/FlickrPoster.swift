import FoundationEssentials
import ShareCore
import ShareSupport

/// Photos to Flickr through its upload API (`up.flickr.com/services/upload/`),
/// signed with OAuth 1.0a: every field but the photo is signed, as Flickr
/// asks. Flickr answers 200 even when it refuses, with `<rsp stat="fail">`
/// and an error code; the photo's page comes from `flickr.photos.getInfo`.
struct FlickrPoster {
    let api: SocialAPI

    /// Uploads each photo with `title` and `description`; returns the first photo's page.
    func post(title: String, description: String, media: [SocialMedia]) throws(SocialFailure) -> URL {
        let oauth = try api.oauth()
        var pages: [URL] = []
        for (index, item) in media.enumerated() {
            do throws(SocialFailure) {
                pages.append(try upload(item, index: index, count: media.count, title: title, description: description, oauth: oauth))
            } catch {
                var failure = error
                failure.posted = pages
                throw failure
            }
        }
        guard let first = pages.first else { throw SocialFailure("Flickr takes photos; there is none to post", code: ActivityError.Code.invalidInput) }
        return first
    }

    /// Uploads one photo; returns its page.
    private func upload(_ item: SocialMedia, index: Int, count: Int, title: String, description: String,
                        oauth: OAuth1) throws(SocialFailure) -> URL {
        let fields = [("title", title), ("description", description)]
        let upload = api.account.url(host: "up.flickr.com", "/services/upload/")
        let signed = try oauth.sign("POST", upload, parameters: fields)
        var parts = (fields + signed).map { HTTPClient.Body.Part.text($0.0, $0.1) }
        parts.append(HTTPClient.Body.Part(name: "photo", value: item.piece, filename: item.name, type: item.type))
        let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(count))
        api.show(uploading, progress: 0)
        let response = try api.call("POST", upload, body: .multipart(parts), media: item.name, uploading: uploading, creating: true)
        let id = try FlickrPoster.answer(response, media: item.name, api: api, tag: "photoid")
        // The photo is up: a page that cannot be asked for is Flickr's own link to it, never a failure to post again.
        return (try? page(of: id, oauth: oauth)) ?? URL(string: "https://www.flickr.com/photo.gne?id=" + PercentEncoding.encoded(id))!
    }

    /// The photo's page (`flickr.photos.getInfo`, its `photopage` URL).
    private func page(of id: String, oauth: OAuth1) throws(SocialFailure) -> URL {
        let rest = api.account.url(host: "api.flickr.com", "/services/rest/")
        let query = [("method", "flickr.photos.getInfo"), ("photo_id", id), ("format", "json"), ("nojsoncallback", "1")]
        let signed = try oauth.sign("GET", rest, parameters: query)
        let response = try api.call("GET", rest + "?" + HTTPClient.formEncoded(query + signed))
        struct Info: Decodable {
            struct Photo: Decodable {
                struct URLs: Decodable {
                    struct Entry: Decodable {
                        var type: String
                        var _content: String
                    }
                    var url: [Entry]
                }
                var urls: URLs
            }
            var photo: Photo?
            var stat: String
            var code: Int?
            var message: String?
        }
        guard let info = response.decoded(Info.self) else { throw SocialFailure("Flickr's answer about photo \(id) is not JSON: \(response.excerpt)") }
        guard info.stat == "ok", let address = info.photo?.urls.url.first(where: { $0.type == "photopage" }).flatMap({ URL(string: $0._content) }) else {
            throw FlickrPoster.failure(code: info.code ?? 0, message: info.message ?? "no photo page", media: nil, api: api)
        }
        return address
    }

    /// The text of `<tag>` in Flickr's `<rsp stat="ok">`, or the failure its `<err>` means.
    static func answer(_ response: HTTPClient.Response, media: String?, api: SocialAPI, tag: String) throws(SocialFailure) -> String {
        let text = String(decoding: response.body, as: UTF8.self)
        if text.contains("stat=\"ok\""), let open = text.firstRange(of: "<\(tag)>"), let close = text.firstRange(of: "</\(tag)>"),
           open.upperBound <= close.lowerBound {
            return String(text[open.upperBound..<close.lowerBound]).trimmingWhitespace()
        }
        let code = attribute("code", in: text).flatMap { Int($0) } ?? 0
        throw failure(code: code, message: attribute("msg", in: text) ?? response.excerpt, media: media, api: api)
    }

    /// What Flickr's error `code` means: 96–100 are the credentials, 2–6 and 8 the photo itself.
    static func failure(code: Int, message: String, media: String?, api: SocialAPI) -> SocialFailure {
        let detail = "Flickr error \(code): \(message)"
        switch code {
        case 96...100:
            return SocialFailure("Flickr refused the credentials (\(detail)); check \(api.credentialKeys) in [social.flickr]",
                                 code: ActivityError.Code.unauthorized)
        case 2...6, 8:
            return media.map { SocialFailure("Flickr rejected \($0) (\(detail))", code: ActivityError.Code.mediaRejected) }
                ?? SocialFailure("Flickr did not take the photo (\(detail))")
        case 105, 106:
            return SocialFailure("Flickr cannot take the post now (\(detail)); try again later", code: ActivityError.Code.rateLimited)
        default:
            return SocialFailure("Flickr did not take the photo (\(detail))")
        }
    }

    /// The value of `name="…"` in `text`, XML's entities for quotes and ampersands undone.
    static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.firstRange(of: "\(name)=\"") else { return nil }
        let value = text[start.upperBound...].prefix { $0 != "\"" }
        var out = String(value)
        for (entity, character) in [("&quot;", "\""), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            out = out.split(separator: entity, omittingEmptySubsequences: false).joined(separator: character)
        }
        return out
    }
}
