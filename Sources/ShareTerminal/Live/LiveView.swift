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
            frame.put(DisplayWidth.truncate(block.offer.heading, to: block.width), x: block.x, y: top, style: CellStyle(underline: true))
            if let code = block.code { papers.append((code, block.x, top + 1)) }
            let style = block.offer.isLink ? CellStyle(foreground: .cyan, underline: true) : CellStyle(bold: true)
            for (offset, line) in block.text.enumerated() where top + block.textY + offset < help {
                let (lineX, lineY) = (block.x + block.textX, top + block.textY + offset)
                frame.put(line, x: lineX, y: lineY, style: style)
                if block.offer.isLink {
                    frame.hyperlinks.append(Frame.Hyperlink(x: lineX, y: lineY, text: line, url: block.offer.text, style: style))
                }
            }
            bottom = max(bottom, top + block.height)
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

    /// An offer placed on the screen: where, how wide, its code if it has
    /// room, its text in lines (under the code, or beside it).
    struct Block: Equatable {
        var offer: LiveStatus.Offer
        var code: QRCode?
        var x: Int
        var width: Int
        var text: [String]
        /// Where the text starts, relative to the block: under the code, or to its right.
        var textX = 0
        var textY = 0
        var height: Int { max(textY + text.count, 1 + (code?.lines.count ?? 0)) }
    }

    /// A way to place the offers, the room it needs, and whether it fits.
    struct Placement {
        var blocks: [Block]
        var width: Int
        var height: Int
    }

    /// The offers placed in `room`: the best of the placements that fit
    /// (every code, the first offer's text beside its code when it is the
    /// only one, then codes left out from the last), and what the screen
    /// needs when no code fits.
    static func layout(_ state: LiveState, room: (width: Int, height: Int)) -> (blocks: [Block], misfit: String?) {
        let offers = state.status.offers
        let codes: [QRCode?] = offers.map { offer in offer.code.flatMap { try? state.codes[$0]?.get() } }
        var candidates: [Placement] = []
        if offers.count == 1, let code = codes[0] { candidates.append(beside(offers[0], code, room: room)) }
        for kept in stride(from: offers.count, through: 0, by: -1) {
            candidates.append(row(offers, codes.enumerated().map { $0.offset < kept ? $0.element : nil }, room: room))
        }
        let fits = { (placement: Placement) in placement.width <= room.width && placement.height <= room.height }
        let chosen = candidates.first(where: fits) ?? candidates[candidates.count - 1]
        guard chosen.blocks.allSatisfy({ $0.code == nil }), codes.contains(where: { $0 != nil }) else { return (chosen.blocks, nil) }
        // No code fits: the placement with a code that needs the least growth says what the screen needs.
        let growth = { (placement: Placement) in max(0, placement.width - room.width) + max(0, placement.height - room.height) }
        let nearest = candidates.filter { $0.blocks.contains { $0.code != nil } }.min { growth($0) < growth($1) }
        let words = nearest.map {
            LinkView.misfit(width: state.width + max(0, $0.width - room.width), height: state.height + max(0, $0.height - room.height))
        }
        return (chosen.blocks, words)
    }

    /// One offer, its text to the right of its code (24 columns at least).
    private static func beside(_ offer: LiveStatus.Offer, _ code: QRCode, room: (width: Int, height: Int)) -> Placement {
        let textWidth = max(24, room.width - code.drawnWidth - 2)
        let text = Array(lines(offer, width: textWidth).prefix(offerTextLines + 2))
        let block = Block(offer: offer, code: code, x: 1, width: code.drawnWidth + 2 + textWidth, text: text,
                          textX: code.drawnWidth + 2, textY: 1)
        return Placement(blocks: [block], width: block.width, height: block.height)
    }

    /// The offers side by side, each its code (where given) over its text.
    private static func row(_ offers: [LiveStatus.Offer], _ codes: [QRCode?], room: (width: Int, height: Int)) -> Placement {
        var blocks: [Block] = []
        var x = 1
        for (offer, code) in zip(offers, codes) {
            let left = room.width + 1 - x
            let width = code.map(\.drawnWidth) ?? max(24, min(left, 60))
            let text = Array(lines(offer, width: width).prefix(offerTextLines))
            blocks.append(Block(offer: offer, code: code, x: x, width: width, text: text, textY: 1 + (code?.lines.count ?? 0)))
            x += width + 3
        }
        return Placement(blocks: blocks, width: x - 4, height: blocks.map(\.height).max() ?? 0)
    }

    private static func lines(_ offer: LiveStatus.Offer, width: Int) -> [String] {
        offer.isLink ? LinkView.wrapped(offer.text, width: width, anywhere: true) : LinkView.wrapped(offer.text, width: width)
    }

    /// A bar of `width` cells filled to `progress` (0…1).
    static func bar(_ progress: Double, width: Int) -> String {
        let filled = Int((min(1, max(0, progress)) * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
