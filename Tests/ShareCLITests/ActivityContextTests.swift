import Foundation
import ShareCore
import ShareMail
import ShareSupport
import Testing
@testable import ShareActivities
@testable import ShareCLI

/// System activities made by one factory from a context: their rows of the
/// support table, the config sections they own, and the keys they declare.
@MainActor
struct ActivityContextTests {
    static func context(config: String = "", environment: [String: String] = ["HOME": "/nonexistent", "PATH": "/nonexistent"],
                        hasTerminal: Bool = false) throws -> ActivityContext {
        let configuration = try Configuration(parsing: config, path: "/etc/share-test.conf", environment: environment)
        var context = ActivityContext(environment: environment, locations: Locations(environment: environment),
                                      hasTerminal: hasTerminal, detector: MagicContentTypeDetector(), section: configuration.section)
        context.title = "Reading"
        return context
    }

    @Test func everyRowIsMadeInTableOrderWithItsTitleCategoryAndKinds() throws {
        let activities = try SystemActivities.make(try Self.context())
        #expect(activities.map(\.activityType) == SupportTable.rows.map(\.type))
        for (activity, row) in zip(activities, SupportTable.rows) {
            #expect(activity.activityTitle == row.title, "\(row.type)")
            #expect(activity.activityCategory == row.category, "\(row.type)")
            #expect(activity.supportedKinds == row.kinds, "\(row.type)")
        }
        let built = Set(SystemActivities.built.map { $0.systemType })
        #expect(built == [.mail, .copyToPasteboard, .addToReadingList, .saveToCameraRoll, .assignToContact, .print, .message, .airDrop, .link])
        let social = activities.compactMap { $0 as? SocialPostActivity }
        #expect(social.map(\.activityType) == [.postToFacebook, .postToFlickr, .postToTencentWeibo, .postToTwitter, .postToVimeo, .postToWeibo,
                                                .postToMastodon, .postToBluesky])
        for activity in activities where !built.contains(activity.activityType) && !(activity is SocialPostActivity) {
            #expect(activity.availability == .unavailable("not built yet"))
        }
        #expect(activities.filter { $0.availability == .unavailable("not built yet") }.isEmpty, "every row is built")
    }

    @Test func activitiesReadTheirWorldFromTheContext() throws {
        let environment = ["HOME": "/home/kim", "XDG_DATA_HOME": "/data", "PATH": "/nonexistent"]
        let context = try Self.context(config: "[mail]\nfrom = 김민수 <kim@example.com>\nfrom-2 = work@example.org\n",
                                       environment: environment)
        let activities = try SystemActivities.make(context)
        let mail = try #require(activities.lazy.compactMap { $0 as? MailActivity }.first)
        #expect(mail.settings.identities.map(\.addrSpec) == ["kim@example.com", "work@example.org"])
        #expect(mail.settings.drafts.path == "/data/share/drafts")
        let list = try #require(activities.lazy.compactMap { $0 as? ReadingListActivity }.first)
        #expect(list.path == "/data/share/reading-list.tsv" && list.title == "Reading")
        let copy = try #require(activities.lazy.compactMap { $0 as? CopyActivity }.first)
        #expect(copy.route == nil, "no terminal and no clipboard program on this PATH")
        #expect(try SystemActivities.make(try Self.context(hasTerminal: true))
            .lazy.compactMap { $0 as? CopyActivity }.first?.route == .osc52)
    }

    @Test func aBadValueInAnActivitysSectionNamesFileAndLine() throws {
        let context = try Self.context(config: "[mail]\nfrom = kim@example.com\ntls = perhaps\n")
        #expect(throws: ConfigurationError("/etc/share-test.conf:3: tls is on or off, not 'perhaps'")) {
            try SystemActivities.make(context)
        }
    }

    @Test func theConfigCheckAcceptsExactlyTheKeysActivitiesDeclare() throws {
        #expect(Configuration.schema.contains(MailActivity.configKeys[0]), "Mail's keys are in the schema")
        #expect(throws: ConfigurationError("/c:2: unknown key 'transprt' in [mail]; valid keys: from, transport, tls, ca-file, "
                                           + "password-command, auth, token-command, imap, imap-password-command, sendmail, drafts, sent, outbox, "
                                           + "signature-file, command-timeout, markdown, undo-send, link-over, pgp-key, pgp-sign, pgp-encrypt, default, from-N")) {
            try Configuration(parsing: "[mail]\ntransprt = smtp://x\n", path: "/c", environment: [:])
        }
        // Without Mail's declaration there is no [mail] section at all.
        #expect(throws: ConfigurationError("/c:1: unknown section [mail]; valid sections: [contacts], [history], [keys], [picker], [portal]")) {
            try Configuration(parsing: "[mail]\nfrom = a@example.com\n", path: "/c", environment: [:],
                              schema: Configuration.commandLineKeys)
        }
        _ = try Configuration(parsing: "[mail]\nfrom-3 = c@example.com\n[picker]\npinned = mail\n", path: "/c", environment: [:])
    }
}

/// An item source of a link with its page title, as a Swift program shares one.
final class TitledLink: ActivityItemSource {
    let url: URL
    let title: String
    init(_ url: URL, title: String) {
        self.url = url
        self.title = title
    }
    func placeholderItem() -> ShareItem { .url(url) }
    func item(for activityType: ActivityType) -> ShareItem? { .url(url) }
    func linkMetadata() -> LinkMetadata? { LinkMetadata(title: title, url: url) }
}

@MainActor
struct ReadingListTitleTests {
    @Test func theTitleComesFromTheItemSourcesLinkMetadataUnlessOneIsGiven() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("share-list-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("reading-list.tsv").path
        let nshipster = try #require(URL(string: "https://nshipster.com/uiactivityviewcontroller/"))
        let other = try #require(URL(string: "https://example.com/q4"))
        for (given, expected) in [(nil, "UIActivityViewController – NSHipster"), ("Given\ttitle", "Given title")] as [(String?, String)] {
            try? FileManager.default.removeItem(atPath: path)
            let list = ReadingListActivity(path: path, title: given)
            let sheet = ShareSheet(activityItems: [.source(TitledLink(nshipster, title: "UIActivityViewController – NSHipster")),
                                                   .url(other)],
                                   systemActivities: SystemActivities.all(built: [list]))
            let result = await sheet.run(list)
            #expect(result.outcome == .performed, "\(result)")
            let entries = try ReadingListActivity.read(atPath: path).entries
            #expect(entries.map(\.url) == [nshipster.absoluteString, other.absoluteString])
            #expect(entries.map(\.title) == [expected, given.map { _ in expected } ?? ""],
                    "the other URL has no metadata of its own")
        }
    }
}
