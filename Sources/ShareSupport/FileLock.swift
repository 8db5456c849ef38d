#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a lock file, held while `body` runs: how two
/// share processes that read, change and rewrite the same file (the
/// reading list, the outbox) take turns. The kernel drops the lock when
/// the process ends, however it ends, so a crash never leaves it held.
public enum FileLock {
    /// Runs `body` holding the lock on `path` (made when missing, mode
    /// 0600), waiting for it first; the error says why it could not be taken.
    public static func holding<T, Failure: Error>(_ path: String, _ body: () throws(Failure) -> T) throws(FileLockError<Failure>) -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unlocked(FileError(code: errno)) }
        defer { close(descriptor) }  // closing drops the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unlocked(FileError(code: errno)) }
        }
        do throws(Failure) {
            return try body()
        } catch {
            throw .body(error)
        }
    }
}

/// Why ``FileLock/holding(_:_:)`` failed: the lock could not be taken, or
/// the work done under it failed.
public enum FileLockError<Failure: Error>: Error {
    /// The lock file could not be opened or locked.
    case unlocked(FileError)
    /// The work under the lock threw.
    case body(Failure)
}
