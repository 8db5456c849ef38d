import ShareCore

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
        // The code from the line under the title, the words and the link
        // beside it when there is room, else above and under it.
        var textX = 1, textWidth = state.width - 2, textTop = 2
        var codeTop = 1
        var urlTop: Int
        switch state.code {
        case .success(let code) where code.drawnWidth <= state.width - 2:
            let beside = state.width - code.drawnWidth - 4 >= 24
            if beside {
                textX = code.drawnWidth + 3
                textWidth = state.width - textX - 1
            } else {
                codeTop = 2 + min(3, wrapped(state.reason, width: textWidth).count) + 1
            }
            if code.lines.count <= bottom - codeTop {
                // Dark modules on a light ground, whatever the terminal's own colours: scannable on dark and light themes.
                let paper = CellStyle(foreground: .black, background: .white)
                for (offset, line) in code.lines.enumerated() {
                    frame.put(paperLine(line), x: 1, y: codeTop + offset, style: paper)
                }
                urlTop = beside ? textTop + min(3, wrapped(state.reason, width: textWidth).count) + 1 : codeTop + code.lines.count + 1
            } else {
                textX = 1
                textWidth = state.width - 2
                urlTop = tooSmall(code, &frame, y: textTop + 3, state)
            }
        case .success(let code):
            urlTop = tooSmall(code, &frame, y: textTop + 3, state)
        case .failure(let failure):
            frame.put(DisplayWidth.truncate(Localization.text("No QR code: %@", failure.description), to: state.width - 2),
                      x: 1, y: textTop + 3, style: CellStyle(dim: true))
            urlTop = textTop + 5
        }
        for (offset, line) in wrapped(state.reason, width: textWidth).prefix(3).enumerated() {
            frame.put(line, x: textX, y: textTop + offset, style: CellStyle(bold: true))
        }
        let urlX = textX, urlWidth = textWidth
        // The link in full, cut where the room ends; each piece a hyperlink.
        for (offset, piece) in wrapped(state.url, width: urlWidth, anywhere: true).enumerated() where urlTop + offset < bottom {
            frame.put(piece, x: urlX, y: urlTop + offset, style: CellStyle(foreground: .cyan, underline: true))
            frame.hyperlinks.append(Frame.Hyperlink(x: urlX, y: urlTop + offset, text: piece, url: state.url))
        }
        if let status = state.status {
            frame.put(DisplayWidth.truncate((state.statusIsError ? "⚠ " : "") + status, to: state.width - 2), x: 1, y: state.height - 2,
                      style: state.statusIsError ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true))
        }
        frame.put(DisplayWidth.truncate(Localization.text("c copy link   Enter done"), to: state.width), x: 0, y: state.height - 1,
                  style: CellStyle(dim: true))
        return state.colors ? frame : frame.monochrome
    }

    /// A line of the code with its light cells as no-break spaces: ncurses
    /// sends a run of spaces as one erase (ECH), whose background tmux 3.3
    /// loses past where the line's text ended, and a light quiet zone is
    /// what makes the code scannable.
    static func paperLine(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.map { $0 == " " ? "\u{00A0}" : $0 }))
    }

    /// Says that `code` does not fit and what it needs; the line the link goes on.
    private static func tooSmall(_ code: QRCode, _ frame: inout Frame, y: Int, _ state: LinkState) -> Int {
        frame.put(DisplayWidth.truncate(Localization.text("The QR code does not fit: it needs %@ columns and %@ lines.",
                                                          String(code.drawnWidth + 2), String(code.lines.count + 3)),
                                        to: state.width - 2), x: 1, y: y, style: CellStyle(dim: true))
        return y + 2
    }

    /// `text` in lines of at most `width` columns: at spaces, or
    /// `anywhere` (a link, which has none).
    static func wrapped(_ text: String, width: Int, anywhere: Bool = false) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        if anywhere {
            for character in TerminalText.sanitized(text) {
                let columns = DisplayWidth.of(String(character))
                if lineWidth + columns > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += columns
            }
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
}
