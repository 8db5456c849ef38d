import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Dates written with the C library's `strftime`, to the second at most:
/// the few fixed formats share writes need no calendar data (ICU's costs
/// megabytes of memory).
public enum DateText {
    /// `date` in `format` (strftime's), in UTC or in the local time zone.
    public static func formatted(_ date: Date, _ format: String, utc: Bool) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
