import ShareCore

/// The live screen's view: state → frame, pure.
///
/// Under the title and the instruction, the offers side by side, each a
/// heading, its QR code (dark on light whatever the theme) and its text;
/// then the news, newest last, a transfer with a bar. When the codes do
/// not all fit, the last ones are left out first (their text stays); when
/// none fits, the screen says what it needs.
public enum LiveView {
    /// The most lines an offer's text takes under its code.
    static let offerTextLines = 4

    public static func view(_ state: LiveState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard state.width >= 20, state.height >= 8 else {
            frame.put(DisplayWidth.truncate(state.link ?? state.status.title, to: max(0, state.width)), x: 0, y: 0)
            return frame
        }
        frame.fill(x: 0, y: 0, width: state.width, height: 1, style: CellStyle(reverse: true))
        frame.put(DisplayWidth.truncate(" " + state.status.title, to: state.width), x: 0, y: 0, style: CellStyle(bold: true, reverse: true))
        let instruction = LinkView.wrapped(state.status.instruction, width: state.width - 2).prefix(2)
        for (offset, line) in instruction.enumerated() {
            frame.put(line, x: 1, y: 2 + offset, style: CellStyle(bold: true))
        }
        let top = 2 + instruction.count + 1
        let help = state.height - 1
        let newsRows = min(max(1, state.status.lines.count + (state.note == nil ? 0 : 1)), 4)
        let room = (width: state.width - 2, height: help - newsRows - 1 - top)
        let plan = layout(state, room: room)
        var papers: [(code: QRCode, x: Int, y: Int)] = []
        var bottom = top
        for block in plan.blocks {
            var y = top
            frame.put(DisplayWidth.truncate(block.offer.heading, to: block.width), x: block.x, y: y, style: CellStyle(underline: true))
            y += 1
            if let code = block.code {
                papers.append((code, block.x, y))
                y += code.lines.count
            }
            let style = block.offer.isLink ? CellStyle(foreground: .cyan, underline: true) : CellStyle(bold: true)
            for line in block.text {
                frame.put(line, x: block.x, y: y, style: style)
                if block.offer.isLink {
                    frame.hyperlinks.append(Frame.Hyperlink(x: block.x, y: y, text: line, url: block.offer.text, style: style))
                }
                y += 1
            }
            bottom = max(bottom, y)
        }
        var news = state.status.lines.suffix(newsRows).map { (text: $0.text, progress: $0.progress, isError: $0.isError) }
        if let note = state.note {
            news = Array(news.suffix(newsRows - 1)) + [(text: note, progress: nil, isError: state.noteIsError)]
        }
        if let misfit = plan.misfit { news = [(text: misfit, progress: nil, isError: false)] + news.suffix(newsRows - 1) }
        var y = max(bottom + 1, help - newsRows)
        for line in news where y < help {
            var x = 1
            if let progress = line.progress {
                frame.put(bar(progress, width: 20), x: x, y: y, style: CellStyle(foreground: .green))
                x += 21
            }
            let style = line.isError ? CellStyle(foreground: .red, bold: true) : CellStyle()
            frame.put(DisplayWidth.truncate((line.isError ? "⚠ " : "") + TerminalText.sanitized(line.text), to: state.width - x - 1),
                      x: x, y: y, style: style)
            y += 1
        }
        let keys = state.stopping ? Localization.text("Stopping…")
            : state.link == nil ? Localization.text("Esc stop") : Localization.text("c copy link   Esc stop")
        frame.put(DisplayWidth.truncate(keys, to: state.width), x: 0, y: help, style: CellStyle(dim: true))
        if !state.colors { frame = frame.monochrome }
        // Dark modules on a light ground, with colours off too: that is what makes a code scannable.
        let paper = CellStyle(foreground: .black, background: .white)
        for (code, x, y) in papers {
            for (offset, line) in code.lines.enumerated() {
                frame.put(LinkView.paperLine(line), x: x, y: y + offset, style: paper)
            }
        }
        return frame
    }

    /// An offer placed on the screen: where, how wide, its code if it has room, its text in lines.
    struct Block: Equatable {
        var offer: LiveStatus.Offer
        var code: QRCode?
        var x: Int
        var width: Int
        var text: [String]
    }

    /// The offers placed in `room`, codes left out from the last one until
    /// they fit, and what the screen needs when not even the first fits.
    static func layout(_ state: LiveState, room: (width: Int, height: Int)) -> (blocks: [Block], misfit: String?) {
        let offers = state.status.offers
        let codes: [QRCode?] = offers.map { offer in offer.code.flatMap { try? state.codes[$0]?.get() } }
        var kept = codes.count
        while true {
            var blocks: [Block] = []
            var x = 1
            var fits = true
            for (index, offer) in offers.enumerated() {
                let code = index < kept ? codes[index] : nil
                let left = room.width + 1 - x
                // A block with a code is the code's width; one without takes the room that is left, 24 columns at least.
                let width = code.map(\.drawnWidth) ?? max(min(left, 60), min(left, 24))
                guard width > 0, width <= left else {
                    fits = false
                    break
                }
                let text = offer.isLink ? LinkView.wrapped(offer.text, width: width, anywhere: true)
                    : LinkView.wrapped(offer.text, width: width)
                let lines = Array(text.prefix(offerTextLines))
                if 1 + (code?.lines.count ?? 0) + lines.count > room.height { fits = false }
                blocks.append(Block(offer: offer, code: code, x: x, width: width, text: lines))
                x += width + 3
            }
            if fits || kept == 0 {
                guard kept == 0, codes.contains(where: { $0 != nil }), let first = codes.compactMap({ $0 }).first else { return (blocks, nil) }
                // Not even the first code fits: say what it needs, and show the texts alone.
                let needsWidth = first.drawnWidth + 2
                let needsHeight = state.height - room.height + 1 + first.lines.count + 1
                let words = LinkView.misfit(width: max(state.width, needsWidth), height: max(state.height, needsHeight))
                return (fits ? blocks : textOnly(offers, room: room), words)
            }
            kept -= 1
        }
    }

    /// The offers' texts alone, one under another, across the room.
    private static func textOnly(_ offers: [LiveStatus.Offer], room: (width: Int, height: Int)) -> [Block] {
        offers.map { offer in
            let text = offer.isLink ? LinkView.wrapped(offer.text, width: room.width, anywhere: true) : LinkView.wrapped(offer.text, width: room.width)
            return Block(offer: offer, code: nil, x: 1, width: room.width, text: Array(text.prefix(2)))
        }
    }

    /// A bar of `width` cells filled to `progress` (0…1).
    static func bar(_ progress: Double, width: Int) -> String {
        let filled = Int((min(1, max(0, progress)) * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
