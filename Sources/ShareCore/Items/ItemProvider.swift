import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An item computed on demand, off the caller's thread, that can be cancelled.
///
/// The terminal counterpart of `UIActivityItemProvider` / `NSItemProvider`.
/// The placeholder decides eligibility at once; the work runs only when an
/// activity asks for the item, on a background task, and reports progress
/// that the front end shows. Each load ends in exactly one completion: the
/// item, the work's error, or ``ItemProviderError/cancelled``.
///
/// ```swift
/// let report = ItemProvider(placeholder: .file(placeholderPDF)) { context in
///     context.reportProgress(0.5)
///     try context.checkCancellation()
///     return .file(try renderReport())
/// }
/// ```
public final class ItemProvider: Sendable {
    /// The work that computes the item. It may throw; it should call
    /// ``ItemProviderContext/checkCancellation()`` now and then.
    public typealias Work = @Sendable (ItemProviderContext) async throws -> ShareItem

    /// The item to use before the real one exists: its kind decides eligibility.
    public let placeholder: ShareItem
    /// The subject offered to activities that have one.
    public let subject: String
    /// Title, icon and URL for the preview header.
    public let metadata: LinkMetadata?

    private let work: Work
    private let state = Mutex(State())

    private struct State {
        var progress: Double = 0
        var observers: [@Sendable (Double) -> Void] = []
        var cancelled = false
        var loads: [Int: Load] = [:]
        var nextLoad = 0
    }

    private struct Load {
        var task: Task<Void, Never>?
        var completion: @Sendable (Result<ShareItem, any Error>) -> Void
    }

    /// Creates a provider from a placeholder and the work that computes the real item.
    public init(placeholder: ShareItem, subject: String = "", metadata: LinkMetadata? = nil, work: @escaping Work) {
        self.placeholder = placeholder
        self.subject = subject
        self.metadata = metadata
        self.work = work
    }

    /// The fraction of the work done so far, from 0 to 1.
    public var progress: Double { state.withLock { $0.progress } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Calls `handler` with the fraction done each time the work reports progress.
    ///
    /// The handler runs on the work's thread; hop to the UI thread yourself.
    public func observeProgress(_ handler: @escaping @Sendable (Double) -> Void) {
        state.withLock { $0.observers.append(handler) }
    }

    /// Starts computing the item for `activityType` off the caller's thread.
    ///
    /// `completion` is called exactly once, on a background thread: with the
    /// item, with the work's error, with ``ItemProviderError/cancelled`` when
    /// the provider was cancelled, or with ``ItemProviderError/kindMismatch``
    /// when the work returned an item of another kind than the placeholder.
    public func loadItem(for activityType: ActivityType,
                         completion: @escaping @Sendable (Result<ShareItem, any Error>) -> Void) {
        let id: Int? = state.withLock { state in
            if state.cancelled { return nil }
            let id = state.nextLoad
            state.nextLoad += 1
            state.loads[id] = Load(task: nil, completion: completion)
            return id
        }
        guard let id else {
            Task.detached { completion(.failure(ItemProviderError.cancelled)) }
            return
        }
        let context = ItemProviderContext(activityType: activityType, provider: self)
        let task = Task.detached { [work, placeholder] in
            let result: Result<ShareItem, any Error>
            do {
                let item = try await work(context)
                if item.kind != placeholder.kind {
                    result = .failure(ItemProviderError.kindMismatch(expected: placeholder.kind, got: item.kind))
                } else {
                    result = .success(item)
                }
            } catch {
                result = .failure(error)
            }
            self.deliver(id, result)
        }
        state.withLock { state in
            if state.loads[id] != nil { state.loads[id]?.task = task }
        }
    }

    /// Computes the item for `activityType` and returns it; see ``loadItem(for:completion:)``.
    public func item(for activityType: ActivityType) async throws -> ShareItem {
        try await withCheckedThrowingContinuation { continuation in
            loadItem(for: activityType) { continuation.resume(with: $0) }
        }
    }

    /// Cancels every load in flight and every later one.
    ///
    /// Each pending completion receives ``ItemProviderError/cancelled`` at
    /// once, even if the work ignores cancellation; its late result is dropped.
    public func cancel() {
        let pending: [Load] = state.withLock { state in
            state.cancelled = true
            let loads = Array(state.loads.values)
            state.loads.removeAll()
            return loads
        }
        for load in pending {
            load.task?.cancel()
            load.completion(.failure(ItemProviderError.cancelled))
        }
    }

    fileprivate func report(_ fraction: Double) {
        let clamped = min(max(fraction, 0), 1)
        let observers = state.withLock { state in
            state.progress = clamped
            return state.observers
        }
        for observer in observers { observer(clamped) }
    }

    private func deliver(_ id: Int, _ result: Result<ShareItem, any Error>) {
        let load = state.withLock { state in state.loads.removeValue(forKey: id) }
        guard let load else { return }  // already cancelled and reported
        if case .success = result { report(1) }
        load.completion(result)
    }
}

/// What an item provider's work can see and do while it runs.
public struct ItemProviderContext: Sendable {
    /// The activity the item is computed for.
    public let activityType: ActivityType
    fileprivate let provider: ItemProvider

    /// Reports the fraction of the work done (0 to 1) to the front end.
    public func reportProgress(_ fraction: Double) { provider.report(fraction) }

    /// Whether the provider was cancelled.
    public var isCancelled: Bool { provider.isCancelled || Task.isCancelled }

    /// Throws ``ItemProviderError/cancelled`` when the provider was cancelled.
    public func checkCancellation() throws(ItemProviderError) {
        if isCancelled { throw .cancelled }
    }
}

/// Why an item provider did not produce its item.
public enum ItemProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``ItemProvider/cancel()`` was called.
    case cancelled
    /// The work returned an item of another kind than the placeholder's.
    case kindMismatch(expected: ItemKind, got: ItemKind)

    public var description: String {
        switch self {
        case .cancelled: "the item was cancelled before it was ready"
        case .kindMismatch(let expected, let got):
            "the item provider returned a \(got.rawValue) where its placeholder promised a \(expected.rawValue)"
        }
    }
}
