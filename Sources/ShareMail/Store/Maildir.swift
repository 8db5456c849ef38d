#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareCore
import ShareSupport
import Synchronization

/// A Maildir folder (drafts, sent, outbox) that mutt, neomutt and aerc read.
///
/// Messages are written to `tmp/`, flushed and fsynced, then renamed into
/// `cur/` (with flags) or `new/`: a reader never sees half a message, and a
/// failed write leaves nothing behind.
public struct Maildir: Sendable, Equatable {
    /// The folder holding `tmp`, `new` and `cur`.
    public let path: String

    /// Names a Maildir; nothing is created until ``create()`` or a delivery.
    public init(path: String) {
        self.path = path
    }

    /// Creates the folder and its `tmp`, `new` and `cur` (mode 0700) when missing.
    public func create() throws(MailError) {
        for directory in [path, path + "/tmp", path + "/new", path + "/cur"] {
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                if errno == ENOENT {
                    try Maildir.makeParents(of: directory)
                    if mkdir(directory, 0o700) == 0 || errno == EEXIST { continue }
                }
                throw MailError(.io, "cannot create the mail folder \(directory): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// How old a file in `tmp/` must be before it counts as left behind by a
    /// writer that died: 36 hours, the Maildir rule (a delivery in progress
    /// is never that old).
    public static let staleAfterSeconds: Int = 36 * 60 * 60

    /// Removes files in `tmp/` older than ``staleAfterSeconds``: parts of
    /// messages whose writer was killed before the rename. Returns how many.
    @discardableResult
    public func removeStaleTemporaryFiles(now: time_t = time(nil)) -> Int {
        let folder = path + "/tmp"
        guard let names = LocalFiles.names(inFolder: folder) else { return 0 }
        var removed = 0
        for name in names where !name.hasPrefix(".") {
            var info = stat()
            let file = folder + "/" + name
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                  now - info.st_mtim.tv_sec > time_t(Maildir.staleAfterSeconds) else { continue }
            if unlink(file) == 0 { removed += 1 }
        }
        return removed
    }

    /// Writes a message through `body` and delivers it atomically.
    ///
    /// With `flags` (such as `"D"` for a draft, `"S"` for seen) the message
    /// goes to `cur/` as `name:2,FLAGS`; with `nil` it goes to `new/`.
    /// - Returns: the delivered file's path.
    @discardableResult
    public func deliver(flags: String?, _ body: (any ByteSink) throws(MailError) -> Void) throws(MailError) -> String {
        try create()
        let name = Maildir.uniqueName()
        let temporary = path + "/tmp/" + name
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw MailError(.io, "cannot write in \(path)/tmp: \(String(cString: strerror(errno)))")
        }
        do throws(MailError) {
            let sink = FileDescriptorSink(fd: fd, name: temporary)
            try body(sink)
            try sink.flush()
            guard fsync(fd) == 0 else { throw MailError(.io, "cannot save \(temporary): \(String(cString: strerror(errno)))") }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        let final = flags.map { path + "/cur/" + name + ":2," + String($0.sorted()) } ?? path + "/new/" + name
        guard rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw MailError(.io, "cannot deliver into \(path): \(reason)")
        }
        Maildir.syncDirectory(final)
        return final
    }

    /// Moves the message file at `file` (of another Maildir on the same
    /// file system) into this folder's `cur/` with `flags`, in one rename:
    /// there is no moment when it is in neither folder, or in both.
    /// `nil` when the two are on different file systems (copy it then).
    public func take(_ file: String, flags: String) throws(MailError) -> String? {
        try create()
        let final = path + "/cur/" + Maildir.uniqueName() + ":2," + String(flags.sorted())
        guard rename(file, final) == 0 else {
            if errno == EXDEV { return nil }
            throw MailError(.io, "cannot move \(file) into \(path): \(String(cString: strerror(errno)))")
        }
        Maildir.syncDirectory(final)
        Maildir.syncDirectory(file)
        return final
    }

    /// Copies an existing message file into this folder (atomically).
    @discardableResult
    public func deliver(copyOf file: String, flags: String?) throws(MailError) -> String {
        try deliver(flags: flags) { sink throws(MailError) in
            try MIMEWriter.stream(file: URL(fileURLWithPath: file)) { chunk throws(MailError) in try sink.write(chunk) }
        }
    }

    /// The messages in `new/` and `cur/`, oldest first.
    public func messages() -> [String] {
        var found: [(String, Double)] = []
        for sub in ["new", "cur"] {
            let directory = path + "/" + sub
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where !name.hasPrefix(".") {
                let file = directory + "/" + name
                var info = stat()
                guard stat(file, &info) == 0 else { continue }
                found.append((file, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            }
        }
        return found.sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.0)
    }

    /// Removes a delivered message.
    public func remove(_ file: String) {
        if unlink(file) == 0 { Maildir.syncDirectory(file) }
    }

    private static let counter = Mutex(0)

    /// `seconds.M<micro>P<pid>Q<n>.<host>`, unique per process and delivery.
    static func uniqueName() -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        let count = counter.withLock { value in
            value += 1
            return value
        }
        let hostname = HostName.current.replacing("/", with: "\\057").replacing(":", with: "\\072")
        return "\(now.tv_sec).M\(now.tv_usec)P\(getpid())Q\(count).\(hostname)"
    }

    private static func makeParents(of directory: String) throws(MailError) {
        let parent = PathText.parent(of: directory)
        if let failure = LocalFiles.createFolders(parent) {
            throw MailError(.io, "cannot create the mail folder \(parent): \(failure.reason)")
        }
    }

    static func syncDirectory(_ file: String) {
        let directory = PathText.parent(of: file)
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }
}
