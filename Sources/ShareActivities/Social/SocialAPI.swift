import FoundationEssentials
import ShareCore
#if canImport(Glibc)
import Glibc
import ShareSupport
#endif

/// What a service takes of the pictures in a post: pictures only, so
/// many, each of at most so many bytes.
struct PictureLimit: Sendable {
    /// The service, as the person knows it.
    let service: String
    /// The most pictures a post takes.
    let count: Int
    /// The most bytes each may have, and that in the service's own words ("1 MB").
    let bytes: Int
    let words: String

    /// Why the service cannot take `media`; `nil` when it takes them all.
    func refusal(_ media: [SocialMedia]) -> String? {
        if let other = media.first(where: { !$0.type.lowercased().hasPrefix("image/") }) {
            return "\(service) takes pictures here, and \(other.name) is \(other.type)"
        }
        if media.count > count { return "\(service) takes \(count) pictures in a post, and this one has \(media.count)" }
        if let large = media.first(where: { $0.size > bytes }) {
            return "\(service) takes pictures of \(words) at most, and \(large.name) is \(ByteCount.words(Int64(large.size)))"
        }
        return nil
    }
}

/// A picture or video to post: its bytes (a file read as it is sent, or
/// bytes in memory), its name and type, and the words that describe it.
struct SocialMedia: Sendable {
    var name: String
    var type: String
    var size: Int
    var piece: HTTPClient.Body.Piece
    /// The alt text (a picture's description for those who cannot see it).
    var alt: String?

    init(_ file: FileItem, alt: String? = nil) {
        name = file.name
        type = file.contentType
        switch file.storage {
        case .path(let url):
            size = Int(file.size)
            piece = .file(path: url.path, offset: 0, length: size)
        case .data(let data):
            size = data.count
            piece = .bytes(Array(data))
        }
        self.alt = alt
    }

    var isVideo: Bool { type.lowercased().hasPrefix("video/") }
}

/// The requests of one direct post, made on a thread of their own: each
/// shows what it does on the display, stops when the person asks (Esc),
/// and turns the service's refusals into words that say what to do.
struct SocialAPI: Sendable {
    let account: SocialAccount
    let display: LiveDisplay
    /// How long the server may stay silent.
    var stallSeconds = 60

    var service: SocialService { account.service }
    var client: HTTPClient { HTTPClient(caFile: account.caFile, stallSeconds: stallSeconds) }

    /// Shows `text` (and how far along, 0…1) as the post's progress.
    func show(_ text: String, progress: Double? = nil) {
        display.show(LiveStatus(title: Localization.text("Post to %@", service.name), instruction: "", lines: [LiveStatus.Line(text, progress: progress)]))
    }

    /// The OAuth 1.0a signer of the account, its secrets read from their commands.
    func oauth() throws(SocialFailure) -> OAuth1 {
        guard case .oauth1(let consumerKey, let consumerSecretCommand, let token, let tokenSecretCommand) = account.credentials else {
            throw SocialFailure("[social.\(service.rawValue)] needs consumer-key, consumer-secret-command, token and token-secret-command")
        }
        show(Localization.text("Reading the token…"))
        return OAuth1(consumerKey: consumerKey, consumerSecret: try account.secret(consumerSecretCommand, key: "consumer-secret-command"),
                      token: token, tokenSecret: try account.secret(tokenSecretCommand, key: "token-secret-command"))
    }

    /// A progress callback for an upload of `total` bytes (the request's own
    /// when 0) that starts `offset` bytes in: shows `text` with each new
    /// whole percent (not every few kilobytes: each show redraws the
    /// screen), and answers whether to go on: a stop is taken only while
    /// bytes are left to send, never once the server may be acting on them.
    func watch(_ text: String, offset: Int = 0, total: Int = 0) -> (Int, Int) -> Bool {
        var shown = -1
        return { sent, requestTotal in
            let whole = total > 0 ? total : requestTotal
            let stopped = display.isCancelled
            if whole > 0 && !stopped {
                let fraction = Double(offset + sent) / Double(whole)
                if Int(fraction * 100) != shown {
                    shown = Int(fraction * 100)
                    show(text, progress: fraction)
                }
            }
            return !stopped || (whole > 0 && offset + sent >= whole)
        }
    }

    /// The failure of a post that was made but whose answer does not say
    /// where: `sent` all the same, with `fallback` (the account's page) as
    /// what was posted, and the answer in the warning.
    func madeWithoutAddress(_ response: HTTPClient.Response, fallback: URL) -> SocialFailure {
        var failure = SocialFailure("\(service.name) took the post, but its answer names no address for it: \(response.excerpt)")
        failure.posted = [fallback]
        return failure
    }

    /// Waits `seconds` (a poll's interval, a pause after a dropped
    /// connection) in tenths, throwing ``SocialFailure/stopped`` as soon as
    /// the person asks to stop.
    func pause(_ seconds: Double) throws(SocialFailure) {
        for _ in 0..<max(1, Int((seconds * 10).rounded())) {
            try checkStopped()
            var tenth = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&tenth, nil)
        }
        try checkStopped()
    }

    /// Throws ``SocialFailure/stopped`` once the person asked to stop.
    func checkStopped() throws(SocialFailure) {
        if display.isCancelled { throw .stopped }
    }

    /// Sends one request and returns its 2xx answer. `media` names the
    /// picture or video being sent, whose refusal is `media-rejected`;
    /// `uploading` shows the bytes going out as progress. A stop is taken
    /// before the request, during an upload's bytes, and during a question
    /// (GET, HEAD); never while a request that makes something (the post)
    /// awaits its answer, which could leave a post made and said not to be.
    /// `creating` marks the request that makes the post: when its
    /// connection fails, the post may have been made all the same, and the
    /// message says to look before trying again.
    func call(_ method: String, _ url: String, headers: [(String, String)] = [], body: HTTPClient.Body = .none,
              media: String? = nil, uploading: String? = nil, creating: Bool = false) throws(SocialFailure) -> HTTPClient.Response {
        try checkStopped()
        let response: HTTPClient.Response
        let asking = method == "GET" || method == "HEAD"
        do {
            response = try client.perform(method, url, headers: headers, body: body,
                                          progress: uploading.map { watch($0) } ?? { _, _ in !asking || !display.isCancelled })
        } catch {
            if error.cancelled { throw .stopped }
            if error.local { throw SocialFailure("cannot send \(media ?? "the post"): \(error.reason)", code: ActivityError.Code.ioError) }
            let unsure = creating ? "; the post may have been made all the same: look on \(service.name) before trying again" : ""
            throw SocialFailure("\(service.name) cannot be reached: \(error.reason)" + unsure, code: ActivityError.Code.sendFailed)
        }
        try check(response, media: media)
        return response
    }

    /// Throws the failure a non-2xx answer means.
    func check(_ response: HTTPClient.Response, media: String? = nil) throws(SocialFailure) {
        guard !response.isSuccess else { return }
        let said = SocialAPI.serverMessage(response)
        let detail = "HTTP \(response.status)" + (said.isEmpty ? "" : ": \(said)")
        switch response.status {
        case 401:
            throw SocialFailure("\(service.name) refused the credentials (\(detail)); check \(credentialKeys) in [social.\(service.rawValue)]",
                                code: ActivityError.Code.unauthorized)
        case 429:
            let wait = SocialAPI.retryDelay(response).map { " try again in " + SocialAPI.duration($0) } ?? " try again later"
            throw SocialFailure("\(service.name) limits how often you post (\(detail)):" + wait, code: ActivityError.Code.rateLimited)
        case 403:
            // Not the credentials, mostly: a duplicate post, a plan's limit, a scope missing. The server's words say which.
            throw SocialFailure("\(service.name) refused this (\(detail))")
        case 400..<500 where media != nil:
            throw SocialFailure("\(service.name) rejected \(media ?? "") (\(detail))", code: ActivityError.Code.mediaRejected)
        default:
            throw SocialFailure("\(service.name) did not take the post (\(detail))")
        }
    }

    /// The config keys that hold the account's secrets, for messages: never
    /// the commands themselves, which may hold a secret (`echo TOKEN`).
    var credentialKeys: String {
        switch account.credentials {
        case .token: "token-command"
        case .appPassword: "handle and token-command"
        case .oauth1: "consumer-key, consumer-secret-command, token and token-secret-command"
        }
    }

    /// What the server said about an error: the message field of its JSON
    /// (`error`, `message`, `detail`, `errors[0].message`), Flickr's
    /// `msg="…"`, or the start of the body.
    static func serverMessage(_ response: HTTPClient.Response) -> String {
        struct Said: Decodable {
            struct Item: Decodable { var message: String? }
            var error: String?
            var message: String?
            var detail: String?
            var error_description: String?
            var errors: [Item]?
        }
        if let said = response.decoded(Said.self),
           let text = said.message ?? said.detail ?? said.error_description ?? said.errors?.first?.message ?? said.error {
            return String(text.prefix(200))
        }
        let text = String(decoding: response.body.prefix(2000), as: UTF8.self)
        if let start = text.firstRange(of: "msg=\"") {
            return String(text[start.upperBound...].prefix { $0 != "\"" }.prefix(200))
        }
        return response.excerpt
    }

    /// How long to wait before posting again, in seconds: `Retry-After`
    /// (seconds, or an HTTP date), or the rate limit's reset time
    /// (`x-rate-limit-reset` in seconds since 1970, `x-ratelimit-reset` as
    /// an ISO 8601 date).
    static func retryDelay(_ response: HTTPClient.Response, now: Date = Date()) -> Int? {
        if let after = response.header("Retry-After")?.trimmingWhitespace() {
            if let seconds = Int(after) { return max(0, seconds) }
            if let date = httpDate(after) { return max(0, Int(date.timeIntervalSince(now).rounded(.up))) }
        }
        for name in ["x-rate-limit-reset", "x-ratelimit-reset", "ratelimit-reset"] {
            guard let value = response.header(name)?.trimmingWhitespace() else { continue }
            if let epoch = Int(value) {
                // A small number is seconds from now (the IETF draft), a large one a time.
                return epoch > 1_000_000_000 ? max(0, epoch - Int(now.timeIntervalSince1970)) : epoch
            }
            let precise = try? Date(value, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            if let date = precise ?? (try? Date(value, strategy: Date.ISO8601FormatStyle())) {
                return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
            }
        }
        return nil
    }

    /// An HTTP date in its one current form (RFC 9110 §5.6.7, IMF-fixdate):
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ text: String) -> Date? {
        let words = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, words[5] == "GMT", let day = Int(words[1]), let month = months.firstIndex(of: String(words[2])),
              let year = Int(words[3]), case let time = words[4].split(separator: ":").compactMap({ Int($0) }), time.count == 3,
              (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(time[0])
        parts.tm_min = Int32(time[1])
        parts.tm_sec = Int32(time[2])
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// `45 s`, `3 min`, `2 h 5 min`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        let minutes = (seconds + 59) / 60
        return minutes < 120 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
