import ShareCore
import ShareSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A flag one side sets and the other asks between pieces of work.
final class StopFlag: Sendable {
    private let value = Atomic(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}

/// The SHA-256 of the items' files, which prepare-upload carries, taken
/// on a thread of its own from the moment it is started: the pass over
/// the files goes on while share finds the device, registers, or waits
/// for the person to pick one, and a send waits only for what is left
/// of it. Each file is tried when the digests start (one that cannot be
/// opened is said at once, before any device is looked for), and opened
/// again when its turn comes: never more than one held open, whatever
/// the number of files.
final class LocalSendDigests: Sendable {
    /// What the pass found for a file.
    enum Outcome: Sendable, Equatable {
        case digest(String)
        /// It could not be opened or read (the path).
        case unreadable(String)
        /// The pass was stopped before the file's end.
        case stopped
    }

    /// Item index → its file's outcome, as the pass goes.
    private let outcomes: Mutex<[Int: Outcome]>
    /// The files still to read: item index and path.
    private let pending: Mutex<[(index: Int, path: String)]>
    private let stopFlag = StopFlag()
    private let worker = Mutex<BackgroundThread.Joinable?>(nil)

    private init(items: [ShareItem]) {
        var outcomes: [Int: Outcome] = [:]
        var pending: [(index: Int, path: String)] = []
        for (index, item) in items.enumerated() {
            guard case .path(let url) = item.fileItem?.storage else { continue }
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                outcomes[index] = .unreadable(url.path)
            } else {
                close(descriptor)
                pending.append((index, url.path))
            }
        }
        self.outcomes = Mutex(outcomes)
        self.pending = Mutex(pending)
    }

    /// Tries the files of `items` and starts reading them on a thread (in
    /// the waiter's thread instead when no thread can be made).
    static func start(items: [ShareItem]) -> LocalSendDigests {
        let digests = LocalSendDigests(items: items)
        let thread = BackgroundThread.startJoinable { [digests] in digests.work() }
        digests.worker.withLock { $0 = thread }
        return digests
    }

    /// The first file that could not be opened, if one could not.
    var unopened: String? {
        outcomes.withLock { outcomes in
            outcomes.sorted { $0.key < $1.key }.lazy.compactMap { if case .unreadable(let path) = $0.value { path } else { nil } }.first
        }
    }

    /// Reads the pending files one after the other, until they are done or the pass is stopped.
    private func work() {
        while !stopFlag.isSet, let file = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            let digest = descriptor < 0 ? nil : SHA256.hex(ofDescriptor: descriptor, stop: { stopFlag.isSet })
            if descriptor >= 0 { close(descriptor) }
            let outcome: Outcome = if let digest { .digest(digest) } else if stopFlag.isSet { .stopped } else { .unreadable(file.path) }
            outcomes.withLock { $0[file.index] = outcome }
        }
    }

    /// Stops the pass at its next read; the files left are not read.
    func stop() { stopFlag.set() }

    /// The outcome for the file of item `index`, once the pass is over
    /// (waited for); `nil` for an item that is not a file on disk.
    func outcome(ofItem index: Int) -> Outcome? {
        // Whoever waits first joins the thread; others wait on the lock until it has ended.
        worker.withLock { thread in
            thread?.join()
            thread = nil
        }
        // Without a thread (or stopped), what is left is read here.
        if !stopFlag.isSet { work() }
        if let known = outcomes.withLock({ $0[index] }) { return known }
        return pending.withLock { $0.contains { $0.index == index } } ? .stopped : nil
    }
}
