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
                // Light cells are spaces on the white paper: what a copy of the screen gives too.
                #expect(cell.text == String(scalar), "line \(offset) column \(column)")
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

    @Test func hyperlinksAreSentOverTheirCellsInTheirStyleWithTheCursorKept() {
        let links = [Frame.Hyperlink(x: 3, y: 2, text: "https://a.example/", url: "https://a.example/\u{1B}]evil\u{07}",
                                     style: CellStyle(foreground: .cyan, underline: true)),
                     Frame.Hyperlink(x: 0, y: 50, text: "off screen", url: "https://b.example/")]
        let sent = FrameWriter.hyperlinks(links, width: 80, height: 24, palette: 8)
        #expect(sent == "\u{1B}7\u{1B}[3;4H\u{1B}[0;4;36m\u{1B}]8;;https://a.example/]evil\u{1B}\\https://a.example/\u{1B}]8;;\u{1B}\\\u{1B}8")
        let plain = FrameWriter.hyperlinks(links, width: 80, height: 24, palette: 0)
        #expect(plain.hasPrefix("\u{1B}7\u{1B}[3;4H\u{1B}[0;4m\u{1B}]8;;"), "no colour the terminal lacks: \(plain.debugDescription)")
    }

    @Test func withColoursOffTheCodeStaysDarkOnLightAndTheLinkLosesItsColour() throws {
        var state = Self.state()
        state.colors = false
        let code = try state.code.get()
        let frame = LinkView.view(state)
        #expect(frame[1, 1].style == CellStyle(foreground: .black, background: .white))
        #expect(frame[1 + code.drawnWidth / 2, 1 + code.lines.count / 2].style.background == .white)
        #expect(!frame.hyperlinks.isEmpty && frame.hyperlinks.allSatisfy { $0.style == CellStyle(underline: true) })
        let x = frame.hyperlinks[0].x, y = frame.hyperlinks[0].y
        #expect(frame[x, y].style == CellStyle(underline: true))
    }

    @Test func underTheCodeThereIsRoomForTheLinkOrTheCodeIsNotDrawn() throws {
        let code = try Self.state().code.get()
        // Too narrow for the words beside the code: the code goes under the words, and the link under the code.
        let narrow = code.drawnWidth + 10
        let layouts = LinkView.layouts(code, reason: "No browser here.", width: narrow, height: 200)
        #expect(!layouts[0].fits && layouts[1].fits)
        let exact = layouts[1].needsHeight
        let fits = LinkView.view(Self.state(width: narrow, height: exact))
        let link = try #require(fits.hyperlinks.first)
        #expect(link.y == layouts[1].urlTop && link.y < exact - 2, "the link's first line is above the status line")
        #expect(fits[1, layouts[1].codeTop].style.background == .white)
        // One line less and the link would have no room: the code is not drawn, and the message names the screen it needs.
        let short = LinkView.view(Self.state(width: narrow, height: exact - 1))
        let words = short.lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(words.contains("The QR code does not fit: it needs \(narrow)×\(exact)."))
        #expect(short.hyperlinks.map(\.text).joined() == Self.url)
        // Wide but short: the words beside the code need the fewest lines, and that is what the message asks for.
        let wide = LinkView.view(Self.state(width: 200, height: code.lines.count + 2))
        #expect(wide.shows("it needs 200×\(code.lines.count + 3)."))
    }

    @Test func aLongLinkOnAnySmallScreenNeverCrashesAndSaysWhatTheCodeNeeds() throws {
        let long = "https://x.com/intent/tweet?text=" + String(repeating: "%EC%84%9C", count: 150)
        for (width, height) in [(20, 6), (30, 11), (30, 12), (40, 10), (80, 24), (100, 30), (19, 5)] {
            let state = LinkState(title: "Post to X", url: long, reason: "No browser here: scan the code with a phone.", width: width, height: height)
            let frame = LinkView.view(state)
            guard width >= 20, height >= 6 else { continue }
            let words = frame.lines.joined(separator: " ")
            // On the smallest screens the words are cut on the status line; from 80 columns they are whole.
            #expect(words.contains(width >= 80 ? "The QR code does not fit: it needs " : "The QR code does"),
                    "\(width)×\(height):\n\(frame.lines.joined(separator: "\n"))")
            #expect(frame.hyperlinks.allSatisfy { $0.y < height - 2 }, "the link stops above the status line at \(width)×\(height)")
        }
    }
}
