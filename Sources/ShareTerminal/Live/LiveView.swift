import ShareCore
import ShareSupport

/// The live screen's view: state → frame, pure.
///
/// Under the title and the instruction, the offers side by side, each a
/// heading, its QR code (dark on light whatever the theme) and its text;
/// then the news, newest last, a transfer with a bar. When the codes do
/// not all fit, the last ones are left out first (their text stays); when
/// not even the first fits, the blank lines go and the codes get smaller
/// (``QRCode/sizes(encoding:)``); when none fits, the screen says what it
/// needs.
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
        let help = state.height - 1
        let (placement, misfit, compact) = arrange(state, instructionLines: instruction.count)
        for (offset, line) in instruction.enumerated() {
            frame.put(line, x: 1, y: (compact ? 1 : 2) + offset, style: CellStyle(bold: true))
        }
        let top = offersTop(instructionLines: instruction.count, compact: compact)
        for heading in placement.headings {
            frame.put(DisplayWidth.truncate(heading.text, to: heading.width), x: heading.x, y: top + heading.y, style: CellStyle(underline: true))
        }
        for piece in placement.texts where top + piece.y < help - 1 {
            let style = piece.offer.isLink ? CellStyle(foreground: .cyan, underline: true) : CellStyle(bold: true)
            frame.put(piece.line, x: piece.x, y: top + piece.y, style: style)
            if piece.offer.isLink {
                frame.hyperlinks.append(Frame.Hyperlink(x: piece.x, y: top + piece.y, text: piece.line, url: piece.offer.text, style: style))
            }
        }
        // The news: the latest lines that fit under the offers, four at most.
        var news = state.status.lines.map { (text: $0.text, progress: $0.progress, isError: $0.isError) }
        if let note = state.note { news.append((text: note, progress: nil, isError: state.noteIsError)) }
        // What the code needs, last: the latest lines are the ones kept.
        if let misfit { news.append((text: misfit, progress: nil, isError: false)) }
        // The choices (and the prompt) under the offers, above the news.
        var y = top + placement.height + (compact ? 0 : 1)
        for line in choiceLines(state) where y < help - 1 {
            frame.put(DisplayWidth.truncate(line.text, to: state.width - 2), x: 1, y: y, style: line.style)
            y += 1
        }
        let newsRows = max(1, min(4, help - y))
        y = help - min(newsRows, news.count)
        for line in news.suffix(newsRows) where y < help {
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
            : KeyMap.live.helpBar(separator: "   ") { action, words in
                action == .copy && state.link == nil ? nil : action == .stop && state.status.isDone ? Localization.text("close") : words
            }
        frame.put(DisplayWidth.truncate(keys, to: state.width), x: 0, y: help, style: CellStyle(dim: true))
        if !state.colors { frame = frame.monochrome }
        // Dark modules on a light ground, with colours off too: that is what makes a code scannable.
        let paper = CellStyle(foreground: .black, background: .white)
        for placed in placement.codes {
            for (offset, line) in placed.code.lines.enumerated() {
                frame.put(line, x: placed.x, y: top + placed.y + offset, style: paper)
            }
        }
        return frame
    }

    /// The offers placed on the screen, in lines from the top of their
    /// area: headings, codes and texts, and the room they take.
    struct Placement {
        var headings: [(text: String, x: Int, y: Int, width: Int)] = []
        var codes: [(code: QRCode, x: Int, y: Int)] = []
        var texts: [(line: String, x: Int, y: Int, offer: LiveStatus.Offer)] = []
        var width = 0
        var height = 0
        var codeCount: Int { codes.count }
    }

    /// The offers placed on the screen: with the blank lines under the title
    /// and above the news, at the largest size of the codes that shows the
    /// first; else without those lines; else the next size; and, when no
    /// code fits at any size, as at the largest, with what the screen needs.
    static func arrange(_ state: LiveState, instructionLines: Int) -> (Placement, String?, compact: Bool) {
        let sizes = state.codes.values.map { (try? $0.get())?.count ?? 1 }.max() ?? 1
        for size in 0..<sizes {
            for compact in [false, true] {
                let placement = layout(state, size: size, room: room(state, instructionLines: instructionLines, compact: compact)).0
                if placement.codeCount > 0 { return (placement, nil, compact) }
            }
        }
        // What the screen needs is what the smallest code needs without the blank lines.
        let placement = layout(state, size: 0, room: room(state, instructionLines: instructionLines, compact: false)).0
        let misfit = layout(state, size: sizes - 1, room: room(state, instructionLines: instructionLines, compact: true)).1
        return (placement, misfit, false)
    }

    /// The room for the offers: between the instruction and the choices
    /// and news (one line of it), with a blank line on either side unless `compact`.
    static func room(_ state: LiveState, instructionLines: Int, compact: Bool) -> (width: Int, height: Int) {
        (state.width - 2, state.height - 1 - (compact ? 1 : 2) - offersTop(instructionLines: instructionLines, compact: compact)
            - choiceLines(state).count)
    }

    /// The choices under their heading, each with its key (five at most),
    /// then the prompt with what is typed so far.
    static func choiceLines(_ state: LiveState) -> [(text: String, style: CellStyle)] {
        var lines: [(text: String, style: CellStyle)] = []
        if !state.status.choices.isEmpty {
            lines.append((state.status.choicesHeading, CellStyle(underline: true)))
            for choice in state.status.choices.prefix(5) {
                lines.append(("[" + String(choice.key) + "] " + TerminalText.sanitized(choice.text), CellStyle()))
            }
        }
        if let prompt = state.status.prompt {
            lines.append((TerminalText.sanitized(prompt) + ": " + state.answer + "▏", CellStyle(bold: true)))
        }
        return lines
    }

    /// The line the offers start on: under the title, a blank line unless
    /// `compact`, the instruction, and a blank line unless `compact`.
    static func offersTop(instructionLines: Int, compact: Bool) -> Int {
        (compact ? 1 : 2) + instructionLines + (compact ? 0 : 1)
    }

    /// The offers placed in `room`, each code at `size` (or its smallest):
    /// the first that fits of every code side by side with its text under
    /// it (one offer: its text beside it), the first offer's code with
    /// every text in a column beside it, then codes left out from the
    /// last; and, when no code fits, what the screen needs.
    static func layout(_ state: LiveState, size: Int = 0, room: (width: Int, height: Int)) -> (Placement, String?) {
        let offers = state.status.offers
        let codes: [QRCode?] = offers.map { offer in
            offer.code.flatMap { try? state.codes[$0]?.get() }.map { $0[min(size, $0.count - 1)] }
        }
        // Every code side by side first; then the first code with the texts beside it; then fewer codes.
        var candidates = (0...offers.count).reversed().map { kept in
            row(offers, codes.enumerated().map { $0.offset < kept ? $0.element : nil }, room: room)
        }
        if let first = codes.first, let code = first { candidates.insert(beside(offers, code, room: room), at: offers.count > 1 ? 1 : 0) }
        let fits = { (placement: Placement) in placement.width <= room.width && placement.height <= room.height }
        let chosen = candidates.first(where: fits) ?? candidates[candidates.count - 1]
        guard chosen.codeCount == 0, codes.contains(where: { $0 != nil }) else { return (chosen, nil) }
        // No code fits: the placement with a code that needs the least growth says what the screen needs.
        let growth = { (placement: Placement) in max(0, placement.width - room.width) + max(0, placement.height - room.height) }
        let nearest = candidates.filter { $0.codeCount > 0 }.min { growth($0) < growth($1) }
        let words = nearest.map {
            LinkView.misfit(width: state.width + max(0, $0.width - room.width), height: state.height + max(0, $0.height - room.height))
        }
        return (chosen, words)
    }

    /// The first offer's code, and beside it (24 columns at least) its
    /// text, then each other offer's heading and text.
    private static func beside(_ offers: [LiveStatus.Offer], _ code: QRCode, room: (width: Int, height: Int)) -> Placement {
        var placement = Placement()
        let x = 1 + code.drawnWidth + 2
        let width = max(24, room.width + 1 - x)
        placement.headings.append((offers[0].heading, 1, 0, code.drawnWidth))
        placement.codes.append((code, 1, 1))
        var y = 1
        for (index, offer) in offers.enumerated() {
            if index > 0 {
                y += 1
                placement.headings.append((offer.heading, x, y, width))
                y += 1
            }
            for line in lines(offer, width: width).prefix(index == 0 ? offerTextLines + 2 : 2) {
                placement.texts.append((line, x, y, offer))
                y += 1
            }
        }
        placement.width = x - 1 + width
        placement.height = max(1 + code.lines.count, y)
        return placement
    }

    /// The offers side by side, each its code (where given) over its text.
    private static func row(_ offers: [LiveStatus.Offer], _ codes: [QRCode?], room: (width: Int, height: Int)) -> Placement {
        var placement = Placement()
        var x = 1
        for (offer, code) in zip(offers, codes) {
            let left = room.width + 1 - x
            let width = code.map(\.drawnWidth) ?? max(24, min(left, 60))
            placement.headings.append((offer.heading, x, 0, width))
            var y = 1
            if let code {
                placement.codes.append((code, x, 1))
                y += code.lines.count
            }
            for line in lines(offer, width: width).prefix(offerTextLines) {
                placement.texts.append((line, x, y, offer))
                y += 1
            }
            placement.height = max(placement.height, y)
            x += width + 3
        }
        placement.width = x - 4
        return placement
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
