import ShareCore
import ShareSupport

/// The link screen's view: state → frame, pure.
public enum LinkView {
    /// Draws `state`.
    public static func view(_ state: LinkState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard state.width >= 20, state.height >= 6 else {
            frame.put(DisplayWidth.truncate(state.url, to: max(0, state.width)), x: 0, y: 0)
            return frame
        }
        frame.fill(x: 0, y: 0, width: state.width, height: 1, style: CellStyle(reverse: true))
        frame.put(DisplayWidth.truncate(" " + state.title, to: state.width), x: 0, y: 0, style: CellStyle(bold: true, reverse: true))
        let bottom = state.height - 2  // status and help bar
        var textX = 1, textWidth = state.width - 2
        let textTop = 2
        var urlTop: Int
        var codeAt: (code: QRCode, top: Int)?
        switch state.code {
        case .success(let code):
            if let layout = layouts(code, reason: state.reason, width: state.width, height: state.height).first(where: \.fits) {
                codeAt = (code, layout.codeTop)
                textX = layout.textX
                textWidth = layout.textWidth
                urlTop = layout.urlTop
            } else {
                // The reason, what the code needs (two lines at most) when
                // that leaves the link room to be whole, then the link; else
                // what the code needs goes on the status line.
                let message = wrapped(misfitMessage(code, state), width: textWidth).prefix(2)
                urlTop = textTop + min(3, wrapped(state.reason, width: textWidth).count) + 1
                let linkLines = wrapped(state.url, width: textWidth, anywhere: true).count
                if urlTop + message.count + 1 + linkLines <= bottom {
                    for line in message {
                        frame.put(line, x: 1, y: urlTop, style: CellStyle(dim: true))
                        urlTop += 1
                    }
                    urlTop += 1
                } else if state.status == nil {
                    frame.put(DisplayWidth.truncate(message.joined(separator: " "), to: state.width - 2), x: 1, y: state.height - 2,
                              style: CellStyle(dim: true))
                }
            }
        case .failure(let failure):
            frame.put(DisplayWidth.truncate(Localization.text("No QR code: %@", failure.description), to: state.width - 2),
                      x: 1, y: textTop + 3, style: CellStyle(dim: true))
            urlTop = textTop + 5
        }
        for (offset, line) in wrapped(state.reason, width: textWidth).prefix(3).enumerated() where textTop + offset < bottom {
            frame.put(line, x: textX, y: textTop + offset, style: CellStyle(bold: true))
        }
        // The link in full, cut where the room ends; each piece a hyperlink.
        let link = CellStyle(foreground: .cyan, underline: true)
        let pieces = wrapped(state.url, width: textWidth, anywhere: true)
        for (offset, piece) in pieces.enumerated() where urlTop + offset < bottom {
            frame.put(piece, x: textX, y: urlTop + offset, style: link)
            frame.hyperlinks.append(Frame.Hyperlink(x: textX, y: urlTop + offset, text: piece, url: state.url, style: link))
        }
        if let status = state.status {
            frame.put(DisplayWidth.truncate((state.statusIsError ? "⚠ " : "") + status, to: state.width - 2), x: 1, y: state.height - 2,
                      style: state.statusIsError ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true))
        }
        frame.put(DisplayWidth.truncate(KeyMap.link.helpBar(separator: "   "), to: state.width), x: 0, y: state.height - 1,
                  style: CellStyle(dim: true))
        if !state.colors { frame = frame.monochrome }
        if let (code, top) = codeAt {
            // Dark modules on a light ground whatever the terminal's own
            // colours, and with colours off too: that is what makes the code
            // scannable on dark and light themes alike.
            let paper = CellStyle(foreground: .black, background: .white)
            for (offset, line) in code.lines.enumerated() {
                frame.put(line, x: 1, y: top + offset, style: paper)
            }
        }
        return frame
    }

    /// Where the code, the words and the link go on a screen of `width`
    /// by `height`, and whether that fits.
    struct Layout: Equatable {
        var codeTop: Int
        var textX: Int
        var textWidth: Int
        var urlTop: Int
        /// The smallest screen this layout fits.
        var needsWidth: Int
        var needsHeight: Int
        var fits: Bool
    }

    /// The two layouts, in order of preference: the words and the link
    /// beside the code (at least 24 columns of them), or the words above
    /// the code and the link under it. Either needs room for the whole
    /// code, its quiet zone included, and one line of the link.
    static func layouts(_ code: QRCode, reason: String, width: Int, height: Int) -> [Layout] {
        let chrome = 2  // the status line and the help bar
        let besideX = code.drawnWidth + 3
        let besideWidth = width - besideX - 1
        let besideReason = min(3, wrapped(reason, width: max(1, besideWidth)).count)
        // What it needs is measured at the width it needs, where the reason may take fewer lines.
        let reasonAtNeed = min(3, wrapped(reason, width: max(24, besideWidth)).count)
        let beside = Layout(codeTop: 1, textX: besideX, textWidth: besideWidth, urlTop: 2 + besideReason + 1,
                            needsWidth: besideX + 24 + 1,
                            needsHeight: max(1 + code.lines.count, 2 + reasonAtNeed + 2) + chrome,
                            fits: false)
        let belowReason = min(3, wrapped(reason, width: max(1, width - 2)).count)
        let codeTop = 2 + belowReason + 1
        let below = Layout(codeTop: codeTop, textX: 1, textWidth: width - 2, urlTop: codeTop + code.lines.count + 1,
                           needsWidth: code.drawnWidth + 2,
                           needsHeight: codeTop + code.lines.count + 2 + chrome,
                           fits: false)
        return [beside, below].map { layout in
            var layout = layout
            layout.fits = width >= layout.needsWidth && height >= layout.needsHeight
            return layout
        }
    }

    /// That `code` does not fit, and the screen it needs: the layout that
    /// needs the least growth.
    private static func misfitMessage(_ code: QRCode, _ state: LinkState) -> String {
        let layouts = layouts(code, reason: state.reason, width: state.width, height: state.height)
        let growth = { (layout: Layout) in max(0, layout.needsWidth - state.width) + max(0, layout.needsHeight - state.height) }
        let nearest = layouts.min { growth($0) < growth($1) } ?? layouts[0]
        return misfit(width: max(state.width, nearest.needsWidth), height: max(state.height, nearest.needsHeight))
    }

    /// The words for a QR code that needs a screen of `width` by `height`.
    static func misfit(width: Int, height: Int) -> String {
        Localization.text("The QR code does not fit: it needs %@×%@.", String(width), String(height))
    }

    /// `text` in lines of at most `width` columns: at spaces, or
    /// `anywhere` (a link, which has none; see ``wrappedLink(_:width:)``).
    static func wrapped(_ text: String, width: Int, anywhere: Bool = false) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        if anywhere {
            return wrappedLink(TerminalText.sanitized(text), width: width)
        } else {
            for word in TerminalText.sanitized(text).split(separator: " ") {
                let columns = DisplayWidth.of(String(word))
                if lineWidth > 0 && lineWidth + 1 + columns > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += DisplayWidth.truncate(String(word), to: width)
                lineWidth += min(columns, width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A link in as few lines as `width` allows, all about as long (never a
    /// last line of one character), each cut after a `/`, `?`, `&`, `=`,
    /// `.` or `-` near where an even cut would fall, when there is one.
    static func wrappedLink(_ link: String, width: Int) -> [String] {
        let characters = Array(link)
        let columns = characters.map { DisplayWidth.of(String($0)) }
        var lines: [String] = []
        var start = 0
        while start < characters.count {
            let rest = columns[start...].reduce(0, +)
            if rest <= width {
                lines.append(String(characters[start...]))
                break
            }
            let count = (rest + width - 1) / width
            let even = (rest + count - 1) / count
            // The most characters that fit the width, and the one an even cut ends at.
            var fit = start, used = 0, evenEnd = start
            while fit < characters.count && used + columns[fit] <= width {
                used += columns[fit]
                fit += 1
                if used <= even { evenEnd = fit }
            }
            fit = max(fit, start + 1)
            evenEnd = max(evenEnd, start + 1)
            // A cut after a separator within a third of the even length of it,
            // the nearest (not in lines so short that it would add lines).
            let slack = evenEnd - start >= 12 ? (evenEnd - start) / 3 : 0
            let separators: Set<Character> = ["/", "?", "&", "=", ".", "-"]
            let cut = (max(start + 1, evenEnd - slack)...min(fit, evenEnd + slack))
                .filter { separators.contains(characters[$0 - 1]) }
                .min { abs($0 - evenEnd) < abs($1 - evenEnd) } ?? evenEnd
            lines.append(String(characters[start..<cut]))
            start = cut
        }
        return lines
    }
}
