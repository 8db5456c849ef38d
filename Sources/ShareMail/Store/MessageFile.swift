#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareCore

/// A stored message (in drafts or the outbox), read back for sending.
///
/// Stored messages keep their `Bcc:` header; ``TransmissionReader`` streams
/// the message without it, so Bcc recipients are in the envelope only.
public struct MessageFile: Sendable {
    /// The file's path.
    public let path: String
    /// The header fields, unfolded, in order: (name, raw value).
    public let headers: [(name: String, value: String)]
    /// The header section as stored, with its blank line.
    let headerBytes: [UInt8]

    /// Reads the header section of `path` (at most 1 MiB of headers).
    public init(path: String) throws(MailError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MailError(.io, "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try self.init(path: path, reading: fd)
    }

    /// Reads the header section from `fd`, from its current offset (the
    /// start), of the file at `path` (which it may have left, renamed).
    init(path: String, reading fd: Int32) throws(MailError) {
        self.path = path
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var end: Int?
        while end == nil && bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { throw MailError(.io, "cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            let searchFrom = max(0, bytes.count - 3)
            bytes += chunk[0..<count]
            end = MessageFile.headerEnd(bytes, from: searchFrom)
        }
        guard let end else { throw MailError(.invalidInput, "\(path) is not a mail message: no end of headers") }
        headerBytes = Array(bytes[0..<end])
        headers = MessageFile.parseHeaders(headerBytes)
    }

    /// The raw value of the first field called `name` (case-insensitive), unfolded.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of fields called `name`.
    public func headerValues(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The header section as it goes out: without `Bcc:` fields, nor the
    /// outbox's `X-Share-Send-At:` (and their continuation lines).
    var transmittedHeaderBytes: [UInt8] { headerBytes(without: ["bcc", SendAt.header.lowercased()]) }

    /// The header section with the fields called `name` (and their
    /// continuation lines) left out, and `field` (a whole field with its
    /// CRLF) in the place of the first of them.
    func headerBytes(replacing name: String, with field: [UInt8]?) -> [UInt8] {
        headerBytes(without: [name.lowercased()], putting: field)
    }

    /// The header section with the fields whose lower-cased names are in
    /// `names` (and their continuation lines) left out, and `field` in the
    /// place of the first of them.
    func headerBytes(without names: Set<String>, putting field: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        var dropping = false
        var replaced = false
        for line in MessageFile.lines(headerBytes) {
            if line.first == 32 || line.first == 9 {
                if !dropping { out += line }
                continue
            }
            let lineName = line.prefix { $0 != UInt8(ascii: ":") }
            dropping = names.contains(String(decoding: lineName, as: UTF8.self).lowercased())
            if dropping, !replaced, let field {
                out += field
                replaced = true
            }
            if !dropping { out += line }
        }
        return out
    }

    /// The whole message `bytes` (this file's) with the fields called
    /// `name` replaced by `field`.
    func replacingHeader(_ name: String, with field: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        headerBytes(replacing: name, with: field) + bytes[headerBytes.count...]
    }

    static func headerEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// Lines including their CRLF.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 10 {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }

    static func parseHeaders(_ bytes: [UInt8]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for line in lines(bytes) {
            var text = String(decoding: line, as: UTF8.self)
            while text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
            if text.isEmpty { continue }
            if text.first == " " || text.first == "\t", !fields.isEmpty {
                fields[fields.count - 1].value += text
                continue
            }
            guard let colon = text.firstIndex(of: ":") else { continue }
            let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            fields.append((String(text[..<colon]), String(value)))
        }
        return fields
    }
}

/// A header section held in memory, handed out before the body a reader
/// takes from the file: the one transmitted (without `Bcc:`), in the place
/// of the one stored.
struct HeldHeader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8] = []) { self.bytes = bytes }

    /// Copies the next of its bytes into `buffer`: how many; 0 once all are out.
    mutating func handOut(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]).copyBytes(from: bytes[offset..<(offset + count)])
        offset += count
        return count
    }
}

/// Streams a stored message for transmission: the headers without `Bcc:`
/// (and the outbox's time), then the body, read from disk in chunks.
public final class TransmissionReader {
    private let file: MessageFile
    private var header: HeldHeader
    private let fd: Int32
    /// Bytes handed out so far.
    public private(set) var bytesRead = 0

    /// Opens `file` for reading.
    public convenience init(_ file: MessageFile) throws(MailError) {
        try self.init(file, header: file.transmittedHeaderBytes)
    }

    /// Opens `file` for reading with `header` in the place of its header section.
    init(_ file: MessageFile, header: [UInt8]) throws(MailError) {
        self.file = file
        self.header = HeldHeader(header)
        fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MailError(.io, "cannot read \(file.path): \(String(cString: strerror(errno)))") }
        lseek(fd, off_t(file.headerBytes.count), SEEK_SET)
    }

    deinit { close(fd) }

    /// Fills `buffer` with the next bytes; returns 0 at the end, -1 on a read error.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let held = header.handOut(into: buffer)
        if held > 0 {
            bytesRead += held
            return held
        }
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count > 0 { bytesRead += count }
            return count
        }
    }
}
