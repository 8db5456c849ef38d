import Foundation
import Testing
@testable import ShareCore

/// The support table of SPEC §2, written out here independently of the code.
private let expectedTable: [(type: String, title: String, category: ActivityCategory, kinds: Set<ItemKind>)] = [
    ("airDrop", "Nearby", .action, [.string, .url, .image, .file]),
    ("addToReadingList", "Add to Reading List", .action, [.url]),
    ("assignToContact", "Assign to Contact", .action, [.image]),
    ("copyToPasteboard", "Copy", .action, [.string, .url, .image, .file]),
    ("print", "Print", .action, [.image, .file]),
    ("saveToCameraRoll", "Save to Pictures", .action, [.url, .image]),
    // SPEC §9: the items uploaded to a place, and its link handed back.
    ("link", "Link", .action, [.string, .url, .image, .file]),
    ("mail", "Mail", .share, [.string, .url, .image, .file]),
    ("message", "Message", .share, [.string, .url, .image, .file]),
    ("postToFacebook", "Facebook", .share, [.string, .url, .image]),
    ("postToFlickr", "Flickr", .share, [.url, .image]),
    ("postToTencentWeibo", "Tencent Weibo", .share, [.string, .url, .image]),
    ("postToTwitter", "Twitter", .share, [.string, .url, .image]),
    // Files too: SPEC §2's note has Vimeo take videos, which are files
    // with a video/* type (DECISIONS.md, "Direct posting").
    ("postToVimeo", "Vimeo", .share, [.url, .image, .file]),
    ("postToWeibo", "Weibo", .share, [.string, .url, .image]),
    ("postToMastodon", "Mastodon", .share, [.string, .url, .image]),
    ("postToBluesky", "Bluesky", .share, [.string, .url, .image]),
]

@MainActor
private func eligibleTypes(_ items: [ShareItem]) -> Set<String> {
    let sheet = ShareSheet(activityItems: items.map(ActivityItem.item), systemActivities: SystemStandIn.all())
    return Set(sheet.eligibleActivities().map(\.activityType.rawValue))
}

@MainActor
struct SupportTableTests {
    @Test func tableMatchesTheSpecRowForRow() {
        #expect(SupportTable.rows.map(\.type.rawValue) == expectedTable.map(\.type))
        #expect(ActivityType.system.map(\.rawValue) == expectedTable.map(\.type))
        for (row, expected) in zip(SupportTable.rows, expectedTable) {
            #expect(row.title == expected.title, "\(expected.type)")
            #expect(row.category == expected.category, "\(expected.type)")
            #expect(row.kinds == expected.kinds, "\(expected.type)")
        }
    }

    @Test(arguments: [ItemKind.string, .url, .file])
    func eachNonImageKindAloneReachesExactlyItsColumn(kind: ItemKind) {
        let item: ShareItem = switch kind {
        case .string: Fixtures.text
        case .url: Fixtures.url
        case .image: Fixtures.image
        case .file: Fixtures.file
        }
        let expected = Set(expectedTable.filter { $0.kinds.contains(kind) }.map(\.type))
        #expect(eligibleTypes([item]) == expected)
    }

    @Test func anImageReachesTheImageAndTheFilesColumns() {
        let expected = Set(expectedTable.filter { $0.kinds.contains(.image) || $0.kinds.contains(.file) }.map(\.type))
        #expect(eligibleTypes([Fixtures.image]) == expected)
        // Print takes Files only, and still takes an image.
        #expect(eligibleTypes([Fixtures.image]).contains("print"))
        #expect(!eligibleTypes([Fixtures.file]).contains("assignToContact"))
    }

    @Test func mixedItemsReachTheUnionOfTheirColumns() {
        #expect(eligibleTypes([Fixtures.text, Fixtures.file])
            == Set(expectedTable.filter { !$0.kinds.isDisjoint(with: [.string, .file]) }.map(\.type)))
        #expect(eligibleTypes([Fixtures.url, Fixtures.image]).count == 17)
        #expect(eligibleTypes([]).isEmpty)
    }

    @Test func aPNGNamedTxtIsAnImage() throws {
        let path = try Fixtures.file("looks-like-text.txt", Fixtures.png)
        let item = try ItemResolver(detector: MagicContentTypeDetector()).file(atPath: path)
        #expect(item.kind == .image)
        #expect(item.contentType == "image/png")
        #expect(item.fileItem?.name == "looks-like-text.txt")
        #expect(eligibleTypes([item]).contains("assignToContact"))
    }

    /// libmagic calls an empty file `inode/x-empty`, which is no MIME type:
    /// it is shared (and attached) as application/octet-stream.
    @Test func anEmptyFileIsOctetStreamNotInodeXEmpty() throws {
        let path = try Fixtures.file("empty.dat", Data())
        let item = try ItemResolver(detector: MagicContentTypeDetector()).file(atPath: path)
        #expect(item.kind == .file)
        #expect(item.contentType == "application/octet-stream")
        #expect(MagicContentTypeDetector.mediaType("inode/symlink") == "application/octet-stream")
        #expect(MagicContentTypeDetector.mediaType("text/x-shellscript") == "text/x-shellscript")
        #expect(MagicContentTypeDetector.mediaType("image/") == "application/octet-stream")
    }

    @Test func eligibilityFollowsTheTableNotTheImplementation() {
        // The stand-ins claim every kind; Add to Reading List must still refuse text.
        let sheet = ShareSheet(activityItems: [.item(Fixtures.text)], systemActivities: SystemStandIn.all())
        let verdict = sheet.evaluate(sheet.activity(ofType: .addToReadingList)!)
        #expect(verdict.reason == .unsupportedItems)
        #expect(verdict.detail == "takes URL; items are String")
    }
}
