/// Quoted-printable (RFC 2045 §6.7) for mostly-ASCII text.
///
/// Input lines are separated by CRLF already. Output lines are at most 76
/// characters, with soft breaks (`=`) that never split an `=XX` escape.
/// Besides what the RFC requires, a line starting with `From ` or `.` has
/// that first character escaped, so mbox writers and SMTP servers that
/// mangle such lines leave the text intact.
enum QuotedPrintable {
    static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            var line = ArraySlice(line)
            if line.last == 13 { line = line.dropLast() }
            return line
        }
        let hex = Array("0123456789ABCDEF".utf8)
        for (number, line) in lines.enumerated() {
            if number > 0 { out.append(contentsOf: [13, 10]) }
            var column = 0
            let bytes = Array(line)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let atStart = column == 0 && index == 0
                let needsEscape: Bool
                switch byte {
                case UInt8(ascii: "="): needsEscape = true
                case 9, 32: needsEscape = isLast  // trailing white space would be lost
                case 33...126:
                    needsEscape = atStart && (byte == UInt8(ascii: ".")
                        || (byte == UInt8(ascii: "F") && bytes.starts(with: Array("From ".utf8))))
                default: needsEscape = true
                }
                let width = needsEscape ? 3 : 1
                // Keep room for a soft break "=" unless this is the line's last character.
                if column + width > (isLast ? 76 : 75) {
                    out.append(contentsOf: [UInt8(ascii: "="), 13, 10])
                    column = 0
                }
                if needsEscape {
                    out.append(contentsOf: [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                } else {
                    out.append(byte)
                }
                column += width
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
