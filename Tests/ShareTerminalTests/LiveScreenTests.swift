import ShareCore
import Testing
@testable import ShareTerminal

/// The live screen (Nearby): offers with their codes, news with bars,
/// Esc asks to stop, `c` copies the link.
struct LiveScreenTests {
    static let link = "http://192.168.1.23:41234/0123456789abcdef0123456789abcdef/"
    /// A link as Nearby makes it: a 22-character token.
    static let nearbyLink = "http://192.168.100.123:41234/Qx7-Zt0_ab9KLmNoPqRsTu/"

    static func status(wormhole: Bool = false, lines: [LiveStatus.Line] = [LiveStatus.Line("Waiting for someone to open the link…")]) -> LiveStatus {
        var offers = [LiveStatus.Offer(heading: "On this network (wlan0)", text: link, code: link, isLink: true)]
        if wormhole { offers.append(LiveStatus.Offer(heading: "Anywhere (magic-wormhole)", text: "7-eskimo-spearhead", code: "wormhole-transfer:7-eskimo-spearhead")) }
        return LiveStatus(title: "Nearby: report.pdf", instruction: "Open the link on a phone.", offers: offers, lines: lines)
    }

    /// The cells of `frame` drawn as a code's paper (black on white).
    static func paperColumns(_ frame: Frame, row: Int) -> [Int] {
        (0..<frame.width).filter { frame[$0, row].style.background == .white }
    }

    @Test func oneOfferHasItsCodeAndTheLinkBesideIt() throws {
        let state = LiveState(status: Self.status(), width: 100, height: 30)
        let frame = LiveView.view(state)
        let code = try #require(try state.codes[Self.link]?.get().first)
        #expect(frame.shows("On this network (wlan0)"))
        #expect(Self.paperColumns(frame, row: 6).count == code.drawnWidth, "the code's paper from the line under the heading")
        let pieces = frame.hyperlinks
        #expect(pieces.map(\.text).joined() == Self.link && pieces.allSatisfy { $0.x == 1 + code.drawnWidth + 2 && $0.url == Self.link })
        #expect(frame.shows("Waiting for someone to open the link…"))
        #expect(frame.shows("c copy link   Esc stop"))
    }

    @Test func twoOffersSideBySideWhenThereIsRoomAndTheSecondLosesItsCodeFirst() throws {
        var state = LiveState(status: Self.status(wormhole: true), width: 100, height: 40)
        let tall = LiveView.view(state)
        let row = 6
        let columns = Self.paperColumns(tall, row: row)
        let first = try #require(try state.codes[Self.link]?.get().first)
        let second = try #require(try state.codes["wormhole-transfer:7-eskimo-spearhead"]?.get().first)
        #expect(columns.count == first.drawnWidth + second.drawnWidth, "both codes on the row")
        #expect(tall.shows("7-eskimo-spearhead"))
        // Shorter: the wormhole code goes first, its text stays (beside the first code).
        state = LiveState(status: Self.status(wormhole: true), width: 100, height: 30)
        let short = LiveView.view(state)
        #expect(Self.paperColumns(short, row: row).count == first.drawnWidth)
        #expect(short.shows("7-eskimo-spearhead") && short.shows("Anywhere (magic-wormhole)"))
        #expect(!short.shows("does not fit"))
    }

    /// 80×24 with the wormhole too: the blank lines go and the link's code
    /// gets the lower level and a tighter quiet zone, and still shows whole.
    @Test func nearbyFitsItsCodeAt80x24() throws {
        var status = Self.status(wormhole: true)
        status.offers[0] = LiveStatus.Offer(heading: "On this network (wlan0)", text: Self.nearbyLink, code: Self.nearbyLink, isLink: true)
        status.instruction = "Open the link on the same network, or run wormhole receive with the code anywhere (or scan it)."
        let state = LiveState(status: status, width: 80, height: 24)
        let frame = LiveView.view(state)
        assertSnapshot(frame, named: "nearby-80x24")
        expectWellFormed(frame)
        let sizes = try #require(try state.codes[Self.nearbyLink]?.get())
        let paperRows = (0..<24).filter { !Self.paperColumns(frame, row: $0).isEmpty }
        let shown = try #require(sizes.first { $0.lines.count == paperRows.count && $0.drawnWidth == Self.paperColumns(frame, row: paperRows[0]).count },
                                 "one of the code's sizes is drawn whole:\n\(frame.lines.joined(separator: "\n"))")
        #expect(shown.quietZone >= 1 && shown.drawnWidth < sizes[0].drawnWidth)
        #expect(paperRows == Array(paperRows[0]...paperRows[paperRows.count - 1]), "one block of paper")
        #expect(!frame.shows("does not fit"))
        #expect(frame.hyperlinks.map(\.text).joined() == Self.nearbyLink, "the link whole")
        #expect(frame.shows("7-eskimo-spearhead") && frame.shows("Waiting for someone to open the link…"))
        #expect(frame.lines[23].hasPrefix("c copy link"))
        // The standard code, with the blank lines, where there is room.
        let roomy = LiveView.view(LiveState(status: status, width: 100, height: 40))
        #expect((0..<40).filter { !Self.paperColumns(roomy, row: $0).isEmpty }.count == sizes[0].lines.count)
    }

    @Test func aLinkWrapsIntoLinesOfEvenLengthAtItsSeparators() {
        let link = String(repeating: "a", count: 59)
        #expect(LinkView.wrapped(link, width: 58, anywhere: true).map(\.count) == [30, 29], "never a last line of one character")
        #expect(LinkView.wrapped(link, width: 59, anywhere: true) == [link])
        #expect(LinkView.wrapped(link, width: 20, anywhere: true).map(\.count) == [20, 20, 19])
        #expect(LinkView.wrapped("ab한글", width: 3, anywhere: true) == ["ab", "한", "글"], "a wide character is never split")
        #expect(LinkView.wrapped(Self.nearbyLink, width: 43, anywhere: true) == ["http://192.168.100.123:41234/", "Qx7-Zt0_ab9KLmNoPqRsTu/"])
        #expect(LinkView.wrapped("https://mastodon.social/share?text=toot", width: 38, anywhere: true)
                == ["https://mastodon.", "social/share?text=toot"])
        for width in 1...60 {
            let lines = LinkView.wrapped(Self.nearbyLink, width: width, anywhere: true)
            #expect(lines.joined() == Self.nearbyLink && lines.allSatisfy { $0.count <= width }, "width \(width): \(lines)")
            #expect(lines.count <= (Self.nearbyLink.count + width - 1) / width + 1, "width \(width): \(lines)")
        }
    }

    @Test func noRoomForAnyCodeSaysWhatItNeedsAndKeepsTheLink() {
        let frame = LiveView.view(LiveState(status: Self.status(), width: 60, height: 14))
        #expect((0..<14).allSatisfy { LiveScreenTests.paperColumns(frame, row: $0).isEmpty })
        #expect(frame.lines.joined(separator: " ").contains("The QR code does not fit: it needs "), "\(frame.lines.joined(separator: "\n"))")
        #expect(frame.hyperlinks.map(\.text).joined() == Self.link, "the link whole")
    }

    @Test func newsHasBarsAndTheLatestLinesAndColoursOffKeepThePaper() {
        let lines = (1...6).map { LiveStatus.Line("line \($0)") } + [LiveStatus.Line("192.168.1.7 is downloading report.pdf · 1 MB of 4 MB (25%)", progress: 0.25)]
        var state = LiveState(status: Self.status(lines: lines), width: 100, height: 30, colors: false)
        let frame = LiveView.view(state)
        #expect(frame.shows("█████░░░░░░░░░░░░░░░ 192.168.1.7 is downloading report.pdf · 1 MB of 4 MB (25%)"))
        #expect(frame.shows("line 6") && !frame.shows("line 1"), "the latest lines that fit under the code:\n\(frame.lines.joined(separator: "\n"))")
        #expect(!Self.paperColumns(frame, row: 6).isEmpty, "the code stays black on white with colours off")
        #expect(frame.hyperlinks.allSatisfy { $0.style == CellStyle(underline: true) })
        // Keys: c copies the link, Esc asks to stop once, and the help bar says it is stopping.
        #expect(LiveUpdate.update(&state, .input(.character("c"))) == [.copy(Self.link)])
        #expect(LiveUpdate.update(&state, .input(.escape)) == [.stop])
        #expect(LiveUpdate.update(&state, .input(.control("c"))).isEmpty, "asked once")
        #expect(LiveView.view(state).shows("Stopping…"))
    }

    @Test func aScreenOfWorkDoneIsClosedNotStopped() {
        var status = Self.status()
        #expect(LiveView.view(LiveState(status: status, width: 100, height: 30)).shows("Esc stop"))
        status.isDone = true
        let frame = LiveView.view(LiveState(status: status, width: 100, height: 30))
        #expect(frame.shows("c copy link   Esc close") && !frame.shows("stop"), "\(frame.lines.joined(separator: "\n"))")
    }

    @Test func withoutALinkTheBarOffersNoCopy() {
        let offer = LiveStatus.Offer(heading: "Anywhere (magic-wormhole)", text: "7-eskimo-spearhead", code: "wormhole-transfer:7-eskimo-spearhead")
        var state = LiveState(status: LiveStatus(title: "Nearby", instruction: "Type the code.", offers: [offer], lines: []), width: 100, height: 30)
        let frame = LiveView.view(state)
        #expect(frame.shows("Esc stop") && !frame.shows("copy link"), "\(frame.lines.joined(separator: "\n"))")
        #expect(LiveUpdate.update(&state, .input(.character("c"))).isEmpty, "nothing to copy")
        #expect(LiveUpdate.update(&state, .input(.character("q"))) == [.stop])
    }

    @Test func theProgressScreenNamesItsKeyAndCancelsOnce() {
        var state = ProgressState(title: "Preparing the items for Mail", width: 80, height: 24)
        #expect(ProgressView.view(state).shows("Esc cancels"))
        #expect(ProgressUpdate.update(&state, .character("x")).isEmpty)
        #expect(ProgressUpdate.update(&state, .character("q")) == [.cancel])
        #expect(ProgressUpdate.update(&state, .escape).isEmpty, "asked once")
        #expect(ProgressView.view(state).shows("Cancelling…"))
    }
}

/// Choices picked with one key and a prompt answered by typing (Nearby's
/// LocalSend devices and their PIN): drawn under the offers, handed back
/// as input, Esc still stops.
struct LiveChoicesTests {
    static func status(choices: Int, prompt: String? = nil) -> LiveStatus {
        var status = LiveScreenTests.status(wormhole: true)
        status.choices = (0..<choices).map { LiveStatus.Choice(key: Character(String($0 + 1)), text: "📱 Phone \($0 + 1)") }
        status.choicesHeading = "Devices around"
        status.prompt = prompt
        return status
    }

    @Test func choicesShowUnderTheOffersAndTheirKeyPicksThem() {
        var state = LiveState(status: Self.status(choices: 2), width: 100, height: 40)
        let frame = LiveView.view(state)
        #expect(frame.shows("Devices around") && frame.shows("[1] 📱 Phone 1") && frame.shows("[2] 📱 Phone 2"))
        #expect(frame.shows("Anywhere (magic-wormhole)") && frame.shows("Waiting for someone to open the link…"))
        #expect(LiveUpdate.update(&state, .input(.character("2"))) == [.input(.choose("2"))])
        // A key no choice has picks nothing.
        #expect(LiveUpdate.update(&state, .input(.character("3"))).isEmpty)
        #expect(LiveUpdate.update(&state, .input(.escape)) == [.stop])
        // Once stopping, a choice is no longer taken.
        #expect(LiveUpdate.update(&state, .input(.character("1"))).isEmpty)
    }

    @Test func thePromptTakesWhatIsTypedAndEnterAnswers() {
        var state = LiveState(status: Self.status(choices: 1, prompt: "PIN shown on Phone 1"), width: 100, height: 40)
        for key in "4821" { #expect(LiveUpdate.update(&state, .input(.character(key))).isEmpty) }
        _ = LiveUpdate.update(&state, .input(.backspace))
        _ = LiveUpdate.update(&state, .input(.character("9")))
        #expect(LiveView.view(state).shows("PIN shown on Phone 1: 4829"))
        #expect(LiveUpdate.update(&state, .input(.enter)) == [.input(.answer("4829"))])
        #expect(state.answer.isEmpty)
        // A new prompt starts empty; Esc still stops.
        _ = LiveUpdate.update(&state, .input(.character("1")))
        _ = LiveUpdate.update(&state, .status(Self.status(choices: 1, prompt: "PIN shown on Phone 2")))
        #expect(state.answer.isEmpty)
        #expect(LiveUpdate.update(&state, .input(.escape)) == [.stop])
    }
}
