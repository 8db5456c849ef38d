import Foundation
import ShareSupport
import Synchronization
import Testing
@testable import ShareActivities
@testable import ShareCore

/// A service's API on 127.0.0.1 over TLS (`social_servers.py`), which
/// checks each request as the service would and reports it.
final class SocialServer {
    let server: ServerScript
    let fixtures: Fixtures
    let certificate: MailTLSTests.Certificate
    /// The token (or app password) the server takes.
    static let token = "s3cret-token"

    init(_ api: String, fail: String? = nil) throws {
        fixtures = try Fixtures()
        certificate = try MailTLSTests.makeCertificate(in: fixtures.root)
        server = try ServerScript(script: "social_servers.py",
                                  arguments: ["--api", api, "--cert", certificate.cert.path, "--key", certificate.key.path]
                                      + (fail.map { ["--fail", $0] } ?? []),
                                  logFile: fixtures.root.appendingPathComponent("social.log"))
    }

    var origin: String { "https://localhost:\(server.port)" }

    /// The account of `service` at this server, its secret printed by a command.
    func account(_ service: SocialService, token: String = SocialServer.token) -> SocialAccount {
        let command = "printf '%s\\n' '\(token)'"
        let credentials: SocialAccount.Credentials = switch service {
        case .bluesky: .appPassword(handle: "kim.test", command: command)
        case .flickr, .twitter:
            // The secrets oauthlib checks the signatures with (social_servers.py), the token secret `token` when it is not the token.
            .oauth1(consumerKey: "consumer-key-1", consumerSecretCommand: "printf '%s\\n' 'consumer&secret 2'", token: "72157-access",
                    tokenSecretCommand: "printf '%s\\n' '\(token == SocialServer.token ? "token/secret+3" : token)'")
        default: .token(command: command)
        }
        return SocialAccount(service: service, credentials: credentials, api: origin, caFile: certificate.cert.path)
    }

    func settings(_ service: SocialService, token: String = SocialServer.token) -> SocialSettings {
        SocialSettings(enabled: [service], mastodonInstance: "localhost:\(server.port)",
                       accounts: [service: account(service, token: token)])
    }

    /// The next request the server reports.
    func next() throws -> [String: Any] {
        let line = try #require(server.nextLine(within: 20), "no request came; log:\n\(server.log)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// The requests reported until the server stops.
    func rest() -> [[String: Any]] {
        server.stop()
        var requests: [[String: Any]] = []
        while let line = server.nextLine(within: 5),
              let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { requests.append(request) }
        return requests
    }

    static func parts(_ request: [String: Any]) -> [[String: Any]] {
        (request["body"] as? [String: Any])?["parts"] as? [[String: Any]] ?? []
    }

    static func fields(_ request: [String: Any]) -> [[String]] {
        (request["body"] as? [String: Any])?["fields"] as? [[String]] ?? []
    }

    static func json(_ request: [String: Any]) -> [String: Any] {
        (request["body"] as? [String: Any])?["value"] as? [String: Any] ?? [:]
    }
}

/// What a display showed, for tests: every status, and a stop asked for
/// once an upload is partway.
final class DisplayLog: Sendable {
    let statuses = Mutex<[LiveStatus]>([])
    let stopPartway: Bool
    private(set) nonisolated(unsafe) var display: LiveDisplay!

    init(stopPartway: Bool = false) {
        self.stopPartway = stopPartway
        display = LiveDisplay { [weak self] status in
            guard let self else { return }
            statuses.withLock { $0.append(status) }
            if stopPartway, let progress = status.lines.last?.progress, progress > 0.05, progress < 0.9 { display.cancel() }
        }
    }

    var lines: [LiveStatus.Line] { statuses.withLock { $0.flatMap(\.lines) } }
}

@Suite @MainActor struct SocialDirectTests {
    /// A PNG made for the test, of `size` bytes (the server does not decode it).
    static func picture(_ fixtures: Fixtures, _ name: String, size: Int = 2048) throws -> ShareItem {
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        let url = try fixtures.file(name, Data(bytes))
        return .image(FileItem(name: name, contentType: "image/png", size: Int64(size), storage: .path(url)))
    }

    static func sha256(_ item: ShareItem) throws -> String {
        guard case .image(let file) = item, let url = file.path else { return "" }
        return SHA256.hex(Array(try Data(contentsOf: url)))
    }

    @MainActor
    static func post(_ service: SocialService, settings: SocialSettings, items: [ShareItem], values: [String: String]? = nil,
                     metadata: [LinkMetadata] = [], log: DisplayLog = DisplayLog(),
                     configure: (SocialPostActivity) -> Void = { _ in }) async throws -> (ActivitySession, SocialPostActivity) {
        let activity = SocialPostActivity(service: service, settings: settings)
        configure(activity)
        try await activity.prepare(with: items)
        activity.offeredMetadata = metadata
        let form = try #require(activity.makeForm())
        var submitted: [String: String] = [:]
        for field in form.fields { submitted[field.id] = field.initialValue }
        for (key, value) in values ?? [:] { submitted[key] = value }
        let session = ActivitySession(activityType: activity.activityType, items: items, subject: nil,
                                      form: SubmittedForm(action: "post", values: submitted, display: log.display))
        await activity.perform(session)
        return (session, activity)
    }

    // MARK: - Forms

    /// libcurl writes a form: names escaped as browsers escape them, an
    /// empty field kept, and a file's piece read as it is sent.
    @Test func aFormKeepsItsNamesAndSendsAFilePiece() throws {
        let server = try SocialServer("mastodon")
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let url = try server.fixtures.file("form.bin", bytes)
        let body = HTTPClient.Body.multipart([
            .text("say \"hi\"", "서울 & more"),
            .text("empty", ""),
            HTTPClient.Body.Part(name: "file", value: .file(path: url.path, offset: 1000, length: 2000), filename: "a \"b\".png", type: "image/png"),
        ])
        _ = try HTTPClient(caFile: server.certificate.cert.path).perform("POST", server.origin + "/api/v2/media", body: body)
        let parts = SocialServer.parts(try server.next())
        #expect(parts.count == 3, "\(parts)")
        #expect(parts.first?["name"] as? String == "say %22hi%22" && parts.first?["text"] as? String == "서울 & more", "\(parts)")
        #expect(parts.dropFirst().first?["name"] as? String == "empty" && parts.dropFirst().first?["text"] as? String == "", "\(parts)")
        let file = try #require(parts.last)
        #expect(file["filename"] as? String == "a %22b%22.png" && file["type"] as? String == "image/png", "\(file)")
        #expect(file["size"] as? Int == 2000 && file["sha256"] as? String == SHA256.hex(Array(bytes[1000..<3000])), "\(file)")
    }

    // MARK: - Mastodon

    @Test func mastodonUploadsWaitsForProcessingAndPostsWithTheMediaIDs() async throws {
        let server = try SocialServer("mastodon")
        let photo = try Self.picture(server.fixtures, "서울 photo.png")
        let log = DisplayLog()
        let (session, activity) = try await Self.post(.mastodon, settings: server.settings(.mastodon),
                                                      items: [.text("안녕 from share 🐘"), .url(URL(string: "https://example.com/a?b=1")!), photo],
                                                      metadata: [LinkMetadata(title: "Seoul at night", url: URL(fileURLWithPath: try #require({
                                                          if case .image(let file) = photo { return file.path?.path } else { return nil }
                                                      }())))], log: log)
        #expect(session.result?.outcome == .sent, "\(String(describing: session.result?.error))")
        #expect(session.result?.returnedItems == [.url(URL(string: "https://localhost/@kim/109")!)])
        // The server's own limit (1000) counts the post, not Mastodon's usual 500.
        #expect(activity.count(in: FormField(id: "post", label: "Post", kind: .multilineText), value: "x")?.limit == 1000)

        let instance = try server.next()
        #expect(instance["path"] as? String == "/api/v2/instance")
        let upload = try server.next()
        #expect(upload["path"] as? String == "/api/v2/media" && upload["status"] as? Int == 202)
        #expect((upload["headers"] as? [String: String])?["authorization"] == "Bearer \(SocialServer.token)")
        let parts = SocialServer.parts(upload)
        let file = try #require(parts.first { $0["name"] as? String == "file" })
        #expect(file["filename"] as? String == "서울 photo.png" && file["type"] as? String == "image/png")
        #expect(file["sha256"] as? String == (try Self.sha256(photo)))
        #expect(parts.first { $0["name"] as? String == "description" }?["text"] as? String == "Seoul at night",
                "the alt text is the item source's title")
        // 202: asked again until ready (206 first, then 200).
        let firstPoll = try server.next(), secondPoll = try server.next()
        #expect(firstPoll["path"] as? String == "/api/v1/media/m1" && firstPoll["status"] as? Int == 206)
        #expect(secondPoll["status"] as? Int == 200)
        let status = try server.next()
        #expect(status["path"] as? String == "/api/v1/statuses" && status["status"] as? Int == 200)
        #expect(SocialServer.fields(status) == [["status", "안녕 from share 🐘\nhttps://example.com/a?b=1"], ["media_ids[]", "m1"]])
        #expect(log.lines.contains { $0.text.hasPrefix("Uploading 서울 photo.png") && $0.progress == 1 }, "\(log.lines)")
    }

    @Test func aBadTokenIsUnauthorizedAndNamesTheTokenCommand() async throws {
        let server = try SocialServer("mastodon", fail: "auth")
        let (session, _) = try await Self.post(.mastodon, settings: server.settings(.mastodon), items: [.text("hello")])
        #expect(session.result?.outcome == .failed)
        #expect(session.result?.error?.code == "unauthorized")
        #expect(session.result?.error?.message
                == "Mastodon refused the credentials (HTTP 401: The access token is invalid); check token-command in [social.mastodon]")
    }

    @Test func certificatesAreCheckedAndTheSecretIsInNoMessage() async throws {
        let server = try SocialServer("mastodon")
        var settings = server.settings(.mastodon)
        settings.accounts[.mastodon]?.caFile = nil
        let (session, _) = try await Self.post(.mastodon, settings: settings, items: [.text("hello")])
        let message = session.result?.error?.message ?? ""
        #expect(session.result?.error?.code == "send-failed")
        #expect(message.contains("certificate verification failed") && message.contains("(set ca-file for a private server)"), "\(message)")
        #expect(server.rest().filter { $0["path"] as? String != "/api/v2/instance" }.isEmpty, "nothing reached the server but TLS")
        let refused = try SocialServer("mastodon", fail: "auth")
        let (denied, _) = try await Self.post(.mastodon, settings: refused.settings(.mastodon), items: [.text("hello")])
        for said in [denied.result?.error?.message ?? "", message] {
            #expect(!said.contains(SocialServer.token), "\(said)")
        }
    }

    @Test nonisolated func theWaitComesFromRetryAfterOrTheLimitsReset() {
        let now = Date(timeIntervalSince1970: 1_796_000_000)  // Mon, 30 Nov 2026 00:53:20 GMT
        func delay(_ headers: [(String, String)]) -> Int? {
            SocialAPI.retryDelay(HTTPClient.Response(status: 429, headers: headers.map { ($0.0, $0.1) }, body: []), now: now)
        }
        #expect(delay([("Retry-After", "120")]) == 120)
        #expect(delay([("Retry-After", "Mon, 30 Nov 2026 00:54:20 GMT")]) == 60)
        #expect(delay([("x-rate-limit-reset", "1796000300")]) == 300, "X: seconds since 1970")
        #expect(delay([("X-RateLimit-Reset", "2026-11-30T00:58:20.000Z")]) == 300, "Mastodon: an ISO 8601 date")
        #expect(delay([("ratelimit-reset", "30")]) == 30, "a small number is seconds from now")
        #expect(delay([("Retry-After", "soon")]) == nil)
        #expect(SocialAPI.duration(90) == "90 s" && SocialAPI.duration(300) == "5 min" && SocialAPI.duration(7500) == "2 h 5 min")
    }

    @Test func aRateLimitFailsWithTheTimeToWait() async throws {
        let server = try SocialServer("mastodon", fail: "rate")
        let (session, _) = try await Self.post(.mastodon, settings: server.settings(.mastodon), items: [.text("hello")])
        #expect(session.result?.error?.code == "rate-limited")
        #expect(session.result?.error?.message == "Mastodon limits how often you post (HTTP 429: Too many requests): try again in 90 s")
    }

    @Test func aRejectedPictureIsMediaRejectedAndNothingIsPosted() async throws {
        let server = try SocialServer("mastodon", fail: "media")
        let photo = try Self.picture(server.fixtures, "photo.png")
        let (session, _) = try await Self.post(.mastodon, settings: server.settings(.mastodon), items: [.text("hello"), photo])
        #expect(session.result?.error?.code == "media-rejected")
        #expect(session.result?.error?.message == "Mastodon rejected photo.png (HTTP 422: Validation failed: File content type is invalid)")
        #expect(!server.rest().contains { $0["path"] as? String == "/api/v1/statuses" })
    }

    @Test func aFileGoneBeforeItIsSentIsSaidSoNotTakenForTheNetwork() async throws {
        let server = try SocialServer("mastodon")
        let gone = ShareItem.image(FileItem(name: "gone.png", contentType: "image/png", size: 4096,
                                            storage: .path(server.fixtures.root.appendingPathComponent("gone.png"))))
        let (session, _) = try await Self.post(.mastodon, settings: server.settings(.mastodon), items: [.text("hello"), gone])
        #expect(session.result?.error?.code == "io-error")
        #expect(session.result?.error?.message.hasPrefix("cannot send gone.png: cannot read ") == true, "\(String(describing: session.result?.error))")
        #expect(!server.rest().contains { $0["path"] as? String == "/api/v1/statuses" })
    }

    @Test func aServerThatIsDownSaysItCannotBeReached() async throws {
        let server = try SocialServer("mastodon")
        let settings = server.settings(.mastodon)
        server.server.stop()
        let (session, _) = try await Self.post(.mastodon, settings: settings, items: [.text("hello")])
        #expect(session.result?.error?.code == "send-failed")
        #expect(session.result?.error?.message.hasPrefix("Mastodon cannot be reached: ") == true, "\(String(describing: session.result?.error))")
    }

    @Test func anUploadStoppedHalfwayIsCancelledAndNothingIsPosted() async throws {
        let server = try SocialServer("mastodon", fail: "slow")
        let video = try Self.picture(server.fixtures, "big.png", size: 24 << 20)
        let log = DisplayLog(stopPartway: true)
        let (session, _) = try await Self.post(.mastodon, settings: server.settings(.mastodon), items: [.text("hello"), video], log: log)
        #expect(session.result?.outcome == .cancelled)
        #expect(session.result?.error?.message == "stopped; nothing was posted")
        let partway = log.lines.compactMap(\.progress).filter { $0 > 0 && $0 < 1 }
        #expect(!partway.isEmpty, "progress was shown as the bytes went")
        #expect(!server.rest().contains { $0["path"] as? String == "/api/v1/statuses" })
    }

    @Test func triesOfOnePostFromOneFormShareTheirIdempotencyKeyAndAnEditedPostGetsAnother() async throws {
        let server = try SocialServer("mastodon", fail: "rate")
        let activity = SocialPostActivity(service: .mastodon, settings: server.settings(.mastodon))
        try await activity.prepare(with: [.text("hello")])
        let log = DisplayLog()
        func post(_ text: String) async -> ActivitySession {
            let session = ActivitySession(activityType: activity.activityType, items: [.text("hello")], subject: nil,
                                          form: SubmittedForm(action: "post", values: ["post": text], display: log.display))
            await activity.perform(session)
            return session
        }
        for text in ["hello", "hello", "hello, edited"] { #expect(await post(text).result?.error?.code == "rate-limited") }
        let keys = server.rest().filter { $0["path"] as? String == "/api/v1/statuses" }
            .compactMap { ($0["headers"] as? [String: String])?["idempotency-key"] }
        try #require(keys.count == 3, "\(keys)")
        #expect(keys[0] == keys[1], "a try again of the same post is the same post to the server")
        #expect(keys[2] != keys[0], "an edited post is another post")
    }

    // MARK: - Bluesky

    @Test func blueskySignsInUploadsTheBlobAndPostsWithLinkFacetsInUTF8Bytes() async throws {
        let server = try SocialServer("bluesky")
        let photo = try Self.picture(server.fixtures, "사진.png")
        let text = "서울의 밤 🌃 보기: https://example.com/seoul/night-photos-2026?size=large 그리고 https://한국.example/ 끝"
        let (session, _) = try await Self.post(.bluesky, settings: server.settings(.bluesky), items: [.text(text), photo],
                                               values: ["alt-0": "남산 타워"])
        #expect(session.result?.outcome == .sent, "\(String(describing: session.result?.error))")
        #expect(session.result?.returnedItems == [.url(URL(string: "https://bsky.app/profile/did:plc:kim3test/post/3kpost")!)])

        let signIn = try server.next()
        #expect(signIn["path"] as? String == "/xrpc/com.atproto.server.createSession" && signIn["status"] as? Int == 200)
        let blob = try server.next()
        #expect(blob["path"] as? String == "/xrpc/com.atproto.repo.uploadBlob")
        #expect((blob["body"] as? [String: Any])?["sha256"] as? String == (try Self.sha256(photo)))
        #expect((blob["headers"] as? [String: String])?["content-type"] == "image/png")
        let created = try server.next()
        #expect(created["status"] as? Int == 200, "\(created)")
        let record = try #require(SocialServer.json(created)["record"] as? [String: Any])
        let posted = try #require(record["text"] as? String)
        #expect(posted == "서울의 밤 🌃 보기: example.com/seoul/night-... 그리고 한국.example 끝")
        // The server cut each facet's bytes out of the UTF-8 text: they are the links as shown.
        #expect(created["facetText"] as? [String] == ["example.com/seoul/night-...", "한국.example"])
        let facets = try #require(record["facets"] as? [[String: Any]])
        let uris = facets.compactMap { (($0["features"] as? [[String: Any]])?.first)?["uri"] as? String }
        #expect(uris == ["https://example.com/seoul/night-photos-2026?size=large", "https://한국.example/"])
        let images = try #require((record["embed"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.first?["alt"] as? String == "남산 타워")
    }

    @Test func blueskyRefusesAWrongAppPasswordAndNamesBothKeys() async throws {
        let server = try SocialServer("bluesky")
        let (session, _) = try await Self.post(.bluesky, settings: server.settings(.bluesky, token: "wrong"), items: [.text("hello")])
        #expect(session.result?.error?.code == "unauthorized")
        #expect(session.result?.error?.message
                == "Bluesky refused the credentials (HTTP 401: Invalid identifier or password); check handle and token-command in [social.bluesky]")
    }

    @Test func blueskyRefusesAPictureOverItsLimitBeforeSendingIt() async throws {
        let server = try SocialServer("bluesky")
        let photo = try Self.picture(server.fixtures, "large.png", size: 1_500_000)
        let (session, _) = try await Self.post(.bluesky, settings: server.settings(.bluesky), items: [photo])
        #expect(session.result?.error?.code == "media-rejected")
        #expect(session.result?.error?.message == "Bluesky takes pictures of 1 MB at most, and large.png is 1.5 MB")
        #expect(server.rest().isEmpty, "nothing was sent")
    }

    @Test func blueskyRateLimitSaysWhenToTryAgain() async throws {
        let server = try SocialServer("bluesky", fail: "rate")
        let (session, _) = try await Self.post(.bluesky, settings: server.settings(.bluesky), items: [.text("hello")])
        #expect(session.result?.error?.code == "rate-limited")
        let message = session.result?.error?.message ?? ""
        #expect(message.hasPrefix("Bluesky limits how often you post (HTTP 429: Rate Limit Exceeded): try again in "), "\(message)")
        #expect(message.hasSuffix(" s") || message.hasSuffix(" min"), "\(message)")
    }

    // MARK: - Flickr

    @Test func flickrUploadIsSignedOverEveryFieldButThePhotoAndReturnsThePhotoPage() async throws {
        let server = try SocialServer("flickr")
        let photo = try Self.picture(server.fixtures, "한강.png")
        let (session, _) = try await Self.post(.flickr, settings: server.settings(.flickr), items: [.text("노을 & sunset"), photo],
                                               values: ["title": "한강의 저녁 🌇"])
        #expect(session.result?.outcome == .sent, "\(String(describing: session.result?.error))")
        #expect(session.result?.returnedItems == [.url(URL(string: "https://www.flickr.com/photos/kim/52341/")!)])
        let upload = try server.next()
        #expect(upload["oauth"] == nil, "oauthlib verified the signature: \(upload)")
        let parts = SocialServer.parts(upload)
        #expect(parts.first { $0["name"] as? String == "title" }?["text"] as? String == "한강의 저녁 🌇")
        #expect(parts.first { $0["name"] as? String == "description" }?["text"] as? String == "노을 & sunset")
        let file = try #require(parts.first { $0["name"] as? String == "photo" })
        let digest = try Self.sha256(photo)
        #expect(file["filename"] as? String == "한강.png" && file["sha256"] as? String == digest)
        let info = try server.next()
        #expect(info["path"] as? String == "/services/rest/" && info["oauth"] == nil, "\(info)")
    }

    @Test func flickrWithAWrongTokenSecretIsUnauthorized() async throws {
        let server = try SocialServer("flickr")
        let photo = try Self.picture(server.fixtures, "photo.png")
        let (session, _) = try await Self.post(.flickr, settings: server.settings(.flickr, token: "not/the+secret"), items: [photo])
        #expect(session.result?.error?.code == "unauthorized")
        #expect(session.result?.error?.message == "Flickr refused the credentials (Flickr error 96: Invalid signature); check consumer-key,"
                + " consumer-secret-command, token and token-secret-command in [social.flickr]")
        #expect(try server.next()["oauth"] as? String == "invalid signature", "the server's own check failed too")
    }

    @Test func flickrRejectingThePhotoIsMediaRejected() async throws {
        let server = try SocialServer("flickr", fail: "media")
        let photo = try Self.picture(server.fixtures, "photo.png")
        let (session, _) = try await Self.post(.flickr, settings: server.settings(.flickr), items: [photo])
        #expect(session.result?.error?.code == "media-rejected")
        #expect(session.result?.error?.message == "Flickr rejected photo.png (Flickr error 5: Filetype was not recognised)")
    }

    @Test func aSecondPhotoRefusedLeavesTheFirstPostedWithAWarning() async throws {
        let server = try SocialServer("flickr", fail: "second")
        let first = try Self.picture(server.fixtures, "one.png"), second = try Self.picture(server.fixtures, "two.png", size: 4096)
        let (session, _) = try await Self.post(.flickr, settings: server.settings(.flickr), items: [first, second])
        #expect(session.result?.outcome == .sent)
        #expect(session.result?.returnedItems == [.url(URL(string: "https://www.flickr.com/photos/kim/52341/")!)])
        #expect(session.result?.warnings == ["Flickr rejected two.png (Flickr error 5: Filetype was not recognised)"])
    }

    // MARK: - X

    @Test func xUploadsThePictureThenPostsWithItsIDSignedByOAuth() async throws {
        let server = try SocialServer("x")
        let photo = try Self.picture(server.fixtures, "chart.png")
        let text = "분기 결과 📈 https://example.com/q4"
        let (session, _) = try await Self.post(.twitter, settings: server.settings(.twitter), items: [.text(text), photo])
        #expect(session.result?.outcome == .sent, "\(String(describing: session.result?.error))")
        #expect(session.result?.returnedItems == [.url(URL(string: "https://x.com/i/web/status/1445880548472328192")!)])
        let upload = try server.next()
        #expect(upload["path"] as? String == "/2/media/upload" && upload["oauth"] == nil, "\(upload)")
        #expect((upload["headers"] as? [String: String])?["authorization"]?.hasPrefix("OAuth oauth_consumer_key=\"consumer-key-1\"") == true)
        let file = try #require(SocialServer.parts(upload).first { $0["name"] as? String == "media" })
        #expect(file["sha256"] as? String == (try Self.sha256(photo)))
        let tweet = try server.next()
        #expect(tweet["status"] as? Int == 201 && tweet["oauth"] == nil, "\(tweet)")
        let document = SocialServer.json(tweet)
        #expect(document["text"] as? String == text)
        #expect((document["media"] as? [String: Any])?["media_ids"] as? [String] == ["1880028106020515801"])
    }

    @Test func xRateLimitSaysWhenToTryAgainAndABadSignatureIsUnauthorized() async throws {
        let limited = try SocialServer("x", fail: "rate")
        let (first, _) = try await Self.post(.twitter, settings: limited.settings(.twitter), items: [.text("hello")])
        #expect(first.result?.error?.code == "rate-limited")
        #expect(first.result?.error?.message.hasPrefix("X limits how often you post (HTTP 429: Too Many Requests): try again in ") == true,
                "\(String(describing: first.result?.error))")
        let server = try SocialServer("x")
        let (second, _) = try await Self.post(.twitter, settings: server.settings(.twitter, token: "wrong"), items: [.text("hello")])
        #expect(second.result?.error?.code == "unauthorized")
        #expect(second.result?.error?.message.hasPrefix("X refused the credentials (HTTP 401: Unauthorized); check consumer-key,") == true)
    }

    // MARK: - Vimeo

    static func video(_ fixtures: Fixtures, _ name: String, size: Int) throws -> (ShareItem, String) {
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: (index &* 131) ^ (index >> 9)) }
        let url = try fixtures.file(name, Data(bytes))
        return (.file(FileItem(name: name, contentType: "video/mp4", size: Int64(size), storage: .path(url))), SHA256.hex(bytes))
    }

    @Test func vimeoUploadsInTusChunksAndResumesAfterADroppedPatchFromTheServersOffset() async throws {
        let server = try SocialServer("vimeo", fail: "drop")
        let (video, digest) = try Self.video(server.fixtures, "여행.mp4", size: 3 << 20)
        // Chunks of 1 MiB: the second PATCH is cut off halfway by the server.
        let (session, _) = try await Self.post(.vimeo, settings: server.settings(.vimeo), items: [video, .text("from the train")],
                                               values: ["title": "부산 가는 길"]) { $0.vimeoChunkSize = 1 << 20 }
        #expect(session.result?.error == nil, "\(String(describing: session.result?.error))")
        #expect(session.result?.outcome == .sent, "\(String(describing: session.result?.error))")
        #expect(session.result?.returnedItems == [.url(URL(string: "https://vimeo.com/76979871")!)])
        let created = try server.next()
        let document = SocialServer.json(created)
        #expect(document["name"] as? String == "부산 가는 길" && document["description"] as? String == "from the train")
        #expect((document["upload"] as? [String: Any])?["size"] as? Int == 3 << 20)
        var requests: [[String: Any]] = []
        while requests.last?["complete"] == nil, requests.count < 10 { requests.append(try server.next()) }
        let summary = requests.map { request -> String in
            if request["dropped"] as? Bool == true { return "dropped at \(request["offset"] ?? "?") after \(request["kept"] ?? "?")" }
            return "\(request["method"] ?? "?") \(request["offset"].map { "\($0)" } ?? "-")"
        }
        // The first chunk, the cut one (half kept), a HEAD for the offset, then chunks on from the middle of the second.
        #expect(summary == ["PATCH 0", "dropped at 1048576 after 524288", "HEAD -", "PATCH 1572864", "PATCH 2621440"], "\(summary)")
        #expect(requests.last?["complete"] as? String == digest, "the server has every byte, in order")
    }

@Test func aVideoWhoseUploadFailsIsDeletedSoThatATryAgainLeavesNoEmptyOne() async throws {
        let server = try SocialServer("vimeo", fail: "broken")
        let (video, _) = try Self.video(server.fixtures, "clip.mp4", size: 4096)
        let (session, _) = try await Self.post(.vimeo, settings: server.settings(.vimeo), items: [video])
        #expect(session.result?.outcome == .failed)
        #expect(session.result?.error?.message == "Vimeo's upload server kept refusing clip.mp4 at 0 of 4096 bytes"
                + " (HTTP 500: Something strange occurred. Please try again.); the unfinished video was deleted")
        let requests = server.rest().map { "\($0["method"] ?? "") \($0["path"] ?? "")" }
        // Five tries, each 500 followed by a HEAD that finds the server still at 0, but the last; then the video goes.
        let tries = Array(repeating: ["PATCH /tus/76979871", "HEAD /tus/76979871"], count: 4).flatMap { $0 }
        #expect(requests == ["POST /me/videos"] + tries + ["PATCH /tus/76979871", "DELETE /videos/76979871"], "\(requests)")
    }

        @Test func vimeoTakesVideosOnlyAndSaysSoForPictures() async throws {
        let account = SocialAccount(service: .vimeo, credentials: .token(command: "true"))
        let activity = SocialPostActivity(service: .vimeo, settings: SocialSettings(enabled: [.vimeo], accounts: [.vimeo: account]))
        let photo = ShareItem.image(FileItem(name: "photo.png", contentType: "image/png", size: 3, storage: .data(Data([1, 2, 3]))))
        #expect(activity.refusal(of: [photo]) == "Vimeo takes videos (files of a video/* type); this share has none")
        #expect(activity.leftOut(photo) == "Vimeo takes videos (video/*), and this is image/png")
        #expect(activity.refusal(of: [.url(URL(string: "https://example.com")!)]) == "Vimeo takes videos (files of a video/* type); this share has none")
    }

    // MARK: - On the screen

    /// The real command line in tmux: the form posts, the status line shows
    /// the upload's percentage, and Esc stops it with nothing posted.
    @Test nonisolated func theFormShowsTheUploadAndEscStopsIt() throws {
        let server = try SocialServer("mastodon", fail: "slow")
        let fixtures = server.fixtures
        // A PNG header and 24 MiB after it: an image to libmagic, slow to send at the server's pace.
        let photo = try fixtures.file("big.png", FixtureBytes.png + Data(count: 24 << 20))
        let config = try fixtures.writeConfig("""
            [social]
            enabled = mastodon
            mastodon = toot.example

            [social.mastodon]
            api = \(server.origin)
            token-command = printf '%s\\n' '\(SocialServer.token)'
            ca-file = \(server.certificate.cert.path)
            """)
        var environment = fixtures.environment
        environment["TERM"] = "xterm-256color"
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, "--config", config.path, "--json", "--activity", "postToMastodon",
                                        "--text", "big one", photo.path]).map(q).joined(separator: " "),
                                      width: 100, height: 30, workingDirectory: fixtures.files, environment: environment)
        defer { session.close() }
        let form = try session.waitFor("Post to Mastodon")
        #expect(form.contains("big.png (25.2 MB)"), "\(form.text)")
        #expect(form.contains("Alt text for big.png:"), "\(form.text)")
        #expect(form.contains("of 1000"), "the server's own limit:\n\(form.text)")
        try session.send("C-x")
        let uploading = try session.waitUntil("the upload's percentage") { screen in
            screen.matches(of: /Uploading big\.png \(1 of 1\) [0-9]+ %/).contains { !$0.text.hasSuffix(" 0 %") }
        }
        #expect(uploading.contains("Uploading big.png"))
        try session.send("Escape")
        #expect(try session.waitForExit() == 1, "stderr: \(session.stderr)")
        let completion = try SocialPostScreenTests.completion(session)
        #expect(completion["outcome"] as? String == "cancelled", "\(completion)")
        #expect((completion["error"] as? [String: Any])?["message"] as? String == "stopped; nothing was posted", "\(completion)")
        #expect(!server.rest().contains { $0["path"] as? String == "/api/v1/statuses" })
    }
}
