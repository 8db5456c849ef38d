import CThumbnail

/// Thumbnails of images as terminal cells, drawn by chafa (loaded on first use).
public enum Thumbnailer {
    /// The image at `path` as `rows` lines of `columns` cells in the
    /// 256-colour palette, or `nil` when it cannot be drawn (not PNG or
    /// JPEG, unreadable, or chafa not installed): the header then shows an icon.
    public static func cells(forImageAt path: String, columns: Int, rows: Int) -> [[Cell]]? {
        let count = columns * rows
        guard count > 0 else { return nil }
        var symbols = [UInt32](repeating: 0, count: count)
        var foreground = [Int32](repeating: -1, count: count)
        var background = [Int32](repeating: -1, count: count)
        var error = [CChar](repeating: 0, count: 256)
        guard share_thumbnail_render(path, Int32(columns), Int32(rows), &symbols, &foreground, &background,
                                     &error, error.count) == 0 else { return nil }
        return (0..<rows).map { row in
            (0..<columns).map { column in
                let index = row * columns + column
                let scalar = Unicode.Scalar(symbols[index]).map(String.init) ?? " "
                let style = CellStyle(foreground: foreground[index] >= 0 ? TerminalColor(index: Int(foreground[index])) : nil,
                                      background: background[index] >= 0 ? TerminalColor(index: Int(background[index])) : nil)
                return Cell(text: scalar.isEmpty || DisplayWidth.of(scalar) != 1 ? " " : scalar, style: style)
            }
        }
    }
}
