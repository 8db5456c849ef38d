import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

struct LinkScreenTests {
    static let url = "https://bsky.app/intent/compose?text=%EC%84%9C%EC%9A%B8%20%F0%9F%A6%8B"

    static func state(width: Int = 100, height: Int = 40) -> LinkState {
        LinkState(title: "Post to Bluesky", url: url, reason: "No browser here: scan the code with a phone.", width: width, height: height)
    }

    @Test func theCodeIsDarkOnLightWithItsQuietZoneAndTheLinkBesideIt() throws {
        let state = Self.state()
        let code = try state.code.get()
        let frame = LinkView.view(state)
        // The quiet zone (4 modules: two lines, four columns) and the modules, black on white, from line 1.
        for (offset, line) in code.lines.enumerated() {
            for (column, scalar) in line.unicodeScalars.enumerated() {
                let cell = frame[1 + column, 1 + offset]
                // Light cells are no-break spaces (never erased as a run of blanks).
                #expect(cell.text == (scalar == " " ? "\u{00A0}" : String(scalar)), "line \(offset) column \(column)")
                #expect(cell.style.foreground == .black && cell.style.background == .white)
            }
        }
        #expect(code.lines.count == (code.width + 8 + 1) / 2 && code.drawnWidth == code.width + 8)
        #expect(code.lines.first?.allSatisfy { $0 == " " } == true, "the top of the quiet zone is light")
        // The link beside the code, whole, and each piece of it a hyperlink to it.
        let pieces = frame.hyperlinks
        #expect(!pieces.isEmpty && pieces.allSatisfy { $0.url == Self.url && $0.x == code.drawnWidth + 3 })
        #expect(pieces.map(\.text).joined() == Self.url)
        #expect(frame.shows("c copy link   Enter done"))
    }

    @Test func aCodeThatDoesNotFitSaysSoAndShowsTheLinkAlone() throws {
        let frame = LinkView.view(Self.state(width: 30, height: 12))
        #expect(frame.shows("The QR code does not fit"))
        #expect(!(0..<12).contains { y in (0..<30).contains { frame[$0, y].text == "▀" || frame[$0, y].text == "▄" } })
        #expect(frame.hyperlinks.map(\.text).joined() == Self.url, "the link is still there in full")
    }

    @Test func keysCopyAndFinish() {
        var state = Self.state()
        #expect(LinkUpdate.update(&state, .input(.character("c"))) == [.copy(Self.url)])
        #expect(LinkUpdate.update(&state, .input(.enter)) == [.done])
        #expect(LinkUpdate.update(&state, .input(.escape)) == [.done])
        #expect(LinkUpdate.update(&state, .input(.character("x"))).isEmpty)
        _ = LinkUpdate.update(&state, .input(.resize(width: 50, height: 20)))
        #expect(state.width == 50 && state.height == 20)
    }

    @Test func hyperlinksAreSentOverTheirCellsWithTheCursorKept() {
        let links = [Frame.Hyperlink(x: 3, y: 2, text: "https://a.example/", url: "https://a.example/\u{1B}]evil\u{07}"),
                     Frame.Hyperlink(x: 0, y: 50, text: "off screen", url: "https://b.example/")]
        let sent = NcursesTerminal.hyperlinks(links, width: 80, height: 24)
        #expect(sent == "\u{1B}7\u{1B}[3;4H\u{1B}]8;;https://a.example/]evil\u{1B}\\https://a.example/\u{1B}]8;;\u{1B}\\\u{1B}8")
    }
}
