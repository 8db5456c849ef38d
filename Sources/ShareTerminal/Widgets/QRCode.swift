import CQrencode

/// A QR code's modules, as libqrencode makes them (level M, the smallest
/// version that holds the text), and its drawing in half blocks.
public struct QRCode: Sendable, Equatable {
    /// Modules on a side.
    public let width: Int
    /// The modules row by row, true for dark.
    public let modules: [Bool]

    /// The light modules kept around the code (the standard's quiet zone).
    public static let quietZone = 4

    /// Why a text has no code.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The code of `text`.
    public init(encoding text: String) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: Int(SHARE_QR_MAX_WIDTH) * Int(SHARE_QR_MAX_WIDTH))
        var error = [CChar](repeating: 0, count: 160)
        let width = buffer.withUnsafeMutableBufferPointer { modules in
            share_qr_encode(text, modules.baseAddress, modules.count, &error, error.count)
        }
        guard width > 0 else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.width = Int(width)
        modules = buffer.prefix(Int(width) * Int(width)).map { $0 != 0 }
    }

    /// Whether the module at (`x`, `y`) is dark; outside the code (the quiet zone), light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
        return modules[y * width + x]
    }

    /// The code with its quiet zone as lines of text, two rows of modules a
    /// line: `▀` dark above, `▄` dark below, `█` both, a space neither. Drawn
    /// dark on light (black on white), whatever the terminal's colours.
    public var lines: [String] {
        let side = width + 2 * QRCode.quietZone
        var lines: [String] = []
        for top in stride(from: 0, to: side, by: 2) {
            var line = String.UnicodeScalarView()
            for column in 0..<side {
                let x = column - QRCode.quietZone, y = top - QRCode.quietZone
                switch (isDark(x: x, y: y), isDark(x: x, y: y + 1)) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// Columns the drawing takes.
    public var drawnWidth: Int { width + 2 * QRCode.quietZone }
}
