#if canImport(Glibc)
import Glibc
#endif

/// Work on a thread of its own, for slow questions (a print server) asked
/// while the synchronous picker keeps drawing: no concurrency runtime is
/// started for it. The thread is detached; the work reports back on its
/// own (through the screen loop's poster).
public enum BackgroundThread {
    /// Starts `work` on a new detached thread; false when no thread could be made.
    @discardableResult
    public static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        // A thread nobody waits for is detached when its handle goes.
        startJoinable(work) != nil
    }

    /// A started thread that can be waited for: once, by its starter.
    public final class Joinable: @unchecked Sendable {
        private let thread: pthread_t
        private var joined = false

        fileprivate init(_ thread: pthread_t) { self.thread = thread }

        /// Never waited for: its resources go when it ends.
        deinit { if !joined { pthread_detach(thread) } }

        /// Waits until the work has returned.
        public func join() {
            guard !joined else { return }
            joined = true
            pthread_join(thread, nil)
        }
    }

    /// Starts `work` on a new thread that ``Joinable/join()`` waits for;
    /// `nil` when no thread could be made.
    public static func startJoinable(_ work: @escaping @Sendable () -> Void) -> Joinable? {
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
            work.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return nil
        }
        return Joinable(thread)
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
