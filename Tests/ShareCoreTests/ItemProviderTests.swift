import Foundation
import Synchronization
import Testing
@testable import ShareCore

private struct RenderFailed: Error, Equatable {}

/// Collects values from background threads.
private final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

struct ItemProviderTests {
    @Test func theWorkRunsOnlyWhenAskedAndOffTheCallersThread() async throws {
        let runs = Recorder<Bool>()
        let provider = ItemProvider(placeholder: .text("…")) { _ in
            runs.append(Thread.isMainThread)
            return .text("ready")
        }
        #expect(runs.all.isEmpty)
        let item = try await MainActor.run { provider }.item(for: .mail)
        #expect(item == .text("ready"))
        #expect(runs.all == [false])
    }

    @Test @MainActor func loadingFromTheMainThreadComputesElsewhere() async throws {
        let threads = Recorder<Bool>()
        let provider = ItemProvider(placeholder: .text("…")) { context in
            threads.append(Thread.isMainThread)
            return .text(context.activityType.rawValue)
        }
        let result: Result<ShareItem, any Error> = await withCheckedContinuation { continuation in
            provider.loadItem(for: .copyToPasteboard) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == .text("copyToPasteboard"))
        #expect(threads.all == [false])
    }

    @Test func progressIsReportedToObserversAndEndsAtOne() async throws {
        let seen = Recorder<Double>()
        let provider = ItemProvider(placeholder: .text("…")) { context in
            context.reportProgress(0.25)
            context.reportProgress(0.5)
            context.reportProgress(7)  // clamped
            return .text("done")
        }
        provider.observeProgress { seen.append($0) }
        _ = try await provider.item(for: .mail)
        #expect(seen.all == [0.25, 0.5, 1, 1])
        #expect(provider.progress == 1)
    }

    @Test func aFailureReachesTheCompletionAsAnError() async {
        let provider = ItemProvider(placeholder: .file(Fixtures.file.fileItem!)) { _ in throw RenderFailed() }
        await #expect(throws: RenderFailed.self) { try await provider.item(for: .mail) }
        #expect(provider.progress == 0)
    }

    @Test func cancelEndsAPendingLoadAtOnceWithCancelled() async {
        let started = Recorder<Bool>()
        let provider = ItemProvider(placeholder: .text("…")) { context in
            started.append(true)
            try await Task.sleep(for: .seconds(600))  // a long job; cancellation ends it
            return .text("never")
        }
        let outcome = Recorder<String>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            provider.loadItem(for: .mail) { result in
                switch result {
                case .success: outcome.append("success")
                case .failure(let error): outcome.append("\(error)")
                }
                done.resume()
            }
            provider.cancel()
        }
        #expect(outcome.all == [ItemProviderError.cancelled.description])
        #expect(provider.isCancelled)
    }

    @Test func aLateResultAfterCancelIsDroppedAndTheCompletionRunsOnce() async throws {
        let gate = AsyncStream<Void>.makeStream()
        let finished = AsyncStream<Void>.makeStream()
        let provider = ItemProvider(placeholder: .text("…")) { context in
            for await _ in gate.stream { break }  // ignores cancellation until released
            finished.continuation.yield()
            return .text("late")
        }
        let calls = Recorder<String>()
        provider.loadItem(for: .mail) { result in calls.append((try? result.get()).map { "\($0)" } ?? "cancelled") }
        provider.cancel()
        gate.continuation.yield()
        for await _ in finished.stream { break }
        // Loads after a cancel are cancelled too.
        await #expect(throws: ItemProviderError.cancelled) { try await provider.item(for: .mail) }
        #expect(calls.all == ["cancelled"])
    }

    @Test func anItemOfAnotherKindThanThePlaceholderIsAnError() async {
        let provider = ItemProvider(placeholder: .url(URL(string: "https://example.com")!)) { _ in .text("oops") }
        await #expect(throws: ItemProviderError.kindMismatch(expected: .url, got: .string)) {
            try await provider.item(for: .mail)
        }
    }

    @Test @MainActor func theShareSheetWaitsForProvidersAndReportsTheirFailure() async {
        let activity = RecordingActivity("com.example.upload")
        let good = ItemProvider(placeholder: .text("…")) { _ in .text("computed") }
        let sheet = ShareSheet(activityItems: [.provider(good)], applicationActivities: [activity], systemActivities: [])
        let result = await sheet.run(activity)
        #expect(result.outcome == .performed)
        #expect(activity.preparedItems == [.text("computed")])

        let bad = ItemProvider(placeholder: .text("…")) { _ in throw RenderFailed() }
        let failing = ShareSheet(activityItems: [.provider(bad)], applicationActivities: [activity], systemActivities: [])
        let failed = await failing.run(activity)
        #expect(failed.outcome == .failed)
        #expect(failed.error?.code == "item-failed")

        // A provider that fails reading a file is told as the file and the reason, not as a dump of the error.
        let unreadable = ItemProvider(placeholder: .text("…")) { _ in
            .text(String(decoding: try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/report.txt")), as: UTF8.self))
        }
        let told = await ShareSheet(activityItems: [.provider(unreadable)], applicationActivities: [activity],
                                    systemActivities: []).run(activity)
        #expect(told.error?.message == "an item could not be prepared: /nonexistent/report.txt: No such file or directory")

        let cancelled = ItemProvider(placeholder: .text("…")) { _ in .text("x") }
        cancelled.cancel()
        let stopped = await ShareSheet(activityItems: [.provider(cancelled)], applicationActivities: [activity],
                                       systemActivities: []).run(activity)
        #expect(stopped.outcome == .cancelled)
    }
}

@MainActor
struct ItemSourceTests {
    /// Gives a different item per activity type, and none to Copy.
    final class PerTypeSource: ActivityItemSource {
        func placeholderItem() -> ShareItem { .text("placeholder") }
        func item(for activityType: ActivityType) -> ShareItem? {
            activityType == .copyToPasteboard ? nil : .text("for \(activityType.rawValue)")
        }
        func subject(for activityType: ActivityType) -> String { activityType == .mail ? "PIN share" : "" }
        func thumbnail(for activityType: ActivityType, size: ThumbnailSize) -> Thumbnail? {
            size.width >= 16 ? Thumbnail(data: Fixtures.png, contentType: "image/png") : nil
        }
        func linkMetadata() -> LinkMetadata? {
            LinkMetadata(title: "Your PIN", url: URL(string: "https://example.com/pin"))
        }
    }

    @Test func theSourceAnswersPerActivityType() async throws {
        let source = PerTypeSource()
        let mail = RecordingActivity("com.example.mail")
        let sheet = ShareSheet(activityItems: [.source(source), .item(Fixtures.url)], applicationActivities: [mail],
                               systemActivities: SystemStandIn.all())
        #expect(try await sheet.resolvedItems(for: mail) == [.text("for com.example.mail"), Fixtures.url])
        let copy = try #require(sheet.activity(ofType: .copyToPasteboard))
        #expect(try await sheet.resolvedItems(for: copy) == [Fixtures.url])
        #expect(sheet.subject(for: .mail) == "PIN share")
        #expect(sheet.subject(for: .message) == nil)
    }

    @Test func thePlaceholderDecidesEligibility() {
        let sheet = ShareSheet(activityItems: [.source(PerTypeSource())], systemActivities: SystemStandIn.all())
        let eligible = Set(sheet.eligibleActivities().map(\.activityType))
        #expect(eligible.contains(.mail))
        #expect(!eligible.contains(.addToReadingList))
    }

    @Test func dataTypeThumbnailAndMetadataAreAnswered() {
        let source = PerTypeSource()
        #expect(source.dataTypeIdentifier(for: .mail) == "text/plain")
        #expect(source.thumbnail(for: .mail, size: ThumbnailSize(width: 64, height: 64))?.contentType == "image/png")
        #expect(source.thumbnail(for: .mail, size: ThumbnailSize(width: 8, height: 8)) == nil)
        let entry = ActivityItem.source(source)
        #expect(entry.linkMetadata?.title == "Your PIN")
        #expect(entry.linkMetadata?.url?.host == "example.com")
        #expect(ActivityItem.item(Fixtures.text).linkMetadata == nil)
    }

    @Test func defaultsOfAMinimalSource() {
        final class Minimal: ActivityItemSource {
            func placeholderItem() -> ShareItem { Fixtures.image }
            func item(for activityType: ActivityType) -> ShareItem? { Fixtures.image }
        }
        let source = Minimal()
        #expect(source.subject(for: .mail) == "")
        #expect(source.dataTypeIdentifier(for: .mail) == "image/png")
        #expect(source.thumbnail(for: .mail, size: ThumbnailSize(width: 64, height: 64)) == nil)
        #expect(source.linkMetadata() == nil)
    }
}
