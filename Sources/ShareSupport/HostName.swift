#if canImport(Glibc)
import Glibc
#endif

/// This machine's name from `gethostname(2)`, without a DNS lookup: a
/// Message-ID's and a Maildir file's host, LocalSend's alias.
public enum HostName {
    public static var current: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingWhitespace()
        return name.isEmpty ? "localhost" : name
    }
}
