#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// Something that hands out a message's bytes to a transport, chunk by chunk.
public protocol MessageReading: AnyObject {
    /// Fills `buffer` with the next bytes; 0 at the end, -1 to abort the transfer.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
    /// Bytes handed out so far.
    var bytesRead: Int { get }
}

extension TransmissionReader: MessageReading {}

/// How far a draft being written has come, for a reader that follows it:
/// the bytes on disk so far, and once it is done, where it is (written,
/// fsynced and renamed into `cur/`) or why it failed.
final class DraftProgress: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var written = 0
    private var outcome: Result<String, MailError>?

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    /// `total` bytes are in the file now.
    func publish(_ total: Int) {
        pthread_mutex_lock(&mutex)
        written = total
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// The draft is done: safely on disk at a path, or failed.
    func finish(_ result: Result<String, MailError>) {
        pthread_mutex_lock(&mutex)
        outcome = result
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until more than `offset` bytes are written or the draft is done.
    func wait(beyond offset: Int) -> (written: Int, outcome: Result<String, MailError>?) {
        pthread_mutex_lock(&mutex)
        while written <= offset && outcome == nil { pthread_cond_wait(&condition, &mutex) }
        let state = (written, outcome)
        pthread_mutex_unlock(&mutex)
        return state
    }

    /// The outcome, once done.
    var result: Result<String, MailError>? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return outcome
    }
}

/// A sink that writes a draft to its file in large pieces and tells a
/// ``DraftProgress`` after each, so that a reader can follow the file.
final class PublishingSink: ByteSink {
    private let fd: Int32
    private let name: String
    private let progress: DraftProgress
    private var buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private var total = 0

    init(fd: Int32, name: String, progress: DraftProgress, capacity: Int = 1 << 20) {
        self.fd = fd
        self.name = name
        self.progress = progress
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(MailError) {
        var rest = bytes
        while !rest.isEmpty {
            let count = min(rest.count, buffer.count - used)
            UnsafeMutableRawBufferPointer(rebasing: buffer[used..<(used + count)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[0..<count]))
            used += count
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            if used == buffer.count { try flush() }
        }
    }

    /// Writes out what is buffered and says so.
    func flush() throws(MailError) {
        guard used > 0 else { return }
        do throws(FileError) {
            try LocalFiles.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<used]), to: fd)
        } catch {
            throw MailError(.io, "cannot write \(name): \(error.reason)")
        }
        total += used
        used = 0
        progress.publish(total)
    }
}

/// Streams a draft for transmission while it is still being written:
/// the headers without `Bcc:` once they are on disk, then the body as it
/// grows. The end of the message is given only once the draft is fsynced
/// in the drafts folder, so the server's accept (which follows the end of
/// DATA) never comes for a message that is not safely kept; a draft that
/// fails aborts the transfer, and the server never takes half a message.
final class FollowingReader: MessageReading {
    private let path: String
    private let progress: DraftProgress
    private let fd: Int32
    private var header = HeldHeader()
    private var fileOffset = -1
    private(set) var bytesRead = 0

    init(path: String, progress: DraftProgress) throws(MailError) {
        self.path = path
        self.progress = progress
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MailError(.io, "cannot read \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if fileOffset < 0 && !readHeader() { return -1 }
        let held = header.handOut(into: buffer)
        if held > 0 {
            bytesRead += held
            return held
        }
        while true {
            let count = pread(fd, buffer.baseAddress, buffer.count, off_t(fileOffset))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return -1 }
            if count > 0 {
                fileOffset += count
                bytesRead += count
                return count
            }
            let (written, outcome) = progress.wait(beyond: fileOffset)
            switch outcome {
            case .failure?: return -1
            case .success? where written <= fileOffset: return 0
            default: continue
            }
        }
    }

    /// Waits for the whole header section, then takes the transmitted one (without Bcc).
    private func readHeader() -> Bool {
        var seen = 0
        while true {
            let (written, outcome) = progress.wait(beyond: seen)
            if case .failure = outcome { return false }
            seen = written
            var prefix = [UInt8](repeating: 0, count: min(written, 1 << 20))
            let count = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if count > 0, MessageFile.headerEnd(Array(prefix[0..<count]), from: 0) != nil || outcome != nil {
                // From the descriptor (the body is read with pread, at its own offsets):
                // the writer may have renamed the file into cur/ already.
                guard lseek(fd, 0, SEEK_SET) == 0, let file = try? MessageFile(path: path, reading: fd) else { return false }
                header = HeldHeader(file.transmittedHeaderBytes)
                fileOffset = file.headerBytes.count
                return true
            }
            if outcome != nil { return false }
        }
    }
}
