/// Percent-encoding (RFC 3986 §2.1): text as UTF-8, each byte outside a
/// kept set written `%XX` in upper-case hexadecimal. The set is the
/// caller's: RFC 3986's unreserved characters for a URL's path segment or
/// query value, ASCII for a link written as a browser shows it, RFC 2231's
/// attribute characters for a MIME parameter.
public enum PercentEncoding {
    /// `text` with every byte that `keeps` refuses as `%XX`.
    public static func encoded(_ text: some StringProtocol, keeping keeps: (UInt8) -> Bool = isUnreserved) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keeps(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters (§2.3): A–Z a–z 0–9 `-` `.` `_` `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
