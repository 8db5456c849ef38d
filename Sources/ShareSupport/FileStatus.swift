#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, from `stat(2)`, following symbolic links.
public enum FileStatus: Equatable {
    case missing
    case directory
    case regular(size: Int64)
    case other(String)
    case inaccessible(String)

    public static func of(_ path: String) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            // A word too long to be a file name (a long URL, a pasted sentence) names no file.
            return code == ENOENT || code == ENOTDIR || code == ENAMETOOLONG ? .missing : .inaccessible(String(cString: strerror(code)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        case S_IFSOCK: return .other(Localization.marked("a socket"))
        case S_IFIFO: return .other(Localization.marked("a named pipe"))
        case S_IFCHR: return .other(Localization.marked("a character device"))
        case S_IFBLK: return .other(Localization.marked("a block device"))
        default: return .other(Localization.marked("a special file"))
        }
    }

    /// Whether `path` itself is a symbolic link (its target may be missing).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Whether anything is reachable at `path`, following links.
    public static func exists(_ path: String) -> Bool { of(path) != .missing }

    /// Why `path` cannot be opened for reading, or `nil` when it can.
    public static func openFailure(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return String(cString: strerror(errno)) }
        close(fd)
        return nil
    }
}
