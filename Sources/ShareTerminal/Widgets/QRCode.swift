import CQrencode

/// A QR code's modules, as libqrencode makes them (the smallest version
/// that holds the text at its error correction level), the light border
/// drawn around it, and its drawing in half blocks.
public struct QRCode: Sendable, Equatable {
    /// How much of the code may be lost and still be read.
    public enum Level: Sendable, Equatable {
        /// 7 %: a smaller code, enough for a screen, which is never smudged.
        case low
        /// 15 %: what codes are usually made with.
        case medium
    }

    /// Modules on a side.
    public let width: Int
    /// The modules row by row, true for dark.
    public let modules: [Bool]
    public let level: Level
    /// The light modules kept around the code: the standard's 4, or fewer
    /// where the screen is small (phones read 2, and 1 on a light ground).
    public let quietZone: Int

    /// The standard quiet zone.
    public static let standardQuietZone = 4

    /// Why a text has no code.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The code of `text`.
    public init(encoding text: String, level: Level = .medium, quietZone: Int = QRCode.standardQuietZone) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: Int(SHARE_QR_MAX_WIDTH) * Int(SHARE_QR_MAX_WIDTH))
        var error = [CChar](repeating: 0, count: 160)
        let code = Int32(level == .low ? SHARE_QR_LEVEL_L : SHARE_QR_LEVEL_M)
        let width = buffer.withUnsafeMutableBufferPointer { modules in
            share_qr_encode(text, code, modules.baseAddress, modules.count, &error, error.count)
        }
        guard width > 0 else {
            throw Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.width = Int(width)
        self.level = level
        self.quietZone = quietZone
        modules = buffer.prefix(Int(width) * Int(width)).map { $0 != 0 }
    }

    /// The ways to draw `text`, largest first: the standard code, then a
    /// tighter quiet zone, then the lower level (a smaller version when the
    /// text allows), then the tightest zone. A screen takes the first that
    /// fits.
    public static func sizes(encoding text: String) throws(Failure) -> [QRCode] {
        let medium = try QRCode(encoding: text)
        let low = try QRCode(encoding: text, level: .low, quietZone: 2)
        return [medium, medium.with(quietZone: 2), low, low.with(quietZone: 1)]
    }

    /// The same modules with another quiet zone.
    public func with(quietZone: Int) -> QRCode {
        QRCode(width: width, modules: modules, level: level, quietZone: quietZone)
    }

    private init(width: Int, modules: [Bool], level: Level, quietZone: Int) {
        self.width = width
        self.modules = modules
        self.level = level
        self.quietZone = quietZone
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
        let side = width + 2 * quietZone
        var lines: [String] = []
        for top in stride(from: 0, to: side, by: 2) {
            var line = String.UnicodeScalarView()
            for column in 0..<side {
                let x = column - quietZone, y = top - quietZone
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
    public var drawnWidth: Int { width + 2 * quietZone }
}
