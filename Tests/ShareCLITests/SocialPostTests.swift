import Foundation
import Testing
import TestSupport
@testable import ShareActivities
@testable import ShareCore

/// The share links, parsed back by Python's `urllib.parse`, field by field.
@Suite struct SocialLinkTests {
    /// Text that breaks a careless encoder: Korean, emoji, `&`, `#`, `+`, `=`, `%`, newlines.
    static let hard = "서울 날씨 ☀️ & 🇰🇷👩‍👩‍👧 #share a+b=c 100%\nnext line\r\nend?"
    static let link = "https://example.com/a b?x=1&y=#top"

    /// What `url_fields.py` makes of each link.
    static func fields(_ urls: [URL]) throws -> [[String: Any]] {
        let script = ServerScript.support.appendingPathComponent("url_fields.py")
        let input = Data(urls.map { $0.absoluteString + "\n" }.joined().utf8)
        let run = try Share.run(ServerScript.python, [script.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                                directory: URL(fileURLWithPath: "/"), input: input)
        try #require(run.status == 0, "url_fields.py: \(run.err)")
        return try run.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func query(_ fields: [String: Any]) -> [[String]] { fields["query"] as? [[String]] ?? [] }

    @Test func eachServiceLinkCarriesExactlyItsFields() throws {
        let links = [
            ShareLink.x(text: Self.hard, url: Self.link),
            ShareLink.facebook(url: Self.link),
            ShareLink.weibo(url: Self.link, title: Self.hard, pictures: ["https://example.com/p.jpg?s=2&t=3", "https://example.com/q.png"]),
            ShareLink.mastodon(instance: "mastodon.social", text: Self.hard),
            ShareLink.bluesky(text: Self.hard),
            ShareLink.x(text: "only words", url: nil),
        ]
        let parsed = try Self.fields(links.map { try #require($0) })
        try #require(parsed.count == links.count)
        let expected: [(host: String, path: String, query: [[String]])] = [
            ("x.com", "/intent/tweet", [["text", Self.hard], ["url", Self.link]]),
            ("www.facebook.com", "/sharer.php", [["u", Self.link]]),
            ("service.weibo.com", "/share/share.php", [["url", Self.link], ["title", Self.hard], ["pic", "https://example.com/p.jpg?s=2&t=3||https://example.com/q.png"]]),
            ("mastodon.social", "/share", [["text", Self.hard]]),
            ("bsky.app", "/intent/compose", [["text", Self.hard]]),
            ("x.com", "/intent/tweet", [["text", "only words"]]),
        ]
        for (fields, want) in zip(parsed, expected) {
            #expect(fields["scheme"] as? String == "https")
            #expect(fields["host"] as? String == want.host)
            #expect(fields["path"] as? String == want.path)
            #expect(Self.query(fields) == want.query, "\(fields)")
            #expect(fields["fragment"] as? String == "", "a # in a value never starts a fragment")
        }
    }

    @Test func onlyUnreservedBytesStayAsTheyAre() {
        #expect(ShareLink.encoded("a-Z_0.9~") == "a-Z_0.9~")
        #expect(ShareLink.encoded("a b+c&d#e=f%\n") == "a%20b%2Bc%26d%23e%3Df%25%0A")
        #expect(ShareLink.encoded("한") == "%ED%95%9C")
    }
}

/// Each service's count, at and over its limit.
@Suite struct PostLengthTests {
    @Test func xCountsLinksAs23AndWideScriptsAndEmojiAsTwo() {
        #expect(PostLength.x(String(repeating: "a", count: 280)) == 280)
        #expect(PostLength.x(String(repeating: "가", count: 140)) == 280)
        #expect(PostLength.x(String(repeating: "가", count: 141)) == 282)
        #expect(PostLength.x("see https://example.com/a/very/long/path/that/goes/on/and/on") == 4 + 23)
        #expect(PostLength.x("👩‍👩‍👧") == 2, "a joined family is one emoji")
        #expect(PostLength.x("☀️") == 2)
        #expect(PostLength.x("—“quoted”") == 9, "general punctuation counts 1")
        let service = SocialService.twitter
        #expect(service.count(text: String(repeating: "a", count: 256), link: "https://example.com") == 280)
        #expect(service.count(text: String(repeating: "a", count: 257), link: "https://example.com") == 281)
    }

    @Test func aLinkStartsAfterPunctuationAndEndsBeforeIt() {
        let long = "https://example.com/" + String(repeating: "p", count: 40)
        #expect(PostLength.x("(\(long))") == 1 + 23 + 1, "the parentheses are not the link's")
        #expect(PostLength.x("see \(long).") == 4 + 23 + 1, "a full stop after a link is text")
        #expect(PostLength.x("\(long)?!") == 23 + 2)
        #expect(PostLength.x("https://en.wikipedia.org/wiki/Swift_(\(String(repeating: "x", count: 30)))") == 23, "a ) the link opened is the link's")
        #expect(PostLength.x("x\(long)") == 1 + long.count, "a scheme right after a letter starts no link")
        #expect(PostLength.x("https://") == 8, "a scheme alone is no link")
        #expect(PostLength.mastodon("«\(long)»") == 1 + 23 + 1)
        #expect(PostLength.x("https://a.example/" + String(repeating: ".", count: 5)) == 23 + 5)
    }

    @Test func manyTrailingMarksOrSchemesAreCountedRight() {
        // Inputs that once took seconds each (a link's end found by recounting it at every mark).
        #expect(PostLength.x("https://a.example/x" + String(repeating: ".", count: 30_000)) == 23 + 30_000)
        #expect(PostLength.x("https://a.example/x" + String(repeating: ")", count: 10_000)) == 23 + 10_000)
        #expect(PostLength.x("(https://a.example/x(y))))") == 1 + 23 + 3, "the ) the link opened is its own; three are not")
        #expect(PostLength.mastodon(String(repeating: "ahttp://", count: 12_500)) == 100_000)
    }

    @Test func mastodonCountsGraphemesLinksAs23AndMentionsByName() {
        #expect(PostLength.mastodon(String(repeating: "가", count: 500)) == 500)
        #expect(PostLength.mastodon("hi @kim@example.social") == 3 + 4)
        #expect(PostLength.mastodon("https://example.com/\(String(repeating: "x", count: 100))") == 23)
        #expect(PostLength.mastodon("👍🏽") == 1, "one grapheme, as Mastodon's server counts (each_grapheme_cluster)")
        #expect(PostLength.mastodon("👩‍👩‍👧 e\u{301}") == 3)
    }

    @Test func blueskyCountsGraphemesWithLinksShortenedAsItsComposerWritesThem() {
        #expect(PostLength.bluesky("👩‍👩‍👧a") == 2)
        #expect(PostLength.bluesky(String(repeating: "é", count: 300)) == 300)
        #expect(PostLength.shortened("https://Example.COM/") == "example.com")
        #expect(PostLength.shortened("https://example.com/abc?d=1") == "example.com/abc?d=1")
        #expect(PostLength.shortened("http://example.com/a/very/long/path?q=1") == "example.com/a/very/long/...")
        #expect(PostLength.bluesky("read https://example.com/a/very/long/path?q=1 now") == 5 + 27 + 4)
        #expect(PostLength.shortened("https://a.com/?q=1") == "a.com?q=1", "a path of / is left out before the query")
        #expect(PostLength.shortened("https://ko.wikipedia.org/wiki/한국") == "ko.wikipedia.org/wiki/%ED%95%...",
                "the path as the browser's URL parser writes it, then cut")
    }

    @Test func theFormCountsThePostAgainstTheServiceLimit() async {
        await MainActor.run {
            let settings = SocialSettings(enabled: [.twitter, .mastodon, .bluesky], mastodonInstance: "mastodon.social")
            let post = FormField(id: "post", label: "Post", kind: .multilineText)
            let x = SocialPostActivity(service: .twitter, settings: settings)
            #expect(x.count(in: post, value: String(repeating: "a", count: 281)) == FieldCount(used: 281, limit: 280))
            #expect(x.count(in: post, value: String(repeating: "a", count: 281))?.isOver == true)
            #expect(x.count(in: FormField(id: "link", label: "Link", kind: .text), value: "x") == nil)
            let bluesky = SocialPostActivity(service: .bluesky, settings: settings)
            #expect(bluesky.count(in: post, value: String(repeating: "🦋", count: 300)) == FieldCount(used: 300, limit: 300))
            let mastodon = SocialPostActivity(service: .mastodon, settings: settings)
            #expect(mastodon.count(in: post, value: String(repeating: "a", count: 501))?.isOver == true)
            let weibo = SocialPostActivity(service: .weibo, settings: settings)
            #expect(weibo.count(in: post, value: "a") == nil, "Weibo's page counts for itself")
        }
    }
}

/// `$BROWSER` and `xdg-open`, as xdg-open and Python's webbrowser read them.
@Suite struct BrowserCommandTests {
    let url = "https://x.com/intent/tweet?text=a%20b"
    /// The terminal the browsers run on here.
    static let null = open("/dev/null", O_RDWR)

    @Test func eachBrowserEntryInTurnWithPercentSOrTheLinkLast() {
        let commands = Browser.commands(for: url, environment: ["BROWSER": "w3m:firefox --new-tab %s:'my browser' -u %s%%"])
        #expect(commands == [["w3m", url], ["firefox", "--new-tab", url], ["my browser", "-u", url + "%"]])
        #expect(Browser.commands(for: url, environment: ["BROWSER": "b --fmt=%%s"]) == [["b", "--fmt=%s", url]],
                "%%s is a literal %s, not the place of the link")
        #expect(Browser.commands(for: url, environment: ["BROWSER": "b 100%%"]) == [["b", "100%", url]])
        #expect(Browser.commands(for: url, environment: ["BROWSER": "firefox %s &:&"]) == [["firefox", url, "&"], ["&", url]],
                "a trailing & is kept to start the browser away from the terminal; a lone & is a program's name")
    }

    @Test func aDetachedBrowserIsStartedAndNotWaitedFor() throws {
        let fixtures = try Fixtures()
        let record = fixtures.root.appendingPathComponent("detached-argv")
        let gate = fixtures.root.appendingPathComponent("gate")
        try Data().write(to: gate)
        // A browser that writes its arguments, then runs until the gate file goes away.
        let browser = try fixtures.file("gui-browser", Data("""
            #!/bin/sh
            printf '%s\n' "$@" > \(record.path).tmp && mv \(record.path).tmp \(record.path)
            while [ -e \(gate.path) ]; do sleep 0.05; done

            """.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser.path)
        defer { try? FileManager.default.removeItem(at: gate) }
        let miss = Browser.open(url, environment: ["BROWSER": "\(browser.path) --new-window &", "PATH": "/usr/bin:/bin"], terminal: Self.null)
        #expect(miss == nil, "starting it is opening")
        // Open returned while the browser still runs (the gate is still there); its arguments arrive.
        try eventually("the browser's arguments", timeout: 10) { FileManager.default.fileExists(atPath: record.path) }
        #expect(try String(contentsOf: record, encoding: .utf8) == "--new-window\n\(url)\n")
    }

    @Test func aFailingOrMissingBrowserIsNamedInTheMiss() {
        #expect(Browser.open(url, environment: ["BROWSER": "/bin/false", "PATH": "/usr/bin:/bin"], terminal: Self.null) == .failed("false failed (exit 1)"))
        #expect(Browser.open(url, environment: ["BROWSER": "/bin/false &", "PATH": "/usr/bin:/bin"], terminal: Self.null) == .failed("false failed (exit 1)"),
                "a detached browser that fails at once is a failure, not an opened link")
        #expect(Browser.open(url, environment: ["BROWSER": "no-such-browser", "PATH": "/usr/bin:/bin"], terminal: Self.null)
                == .failed("no-such-browser is not on PATH"))
        #expect(Browser.open(url, environment: ["BROWSER": "'' %s", "PATH": "/usr/bin:/bin"], terminal: Self.null)
                == .failed("an entry of $BROWSER names no program"))
        #expect(Browser.open(url, environment: [:], terminal: Self.null) == .noBrowser)
    }

    @Test func xdgOpenOnlyWithADisplayAndNotOverSSH() {
        #expect(Browser.commands(for: url, environment: ["DISPLAY": ":0"]) == [["xdg-open", url]])
        #expect(Browser.commands(for: url, environment: ["WAYLAND_DISPLAY": "wayland-0"]) == [["xdg-open", url]])
        #expect(Browser.commands(for: url, environment: ["DISPLAY": "localhost:10.0", "SSH_CONNECTION": "1 2 3 4"]).isEmpty)
        #expect(Browser.commands(for: url, environment: [:]).isEmpty)
        #expect(Browser.commands(for: url, environment: ["BROWSER": "lynx", "DISPLAY": ":0"]) == [["lynx", url]])
    }
}

/// Which service takes which items, and why not, in `--explain`.
@Suite struct SocialEligibilityTests {
    static let config = """
        [social]
        enabled = twitter, facebook, weibo, mastodon, bluesky, flickr, vimeo, tencentweibo
        mastodon = mastodon.social
        """

    func reasons(_ fixtures: Fixtures, _ items: [String], config: String = SocialEligibilityTests.config) throws -> [String: String] {
        let file = try fixtures.writeConfig(config)
        let run = try fixtures.share(["--config", file.path, "--explain", "--json"] + items)
        try #require(run.status == 0, "\(run.err)")
        var reasons: [String: String] = [:]
        for row in try ActivityRow.parse(run) where row.type.hasPrefix("postTo") {
            reasons[row.type] = row.eligible ? "eligible" : "\(row.reason ?? "?"): \(row.detail ?? "")"
        }
        return reasons
    }

    @Test func textAloneGoesEverywhereButFacebook() throws {
        let fixtures = try Fixtures()
        let reasons = try reasons(fixtures, ["--text", "hello"])
        for type in ["postToTwitter", "postToWeibo", "postToMastodon", "postToBluesky"] { #expect(reasons[type] == "eligible", "\(type)") }
        #expect(reasons["postToFacebook"] == "unsupported-items: Facebook's share link takes one web address (http or https); this share has none")
        #expect(reasons["postToTencentWeibo"] == "unavailable: Tencent Weibo closed in September 2020; there is nothing left to post to")
        #expect(reasons["postToFlickr"]?.hasPrefix("unsupported-items: takes URL, Image") == true, "\(reasons)")
    }

    @Test func aURLGoesToEveryLinkServiceAndFlickrAndVimeoNeedATokenEvenWhenEnabled() throws {
        let fixtures = try Fixtures()
        let reasons = try reasons(fixtures, ["https://example.com/post"])
        for type in ["postToTwitter", "postToFacebook", "postToWeibo", "postToMastodon", "postToBluesky"] {
            #expect(reasons[type] == "eligible", "\(type): \(reasons[type] ?? "-")")
        }
        for (type, name, section) in [("postToFlickr", "Flickr", "flickr"), ("postToVimeo", "Vimeo", "vimeo")] {
            #expect(reasons[type] == "unavailable: \(name) has no share link: posting needs your account in a [social.\(section)] section"
                + " (README: Social posts)")
        }
    }

    @Test func aLocalImageAloneCannotGoThroughAnyLink() throws {
        let fixtures = try Fixtures()
        let image = try fixtures.file("photo.png", FixtureBytes.png)
        let reasons = try reasons(fixtures, [image.path])
        for (type, name, section) in [("postToMastodon", "Mastodon", "mastodon"), ("postToBluesky", "Bluesky", "bluesky")] {
            #expect(reasons[type] == "unsupported-items: a local image cannot go through \(name)'s share link; posting images needs your account"
                + " in a [social.\(section)] section", "\(type)")
        }
        for (type, name) in [("postToFacebook", "Facebook"), ("postToWeibo", "Weibo")] {
            #expect(reasons[type] == "unsupported-items: a local image cannot go through \(name)'s share link; \(name) takes posts from share"
                + " only through its link", "\(type)")
        }
        #expect(reasons["postToTencentWeibo"]?.hasPrefix("unavailable: Tencent Weibo closed") == true)
    }

    @Test func aServiceNotEnabledSaysHowToEnableIt() throws {
        let fixtures = try Fixtures()
        let reasons = try reasons(fixtures, ["--text", "hi"], config: "[social]\nenabled = bluesky\n")
        #expect(reasons["postToBluesky"] == "eligible")
        #expect(reasons["postToTwitter"] == "unavailable: not enabled: add twitter to enabled in the [social] section of the config file")
        let noServer = try self.reasons(fixtures, ["--text", "hi"], config: "[social]\nenabled = mastodon\n")
        #expect(noServer["postToMastodon"]?.hasPrefix("unavailable: no Mastodon server: set mastodon = HOST") == true)
    }

    @Test func anUnknownServiceOrServerIsAConfigErrorWithItsLine() throws {
        let fixtures = try Fixtures()
        let badHosts = ["a.b:1:2", ".", "a..b", "-a.b", "a.b-", "a.b:70000", "a.b:", "localhost", "a.b:0"].map { host in
            ("[social]\nmastodon = \(host)\n", "share.conf:2: mastodon is your server's host name, such as mastodon.social")
        }
        for (config, words) in [("[social]\nenabled = twitter, myspace\n", "share.conf:2: enabled names services: 'myspace' is not one of"),
                                ("[social]\nmastodon = https://mastodon.social/@kim\n", "share.conf:2: mastodon is your server's host name")]
            + badHosts {
            let file = try fixtures.writeConfig(config)
            let run = try fixtures.share("--config", file.path, "--explain", "--text", "hi")
            #expect(run.status == 2)
            #expect(run.err.contains(words), "\(run.err)")
        }
    }
}

/// The form, the browser and the QR code, on a real terminal.
/// `[social.SERVICE]`: the accounts that post directly, as the config
/// file has them, and what `--explain` says of each way.
@Suite struct SocialAccountConfigTests {
    @Test func anAccountSectionMakesTheServicePostDirectlyAndExplainSaysSo() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.writeConfig("""
            [social]
            enabled = mastodon, bluesky, flickr, vimeo, twitter
            mastodon = toot.example

            [social.mastodon]
            token-command = pass show mastodon

            [social.bluesky]
            handle = kim.bsky.social
            token-command = pass show bluesky
            api = https://pds.example:8443/

            [social.flickr]
            consumer-key = k
            consumer-secret-command = pass show flickr-consumer
            token = t
            token-secret-command = pass show flickr-token
            """)
        let image = try fixtures.file("photo.png", FixtureBytes.png)
        let run = try fixtures.share("--config", file.path, "--explain", "--text", "hi", image.path)
        try #require(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        func line(_ type: String) -> String { lines.first { $0.hasPrefix("  \(type) ") } ?? "" }
        #expect(line("postToMastodon").hasSuffix("eligible (directly through its API with the account of [social.mastodon])"), "\(run.out)")
        #expect(line("postToBluesky").hasSuffix("eligible (directly through its API as kim.bsky.social)"))
        #expect(line("postToFlickr").hasSuffix("eligible (directly through its API with the account of [social.flickr])"))
        #expect(line("postToTwitter").hasSuffix("eligible (through its share link; [social.twitter] would post directly)"))
        #expect(line("postToVimeo").contains("unavailable: Vimeo has no share link: posting needs your account in a [social.vimeo] section"))
        // The secrets' commands never ran: --explain only reads the file.
        #expect(!run.err.contains("pass"), "\(run.err)")
    }

    @Test func aMissingOrMisplacedKeyIsAConfigErrorWithItsLine() throws {
        let fixtures = try Fixtures()
        let cases: [(String, String)] = [
            ("[social.mastodon]\napi = https://x.example\n", "share.conf:2: [social.mastodon] needs token-command (such as `token-command = pass show mastodon-token`)"),
            ("[social.bluesky]\ntoken-command = pass show b\n", "share.conf:2: [social.bluesky] needs handle (such as `handle = kim.bsky.social`)"),
            ("[social.flickr]\nconsumer-key = k\ntoken = t\ntoken-secret-command = x\n",
             "share.conf:2: [social.flickr] needs consumer-secret-command"),
            ("[social.vimeo]\ntoken-command = x\nhandle = kim\n", "share.conf:3: handle is not used by Vimeo; it reads token-command, api, ca-file, command-timeout"),
            ("[social.facebook]\ntoken-command = x\n", "share.conf:2: [social.facebook]: Facebook takes posts only through its share link, so it has no account to set"),
            ("[social.myspace]\ntoken-command = x\n", "share.conf:2: [social.myspace] names no service: use one of twitter, flickr, vimeo, mastodon, bluesky"),
            ("[social.mastodon]\ntoken-command = x\napi = http://plain.example\n", "share.conf:3: api is an https:// address such as https://bsky.social"),
            ("[social.mastodon]\ntoken-command = x\napi = https://x.example/path\n", "share.conf:3: api is an https:// address"),
            ("[social.mastodon]\ntoken-command = x\nsecret = y\n", "share.conf:3: unknown key 'secret' in [social.mastodon]"),
        ]
        for (config, words) in cases {
            let file = try fixtures.writeConfig(config)
            let run = try fixtures.share("--config", file.path, "--explain", "--text", "hi")
            #expect(run.status == 2, "\(config)")
            #expect(run.err.contains(words), "\(config) → \(run.err)")
        }
    }

    @Test func apiIsAnOriginOnly() {
        #expect(SocialAccount.origin("https://bsky.social/") == "https://bsky.social")
        #expect(SocialAccount.origin("https://localhost:8443") == "https://localhost:8443")
        #expect(SocialAccount.origin("https://127.0.0.1:9") == "https://127.0.0.1:9")
        for bad in ["http://bsky.social", "https://", "https://a.example/xrpc", "https://a.example?x", "https://a b.example", "bsky.social"] {
            #expect(SocialAccount.origin(bad) == nil, "\(bad)")
        }
    }
}

@Suite struct SocialPostScreenTests {
    static func start(_ fixtures: Fixtures, _ arguments: [String], environment: [String: String] = [:], height: Int = 30) throws -> TmuxSession {
        let config = try fixtures.writeConfig(SocialEligibilityTests.config)
        var environment = fixtures.environment.merging(environment) { $1 }
        environment["TERM"] = "xterm-256color"
        let q = TmuxSession.quote
        return try TmuxSession(([try Share.binary().path, "--config", config.path, "--json"] + arguments).map(q).joined(separator: " "),
                               width: 100, height: height, workingDirectory: fixtures.files, environment: environment)
    }

    /// The values of the returned items, each a URL.
    static func returnedURLs(_ completion: [String: Any]) -> [String] {
        (completion["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String == "url" ? $0["value"] as? String : nil }
    }

    /// The JSON completion share printed.
    static func completion(_ session: TmuxSession) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any], "stdout: \(session.stdout)")
    }

    @Test func postOpensTheLinkInBrowserWithTheLinkAsItsOnlyArgument() throws {
        let fixtures = try Fixtures()
        let record = fixtures.root.appendingPathComponent("browser-argv")
        let browser = try fixtures.file("fake-browser", Data("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \(record.path)\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser.path)
        let session = try Self.start(fixtures, ["--activity", "postToTwitter", "--subject", "Read this", "--text", "a & b #c",
                                                "https://example.com/story?id=7"],
                                     environment: ["BROWSER": "/nonexistent/browser:\(browser.path) --new-tab %s"])
        defer { session.close() }
        let form = try session.waitFor("Post to X")
        #expect(form.contains("Link:") && form.contains("https://example.com/story?id=7"), "\(form.text)")
        #expect(form.contains("Read this") && form.contains("a & b #c"))
        #expect(form.contains("42 of 280"), "9 + 1 + 8, then a space and the link as 23:\n\(form.text)")
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let argv = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(argv.count == 2, "\(argv)")
        #expect(argv[0] == "--new-tab")
        let fields = try SocialLinkTests.fields([try #require(URL(string: argv[1]))])
        #expect(SocialLinkTests.query(fields[0]) == [["text", "Read this\na & b #c"], ["url", "https://example.com/story?id=7"]])
        let completion = try Self.completion(session)
        #expect(completion["outcome"] as? String == "performed")
        #expect(SocialPostScreenTests.returnedURLs(completion) == [argv[1]], "\(completion)")
    }

    @Test func withoutABrowserTheLinkIsShownWithAQRCodeThatScansBackToIt() throws {
        let fixtures = try Fixtures()
        let session = try Self.start(fixtures, ["--activity", "postToBluesky", "--text", "서울 🦋 & more", "https://example.com/a#b"], height: 40)
        defer { session.close() }
        try session.waitFor("Post to Bluesky")
        try session.send("C-x")
        // The help row is the frame's last: once it shows, the code above it is drawn whole.
        let shown = try session.waitUntil("the link screen, drawn to its last row") {
            $0.contains("No browser here") && $0.contains("Enter done")
        }
        #expect(shown.contains("https://bsky.app/intent/compose?text="), "\(shown.text)")
        let png = fixtures.root.appendingPathComponent("code.png")
        let script = ServerScript.support.appendingPathComponent("qr_from_screen.py")
        let extract = try Share.run(ServerScript.python, [script.path, png.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                                    directory: fixtures.root, input: Data(shown.text.utf8))
        try #require(extract.status == 0, "no QR code on the screen:\n\(shown.text)")
        let decoded = try Share.run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--raw", "--nodbus", "-q", png.path],
                                    environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        try #require(decoded.status == 0, "zbarimg: \(decoded.err)")
        let link = decoded.out.trimmingCharacters(in: .newlines)
        let fields = try SocialLinkTests.fields([try #require(URL(string: link))])
        #expect(fields[0]["host"] as? String == "bsky.app")
        #expect(SocialLinkTests.query(fields[0]) == [["text", "서울 🦋 & more\nhttps://example.com/a#b"]])
        try session.send("c")
        try session.waitFor("Sent the link to the terminal's clipboard (OSC 52)")
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let completion = try Self.completion(session)
        #expect(completion["outcome"] as? String == "performed")
        #expect(SocialPostScreenTests.returnedURLs(completion) == [link], "\(completion)")
    }

    @Test func aBrowserThatFailsIsNamedAndTheLinkScreenFollowsAResize() throws {
        let fixtures = try Fixtures()
        let session = try Self.start(fixtures, ["--activity", "postToMastodon", "--text", "toot"],
                                     environment: ["BROWSER": "/bin/false"], height: 40)
        defer { session.close() }
        try session.waitFor("Post to Mastodon")
        try session.send("C-x")
        let shown = try session.waitFor("The browser did not open the link (false failed (exit 1))")
        #expect(shown.contains("https://mastodon.social/share?text=toot"), "\(shown.text)")
        #expect(shown.contains("▀") || shown.contains("▄"), "the QR code is drawn at 100 by 40:\n\(shown.text)")
        // Too small for the code: it goes, the link stays, and the screen says what it needs.
        try session.resize(width: 40, height: 14)
        let small = try session.waitFor("does not fit")
        #expect(!small.contains("▀") && !small.contains("▄"), "\(small.text)")
        #expect(small.text.replacingOccurrences(of: "\n ", with: "").contains("https://mastodon.social/share?text=toot"),
                "the link, in lines: \(small.text)")
        try session.resize(width: 100, height: 40)
        try session.waitUntil("the code back after growing") { $0.contains("▀") || $0.contains("▄") }
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let completion = try Self.completion(session)
        #expect(completion["outcome"] as? String == "performed")
        #expect(Self.returnedURLs(completion) == ["https://mastodon.social/share?text=toot"])
    }

    @Test func overTheLimitPostIsRefusedWithTheCountAndTheFormStays() throws {
        let fixtures = try Fixtures()
        let session = try Self.start(fixtures, ["--activity", "postToTwitter", "--text", String(repeating: "가", count: 139)])
        defer { session.close() }
        try session.waitFor("278 of 280")
        try session.sendLiteral("나다")
        let over = try session.waitFor("⚠ 282 of 280")
        #expect(over.contains("Post to X"))
        try session.send("C-x")
        let refused = try session.waitFor("shorten it by 2")
        #expect(refused.contains("the post counts 282 of X's 280"), "\(refused.text)")
        #expect(!session.hasExited)
        try session.send("BSpace")
        try session.waitFor("280 of 280")
        try session.send("Escape")
        try session.waitUntil("asked to discard or exited") { $0.text.contains("iscard") || session.hasExited }
        if !session.hasExited { try session.send("d") }
        #expect(try session.waitForExit() == 1)
    }
}

/// What each service's form holds, and the link a submission makes.
@MainActor
@Suite struct SocialPostFormTests {
    static let settings = SocialSettings(enabled: Set(SocialService.allCases), mastodonInstance: "toot.example")
    static let photo = ShareItem.image(FileItem(name: "photo.png", contentType: "image/png", size: 3, storage: .data(Data([1, 2, 3]))))

    func activity(_ service: SocialService, _ items: [ShareItem], subject: String? = nil) async throws -> SocialPostActivity {
        let activity = SocialPostActivity(service: service, settings: Self.settings)
        try await activity.prepare(with: items)
        activity.offeredSubject = subject
        return activity
    }

    func post(_ activity: SocialPostActivity, _ values: [String: String]) async -> ActivitySession {
        let session = ActivitySession(activityType: activity.activityType, items: [], subject: nil,
                                      form: SubmittedForm(action: "post", values: values))
        await activity.perform(session)
        return session
    }

    func field(_ form: ActivityForm?, _ id: String) -> FormField? { form?.fields.first { $0.id == id } }

    @Test func xTakesTheSubjectAndTextInThePostAndTheFirstLinkBesideIt() async throws {
        let x = try await activity(.twitter, [.text("first"), .url(URL(string: "https://a.example/1")!), .url(URL(string: "https://b.example/2")!),
                                              .url(URL(string: "mailto:kim@example.com")!), Self.photo], subject: "Subject")
        let form = x.makeForm()
        #expect(form?.title == "Post to X")
        #expect(field(form, "post")?.initialValue == "Subject\nfirst\nhttps://b.example/2\nmailto:kim@example.com",
                "the other links and addresses that are not web links go in the text")
        #expect(field(form, "link")?.kind == .preview && field(form, "link")?.initialValue == "https://a.example/1",
                "the first link goes beside the post: shown, not chosen, so no link is lost or sent twice")
        #expect(field(form, "left-out")?.initialValue.hasPrefix("photo.png: a local image cannot go through a share link") == true)
        let session = await post(x, ["post": "hello https://b.example/2", "link": "https://b.example/2"])
        let link = try #require(session.result?.linkToOpen)
        #expect(session.result?.outcome == .performed && session.result?.returnedItems == [.url(link)])
        #expect(link.absoluteString == "https://x.com/intent/tweet?text=hello%20https%3A%2F%2Fb.example%2F2&url=https%3A%2F%2Fa.example%2F1")
    }

    @Test func facebookTakesTheChosenWebLinkAndNeverAnotherAddress() async throws {
        let facebook = try await activity(.facebook, [.url(URL(string: "https://a.example/1")!), .url(URL(string: "https://b.example/2")!),
                                                      .url(URL(string: "tel:+15551234")!)])
        let form = facebook.makeForm()
        #expect(field(form, "link")?.kind == .choice(["https://a.example/1", "https://b.example/2"]))
        #expect(field(form, "left-out")?.initialValue == "tel:+15551234: Facebook's share link takes a web address (http or https)")
        let chosen = await post(facebook, ["link": "https://b.example/2"])
        #expect(chosen.result?.linkToOpen?.absoluteString == "https://www.facebook.com/sharer.php?u=https%3A%2F%2Fb.example%2F2")
        let forged = await post(facebook, ["link": "javascript:alert(1)"])
        #expect(forged.result?.linkToOpen?.absoluteString == "https://www.facebook.com/sharer.php?u=https%3A%2F%2Fa.example%2F1",
                "a value that is not one of the shared links is never sent")
        let mailOnly = try await activity(.facebook, [.url(URL(string: "mailto:kim@example.com")!)])
        #expect(mailOnly.refusal(of: [.url(URL(string: "mailto:kim@example.com")!)]) == "Facebook's share link takes one web address (http or https); this share has none")
    }

    @Test func facebookCarriesTheLinkAloneAndSaysTheTextIsLeftOut() async throws {
        let facebook = try await activity(.facebook, [.text("words"), .url(URL(string: "https://a.example/?q=1&r=2")!)])
        let form = facebook.makeForm()
        #expect(field(form, "post") == nil, "Facebook's link carries no text")
        #expect(field(form, "left-out")?.initialValue == "“words”: Facebook's share link takes one URL and no text; write the words on Facebook")
        let session = await post(facebook, ["link": "https://a.example/?q=1&r=2"])
        #expect(session.result?.linkToOpen?.absoluteString == "https://www.facebook.com/sharer.php?u=https%3A%2F%2Fa.example%2F%3Fq%3D1%26r%3D2")
    }

    @Test func weiboTakesImageURLsAsItsPictures() async throws {
        let weibo = try await activity(.weibo, [.text("看看"), .url(URL(string: "https://a.example/story")!),
                                                .url(URL(string: "https://img.example/cat.JPG")!), .url(URL(string: "https://img.example/dog.png")!)])
        let form = weibo.makeForm()
        #expect(field(form, "picture")?.label == "Pictures" && field(form, "picture")?.kind == .preview)
        #expect(field(form, "link")?.initialValue == "https://a.example/story")
        #expect(field(form, "post")?.initialValue == "看看")
        let session = await post(weibo, ["post": "看看"])
        let fields = try SocialLinkTests.fields([try #require(session.result?.linkToOpen)])
        #expect(SocialLinkTests.query(fields[0]) == [["url", "https://a.example/story"], ["title", "看看"],
                                                     ["pic", "https://img.example/cat.JPG||https://img.example/dog.png"]])
        // A picture alone is something to post.
        let picture = try await activity(.weibo, [.url(URL(string: "https://img.example/cat.jpg")!)])
        let alone = await post(picture, ["post": ""])
        #expect(alone.result?.outcome == .performed)
        #expect(alone.result?.linkToOpen?.absoluteString == "https://service.weibo.com/share/share.php?pic=https%3A%2F%2Fimg.example%2Fcat.jpg")
    }

    @Test func mastodonAndBlueskyCarryTheLinksInTheText() async throws {
        let mastodon = try await activity(.mastodon, [.text("toot"), .url(URL(string: "https://a.example/")!)])
        #expect(field(mastodon.makeForm(), "link") == nil)
        #expect(field(mastodon.makeForm(), "post")?.initialValue == "toot\nhttps://a.example/")
        let session = await post(mastodon, ["post": "toot\nhttps://a.example/"])
        #expect(session.result?.linkToOpen?.absoluteString == "https://toot.example/share?text=toot%0Ahttps%3A%2F%2Fa.example%2F")
    }

    @Test func overTheLimitOrEmptyIsRefusedAndNothingIsOpened() async throws {
        let bluesky = try await activity(.bluesky, [.text("x")])
        let over = await post(bluesky, ["post": String(repeating: "🦋", count: 301)])
        #expect(over.result?.outcome == .failed && over.result?.linkToOpen == nil)
        #expect(over.result?.error?.message == "the post counts 301 of Bluesky's 300: shorten it by 1")
        let empty = await post(bluesky, ["post": "  \n "])
        #expect(empty.result?.error?.message == "nothing to post: write something first")
        let atLimit = await post(bluesky, ["post": String(repeating: "🦋", count: 300)])
        #expect(atLimit.result?.outcome == .performed)
    }
}
