#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// A file in a form's attachment list, as one line of the form's value:
/// `path<TAB>size<TAB>mtime`, size in bytes and the modification time in
/// nanoseconds since 1970, both integers.
///
/// The one codec of an attachment row: the form writes it, Mail reads it,
/// and `--resume` reads it back from `compose.json`. The size and time are
/// those the file had when it was attached, so that a file changed since
/// is noticed before it is sent.
public struct AttachedFile: Sendable, Equatable {
    /// Where the file is.
    public var path: String
    /// Its size and modification time when attached; `nil` for a line
    /// that gives only a path.
    public var stamp: FileStamp?

    /// A file with the stamp it was attached with.
    public init(path: String, stamp: FileStamp?) {
        self.path = path
        self.stamp = stamp
    }

    /// The file as it is now, or `nil` when it is not a readable regular file.
    public static func current(atPath path: String) -> AttachedFile? {
        guard let stamp = FileStamp(ofFileAt: path), access(path, R_OK) == 0 else { return nil }
        return AttachedFile(path: path, stamp: stamp)
    }

    /// Reads one line; a line with a path alone (or numbers that are not
    /// integers) has no stamp.
    public init(line: some StringProtocol) {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
        path = String(parts[0])
        if parts.count == 3, let size = Int64(parts[1]), let modified = Int64(parts[2]) {
            stamp = FileStamp(size: size, modified: modified)
        }
    }

    /// The line: `path<TAB>size<TAB>mtime`, or the path alone without a stamp.
    public var line: String {
        guard let stamp else { return path }
        return "\(path)\t\(stamp.size)\t\(stamp.modified)"
    }

    /// The files of a form value: one line each.
    public static func list(_ value: String) -> [AttachedFile] {
        value.split(separator: "\n").map { AttachedFile(line: $0) }
    }

    /// The form value of `files`.
    public static func value(_ files: [AttachedFile]) -> String {
        files.map(\.line).joined(separator: "\n")
    }

    /// The name shown: the path's last component.
    public var name: String { PathText.lastComponent(of: path) }
}

/// A regular file's size and modification time, to notice a change.
public struct FileStamp: Sendable, Equatable {
    /// Bytes.
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64
}

extension FileStamp {
    /// The stamp of the regular file at `path` now, or `nil`.
    public init?(ofFileAt path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
