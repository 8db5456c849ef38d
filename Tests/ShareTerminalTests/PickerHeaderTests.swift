import Foundation
import ShareCore
import ShareSupport
import Testing
@testable import ShareTerminal

struct PickerHeaderTests {
    private let pdf = FileItem(name: "Q4 Projections.pdf", contentType: "application/pdf", size: 1_234_567, storage: .data(Data()))
    private let png = FileItem(name: "chart.png", contentType: "image/png", size: 48_213, storage: .path(URL(fileURLWithPath: "/tmp/chart.png")))

    @Test func oneFileShowsItsNameTypeAndSize() {
        let header = PickerHeader.describing([.file(pdf)])
        #expect(header.title == "Q4 Projections.pdf")
        #expect(header.subtitle == "application/pdf · 1.2 MB")
        #expect(header.icon == "▤")
    }

    @Test func oneImageShowsItsNameTypeAndSize() {
        let header = PickerHeader.describing([.image(png)])
        #expect(header.title == "chart.png")
        #expect(header.subtitle == "image/png · 48.2 KB")
        #expect(header.icon == "▣")
    }

    @Test func oneURLShowsItsHostAndPath() throws {
        let url = try #require(URL(string: "https://example.com/q4/report?ref=share"))
        let header = PickerHeader.describing([.url(url)])
        #expect(header.title == "example.com/q4/report")
        #expect(header.subtitle == "https://example.com/q4/report?ref=share")
        #expect(header.icon == "↗")

        let bare = try #require(URL(string: "https://example.com"))
        #expect(PickerHeader.describing([.url(bare)]).title == "example.com")
        let mailto = try #require(URL(string: "mailto:kim@example.com"))
        #expect(PickerHeader.describing([.url(mailto)]).title == "mailto:kim@example.com", "no host: the whole URL")
    }

    @Test func oneTextShowsAQuotedExcerpt() {
        let header = PickerHeader.describing([.text("Quarterly numbers,\nsee the attached report")])
        #expect(header.title == "“Quarterly numbers, see the attached report”")
        #expect(header.subtitle == "Text · 42 characters")
        #expect(header.icon == "¶")

        let long = PickerHeader.describing([.text(String(repeating: "안녕하세요 ", count: 20))])
        #expect(long.title.hasPrefix("“안녕하세요 안녕하세요"))
        #expect(long.title.hasSuffix("…”"))
        #expect(DisplayWidth.of(long.title) <= 62, "60 columns of excerpt plus the quotes")

        let hostile = PickerHeader.describing([.text("\u{1B}[2Jhi")])
        #expect(hostile.title == "“␛[2Jhi”")
    }

    @Test func oneCharacterIsSingular() {
        #expect(PickerHeader.describing([.text("a")]).subtitle == "Text · 1 character")
    }

    @Test func severalItemsAreCountedByKind() {
        let header = PickerHeader.describing(Fixture.items)
        #expect(header.title == "“Quarterly numbers, see the attached report”", "the first item's name")
        #expect(header.subtitle == "4 items: 1 text, 1 link, 1 image, 1 file")
        #expect(header.icon == "¶")

        let url = URL(string: "https://example.com")!
        let mixed = PickerHeader.describing([.file(pdf), .text("a"), .url(url), .text("b"), .file(pdf)])
        #expect(mixed.subtitle == "5 items: 2 files, 2 texts, 1 link", "kinds in order of first appearance")
        #expect(mixed.title == "Q4 Projections.pdf")
        #expect(mixed.icon == "▤")
    }

    @Test func anExplicitTitleWins() {
        let metadata = LinkMetadata(title: "Quarterly report — Example Corp")
        let explicit = PickerHeader.describing(Fixture.items, title: "Q4 numbers", metadata: metadata)
        #expect(explicit.title == "Q4 numbers")
        #expect(explicit.subtitle == "4 items: 1 text, 1 link, 1 image, 1 file")
        #expect(PickerHeader.describing(Fixture.items, metadata: metadata).title == "Quarterly report — Example Corp",
                "the link metadata's title comes next")
        #expect(PickerHeader.describing([], title: "Q4 numbers").title == "Q4 numbers")
    }

    @Test func nothingToShare() {
        let header = PickerHeader.describing([])
        #expect(header.title == "Nothing to share")
        #expect(header.icon == "◆")
    }

    @Test(arguments: [
        (Int64(0), "0 B"), (512, "512 B"), (999, "999 B"), (1000, "1.0 KB"), (1_234, "1.2 KB"), (12_300, "12.3 KB"),
        (48_213, "48.2 KB"), (999_949, "999.9 KB"), (4_000_000, "4.0 MB"), (1_500_000_000, "1.5 GB"),
        (2_000_000_000_000, "2.0 TB"),
    ])
    func byteCounts(bytes: Int64, text: String) {
        #expect(ByteCount.words(bytes) == text)
    }

    @Test(arguments: [(Int64(999_999), "1.0 MB"), (999_999_999, "1.0 GB"), (999_960, "1.0 MB")])
    func byteCountsThatRoundUpMoveToTheNextUnit(bytes: Int64, text: String) {
        #expect(ByteCount.words(bytes) == text, "never “1000.0” of a smaller unit")
    }
}
