#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders straight from the C library: reads, listings, walks,
/// `mkdir -p`, program lookups. On the start-up path (config, plugin
/// folders, PATH) Foundation's file manager cost more than the work.
public enum LocalFiles {
    /// The names in the folder at `path` (not "." or ".."), unsorted; `nil`
    /// when it cannot be listed.
    public static func names(inFolder path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes of the regular file at `path`, or the reason it cannot be
    /// read (from `errno`). A file of more than `limit` bytes is refused
    /// (EFBIG), never cut short; a FIFO, a device or a socket is refused
    /// (ESPIPE) without waiting: it is opened non-blocking, and never read.
    public static func contents(ofFile path: String, limit: Int = 1 << 20) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(FileError(code: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileError(code: errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(FileError(code: EISDIR)) }
        // /dev/null reads as empty (`--config /dev/null`: no settings); any other device, a FIFO or a socket is refused.
        if info.st_mode & S_IFMT == S_IFCHR, info.st_rdev == LocalFiles.nullDevice { return .success([]) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(FileError(code: ESPIPE)) }
        if Int(info.st_size) > limit { return .failure(FileError(code: EFBIG)) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // A regular file with a size (not /proc's, which say 0) ends where fstat said.
        let size = info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 ? Int(info.st_size) : nil
        // Read into a buffer of the file's size (plus one byte, to see a file
        // that grew), not through a zeroed chunk that is copied again.
        var capacity = min(limit + 1, max(Int(info.st_size) + 1, 4096))
        var bytes: [UInt8] = []
        var failure: Int32?
        while bytes.count <= limit {
            let room = capacity - bytes.count
            let chunk = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
                initialized = 0
                while true {
                    let count = read(fd, buffer.baseAddress, room)
                    if count < 0 && errno == EINTR { continue }
                    if count < 0 { failure = errno } else { initialized = count }
                    return
                }
            }
            if let failure { return .failure(FileError(code: failure)) }
            if chunk.isEmpty { break }
            if bytes.isEmpty { bytes = chunk } else { bytes.append(contentsOf: chunk) }
            // All of it came, and less than was asked for: that was the end,
            // and no second read is needed to be told so.
            if bytes.count == size && chunk.count < room { break }
            if bytes.count == capacity { capacity = min(limit + 1, capacity * 2) }
        }
        // It grew past the limit while it was read.
        if bytes.count > limit { return .failure(FileError(code: EFBIG)) }
        return .success(bytes)
    }

    /// The device number of /dev/null.
    private static let nullDevice: dev_t = {
        var info = stat()
        return stat("/dev/null", &info) == 0 ? info.st_rdev : dev_t.max
    }()

    /// The most one `write` is given: 256 KiB. Copying a picture of 5 MB
    /// into the page cache in one write cost its system time five times
    /// over what the same bytes cost in pieces of 64 KiB to 1 MiB
    /// (bench/options; ext4, 500 pictures).
    public static let writeChunk = 256 << 10

    /// Writes all of `bytes` to `descriptor`, again after a short write or
    /// an interrupted one (EINTR), until every byte is out or a write fails.
    ///
    /// A write that fails ends it with that write's `errno`: EPIPE when the
    /// reader of a pipe is gone (share ignores SIGPIPE), EAGAIN on a
    /// non-blocking descriptor that is full. A write that takes nothing
    /// ends it as EIO, so that it never spins.
    ///
    /// Each write hands the kernel at most ``writeChunk`` bytes.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(FileError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, next, min(remaining, writeChunk))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw FileError(code: written < 0 ? errno : EIO) }
            next += written
            remaining -= written
        }
    }

    /// Writes all of `bytes` to `descriptor`, as the raw-buffer `writeAll` does.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(FileError) {
        let problem = bytes.withUnsafeBytes { raw in failure(writingAll: raw, to: descriptor) }
        if let problem { throw problem }
    }

    /// Writes all of `text`'s UTF-8 bytes to `descriptor`, as the raw-buffer `writeAll` does.
    public static func writeAll(_ text: String, to descriptor: Int32) throws(FileError) {
        var text = text
        let problem = text.withUTF8 { utf8 in failure(writingAll: UnsafeRawBufferPointer(utf8), to: descriptor) }
        if let problem { throw problem }
    }

    /// The error of the raw-buffer `writeAll` as a value,
    /// for closures that cannot throw it typed.
    private static func failure(writingAll bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> FileError? {
        do { try writeAll(bytes, to: descriptor) } catch { return error }
        return nil
    }

    /// Replaces the file at `path` with `bytes` atomically: they are written
    /// to a hidden temporary file beside it, flushed to disk, given `mode`,
    /// and renamed over it, so a reader (or a crash) sees the old file or
    /// the new one, never a part. `check`, when given, runs just before the
    /// rename and may refuse by throwing (the file changed meanwhile); the
    /// temporary file is then removed and the file is left as it was.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600,
                               check: () throws(FileReplaceError) -> Void = {}) throws(FileReplaceError) {
        let folder = PathText.parent(of: path)
        var template = Array((folder + "/." + PathText.lastComponent(of: path) + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileReplaceError("cannot write in \(folder): \(FileError(code: errno).reason)") }
        let temporary = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        do throws(FileReplaceError) {
            do { try writeAll(bytes, to: descriptor) } catch { throw FileReplaceError("cannot write \(temporary): \(error.reason)") }
            guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
                throw FileReplaceError("cannot write \(temporary): \(FileError(code: errno).reason)")
            }
            try check()
            guard rename(temporary, path) == 0 else { throw FileReplaceError("cannot save \(path): \(FileError(code: errno).reason)") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        // The folder's entry on disk too.
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
    }

    /// Creates the folder at `path` and any missing parents (as `mkdir -p`),
    /// new ones with `mode`; the reason when it cannot.
    public static func createFolders(_ path: String, mode: mode_t = 0o700) -> FileError? {
        if case .directory = FileStatus.of(path) { return nil }
        let parent = PathText.parent(of: path)
        if !parent.isEmpty && parent != path, let failure = createFolders(parent, mode: mode) { return failure }
        if mkdir(path, mode) == 0 || errno == EEXIST {
            if case .directory = FileStatus.of(path) { return nil }
            return FileError(code: EEXIST)
        }
        return FileError(code: errno)
    }

    /// Every regular file below `folder`, as paths relative to it, descending
    /// into folders (not into links to folders, so a loop cannot trap it).
    public static func filesBelow(_ folder: String) -> [String] {
        var found: [String] = []
        walkFiles(below: folder) { found.append($0); return true }
        return found
    }

    /// The first regular file below `folder` (as ``filesBelow(_:)`` walks
    /// them) that `matches`, found without walking the rest.
    public static func firstFile(below folder: String, where matches: (String) -> Bool) -> String? {
        var first: String?
        walkFiles(below: folder) { path in
            if matches(path) { first = path }
            return first == nil
        }
        return first
    }

    /// Hands each regular file below `folder` to `visit` (a path relative to
    /// it) until `visit` says false.
    private static func walkFiles(below folder: String, _ visit: (String) -> Bool) {
        var pending = [""]
        while let relative = pending.popLast() {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = names(inFolder: absolute) else { continue }
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(folder + "/" + path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: if !visit(path) { return }
                case S_IFLNK: if case .regular = FileStatus.of(folder + "/" + path), !visit(path) { return }
                default: break
                }
            }
        }
    }

    /// `path` from the root: a relative one under the current folder, as a
    /// later run in another folder finds it.
    public static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return String(cString: folder) + "/" + path
    }

    /// The user's home folder: `$HOME`, else the password database's.
    public static func homeFolder(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }

    /// Whether `path` is a folder (following links).
    public static func isFolder(_ path: String) -> Bool {
        if case .directory = FileStatus.of(path) { return true }
        return false
    }

    /// Whether `path` is a regular file this process may execute.
    public static func isExecutableFile(_ path: String) -> Bool {
        guard case .regular = FileStatus.of(path) else { return false }
        return access(path, X_OK) == 0
    }
}

/// Why ``LocalFiles/replace(_:with:mode:check:)`` left a file as it was, in words.
public struct FileReplaceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Why a file could not be read, written or made: an `errno` value and its words.
public struct FileError: Error, Sendable, Equatable {
    /// The `errno` value.
    public let code: Int32

    /// The error of `errno` value `code`.
    public init(code: Int32) { self.code = code }
    /// "permission denied", "no such file", or the C library's words.
    public var reason: String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case ENOENT, ENOTDIR: "no such file"
        case EISDIR: "it is a directory"
        case EEXIST: "a file of that name is in the way"
        case ESPIPE: "it is not a regular file (a pipe, a device or a socket)"
        case EFBIG: "it is too large"
        default: String(cString: strerror(code))
        }
    }
}
