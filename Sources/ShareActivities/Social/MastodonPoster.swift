import FoundationEssentials
import ShareCore
import ShareSupport

/// A post to a Mastodon server through its REST API, with the account's
/// access token: each picture or video to `POST /api/v2/media` (an answer
/// of 202 means the server is still processing it, asked again until it is
/// ready or the deadline passes), then `POST /api/v1/statuses` with the
/// media's ids. The server's own character limit comes from
/// `/api/v2/instance`.
struct MastodonPoster {
    let api: SocialAPI
    /// The server (`mastodon.social`, `localhost:8443`).
    let host: String
    /// How long a picture or video may stay in processing.
    var processingDeadline = 120.0
    /// How long between questions about it.
    var pollInterval = 0.5

    private func url(_ path: String) -> String { api.account.url(host: host, path) }

    /// The most characters a post may have on this server, when it says.
    func characterLimit() -> Int? {
        struct Instance: Decodable {
            struct Configuration: Decodable {
                struct Statuses: Decodable { var max_characters: Int? }
                var statuses: Statuses?
            }
            var configuration: Configuration?
        }
        // Asked before the form opens: a server that does not answer at once keeps the usual 500.
        var quick = api.client
        quick.connectSeconds = 3
        quick.totalSeconds = 5
        guard let response = try? quick.perform("GET", url("/api/v2/instance")), response.isSuccess,
              let limit = response.decoded(Instance.self)?.configuration?.statuses?.max_characters, limit > 0 else { return nil }
        return limit
    }

    /// Posts `text` with `media`; returns the post's address. `key` is the
    /// same for every try of the same post from one form (Mastodon's
    /// `Idempotency-Key`): a try whose answer was lost is not posted twice.
    func post(text: String, media: [SocialMedia], key: String) throws(SocialFailure) -> URL {
        guard case .token(let command) = api.account.credentials else { throw SocialFailure("[social.mastodon] needs token-command") }
        api.show(Localization.text("Reading the token…"))
        let token = try api.account.secret(command, key: "token-command")
        let authorization = [("Authorization", "Bearer \(token)")]
        struct Attachment: Decodable {
            var id: String
            var url: String?
        }
        var ids: [String] = []
        for (index, item) in media.enumerated() {
            var parts: [HTTPClient.Body.Part] = [HTTPClient.Body.Part(name: "file", value: item.piece, filename: item.name, type: item.type)]
            if let alt = item.alt, !alt.isEmpty { parts.append(.text("description", alt)) }
            let uploading = Localization.text("Uploading %@ (%@ of %@)", item.name, String(index + 1), String(media.count))
            api.show(uploading, progress: 0)
            let response = try api.call("POST", url("/api/v2/media"), headers: authorization, body: .multipart(parts),
                                        media: item.name, uploading: uploading)
            guard let attachment = response.decoded(Attachment.self) else {
                throw SocialFailure("Mastodon's answer to the upload of \(item.name) has no media id: \(response.excerpt)")
            }
            if response.status == 202 || attachment.url == nil { try waitUntilProcessed(attachment.id, name: item.name, headers: authorization) }
            ids.append(attachment.id)
        }
        api.show(Localization.text("Posting…"))
        var fields = [("status", text)]
        fields += ids.map { ("media_ids[]", $0) }
        let response = try api.call("POST", url("/api/v1/statuses"), headers: authorization + [("Idempotency-Key", key)], body: .form(fields),
                                    creating: true)
        struct Status: Decodable {
            var url: String?
            var uri: String?
        }
        guard let status = response.decoded(Status.self), let address = (status.url ?? status.uri).flatMap(URL.init(string:)) else {
            throw api.madeWithoutAddress(response, fallback: URL(string: url("/"))!)
        }
        return address
    }

    /// Asks about media `id` until the server has processed it (200 with a
    /// URL; 206 while processing), or throws when the deadline passes.
    private func waitUntilProcessed(_ id: String, name: String, headers: [(String, String)]) throws(SocialFailure) {
        let deadline = Date().addingTimeInterval(processingDeadline)
        api.show(Localization.text("Mastodon is processing %@…", name))
        while true {
            let response = try api.call("GET", url("/api/v1/media/" + PercentEncoding.encoded(id)), headers: headers, media: name)
            struct Attachment: Decodable { var url: String? }
            if response.status == 200, response.decoded(Attachment.self)?.url != nil { return }
            guard Date() < deadline else {
                throw SocialFailure("Mastodon was still processing \(name) after \(Int(processingDeadline)) s; nothing was posted",
                                    code: ActivityError.Code.timeout)
            }
            // Polling: the server offers no other way to hear that it is done.
            try api.pause(pollInterval)
        }
    }
}
