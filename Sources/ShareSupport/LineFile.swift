#if canImport(Glibc)
import Glibc
#endif

/// A file of lines that several share processes read, change and rewrite:
/// the reading list, the pins, the compose screens left unfinished.
///
/// Every change holds the file's lock (`PATH.lock` beside it) from the
/// read to the rename, so two processes changing it at once never lose
/// each other's lines; the file is replaced atomically, so a reader never
/// sees half of it. A line the reader cannot use (a hand edit, a disk
/// error, a newer version's) is the caller's to skip: it goes back into
/// the file as it was, byte for byte.
public struct LineFile: Sendable {
    /// One line, without its newline, numbered from 1 as an editor does.
    public struct Line: Sendable, Equatable {
        public var number: Int
        public var bytes: [UInt8]
        /// The line as text, or `nil` when it is not UTF-8.
        public var text: String? { String(validating: bytes, as: UTF8.self) }

        public init(number: Int, bytes: [UInt8]) {
            self.number = number
            self.bytes = bytes
        }
    }

    /// The file.
    public let path: String
    /// What the file holds, for messages ("the reading list").
    public let name: String
    /// The largest file read, in bytes.
    public let limit: Int

    public init(path: String, name: String, limit: Int = 64 << 20) {
        self.path = path
        self.name = name
        self.limit = limit
    }

    /// The non-empty lines (none when there is no file yet).
    public func lines() throws(FileReplaceError) -> [Line] {
        switch LocalFiles.contents(ofFile: path, limit: limit) {
        case .failure(let failure) where failure.code == ENOENT: return []
        case .failure(let failure) where failure.code == EFBIG:
            throw FileReplaceError("cannot read \(name) \(path): it is over \(limit >> 20) MiB")
        case .failure(let failure): throw FileReplaceError("cannot read \(name) \(path): \(failure.reason)")
        case .success(let bytes):
            var lines: [Line] = []
            var number = 0
            // Splitting by hand: `split` would drop empty lines and so miscount the numbers.
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
                number += 1
                if end > start { lines.append(Line(number: number, bytes: Array(bytes[start..<end]))) }
                start = end + 1
            }
            return lines
        }
    }

    /// Reads the lines, and writes back the lines `body` returns (when not
    /// `nil`; none removes the file), holding the lock throughout; `body`'s
    /// value is returned.
    public func change<T>(_ body: ([Line]) throws -> (lines: [[UInt8]]?, value: T)) throws -> T {
        let folder = PathText.parent(of: path)
        if let failure = LocalFiles.createFolders(folder) { throw FileReplaceError("cannot create \(folder): \(failure.reason)") }
        do {
            return try FileLock.holding(path + ".lock") { () throws -> T in
                let (lines, value) = try body(try self.lines())
                if let lines, lines.isEmpty {
                    // No lines, no file: as before the first was written.
                    guard unlink(path) == 0 || errno == ENOENT else { throw FileReplaceError("cannot remove \(path): \(FileError(code: errno).reason)") }
                } else if let lines {
                    try LocalFiles.replace(path, with: Array(lines.map { $0 + [0x0A] }.joined()))
                }
                return value
            }
        } catch {
            switch error {
            case .unlocked(let failure): throw FileReplaceError("cannot lock \(name) (\(path).lock): \(failure.reason)")
            case .body(let failure): throw failure
            }
        }
    }

    /// The warning for lines skipped as unreadable, or `nil` when there
    /// are none: "PATH line 3 is not ADDED<TAB>URL<TAB>TITLE; it is kept as
    /// it is, and skipped". `expected` says what a line should be.
    public func skipped(_ numbers: [Int], expected: String) -> String? {
        guard let first = numbers.first else { return nil }
        let shown = numbers.prefix(5).map(String.init)
        let which = numbers.count == 1 ? "line \(first) is" :
            "lines " + shown.joined(separator: ", ") + (numbers.count > shown.count ? " and \(numbers.count - shown.count) more" : "") + " are"
        return "\(path) \(which) not \(expected); kept as \(numbers.count == 1 ? "it is" : "they are"), and skipped"
    }
}
