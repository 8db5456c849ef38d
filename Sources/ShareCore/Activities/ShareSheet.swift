import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// The share sheet's model: the items, the activities, the rules that
/// decide which activities show and in what order, and the run of the one
/// a person picks.
///
/// The terminal counterpart of `UIActivityViewController`, without the
/// view: the picker draws what ``evaluations()`` returns and calls
/// ``run(_:presenter:)`` with the picked activity.
///
/// ```swift
/// let sheet = ShareSheet(activityItems: [.text("PIN 4821")], systemActivities: system)
/// sheet.excludedActivityTypes = [.postToFacebook]
/// sheet.completionWithItemsHandler = { result in print(result.json.serialized) }
/// ```
@MainActor
public final class ShareSheet {
    /// The items to share, in order.
    public let activityItems: [ActivityItem]
    /// Custom activities supplied by the program (shown before system ones in their row).
    public let applicationActivities: [any Activity]
    /// The system activities, one per row of the support table.
    public let systemActivities: [any Activity]
    /// Types that never show.
    public var excludedActivityTypes: Set<ActivityType> = []
    /// When set, only these types may show.
    public var includedActivityTypes: Set<ActivityType>?
    /// Types that come before all others, in this order.
    public var pinnedActivityTypes: [ActivityType] = []
    /// A subject offered to every activity (`--subject`); wins over item sources.
    public var subject: String?
    /// Called exactly once per run with its result.
    public var completionWithItemsHandler: ((ActivityResult) -> Void)?
    /// Changes the items once an activity is picked, before it receives
    /// them (`--no-location`, `--resize` …); none by default.
    public var itemAdjuster: (any ItemAdjusting)?

    /// Creates a share sheet for `activityItems`.
    public init(activityItems: [ActivityItem], applicationActivities: [any Activity] = [],
                systemActivities: [any Activity]) {
        self.activityItems = activityItems
        self.applicationActivities = applicationActivities
        self.systemActivities = systemActivities
    }

    /// Applies a filter's exclusions, `--only` list and pins.
    public func apply(_ filter: ActivityFilter) {
        excludedActivityTypes.formUnion(filter.excluded)
        includedActivityTypes = filter.only
        pinnedActivityTypes = filter.pinned
    }

    // MARK: - Eligibility and order

    /// Every activity in display order, each with its verdict.
    ///
    /// Order: pinned types first (in pin order); then the share row, then
    /// the action row; within a row application activities first, then
    /// system ones in table order.
    public func evaluations() -> [ActivityEvaluation] {
        let placeholders = activityItems.map(\.placeholder)
        return ordered().map { evaluate($0, items: placeholders, explaining: true) }
    }

    /// The eligible activities, in display order.
    public func eligibleActivities() -> [any Activity] {
        eligibleEvaluations().map(\.activity)
    }

    /// The eligible activities' verdicts, in display order. The reasons are
    /// for --explain; the picker and --list need only the verdicts.
    public func eligibleEvaluations() -> [ActivityEvaluation] {
        let placeholders = activityItems.map(\.placeholder)
        return ordered().map { evaluate($0, items: placeholders, explaining: false) }.filter(\.isEligible)
    }

    /// The eligible activities in display order, without waiting for the
    /// availability of those that must ask something slow: those that pass
    /// every other rule are `pending`, to be checked while the picker shows
    /// the others (``AvailabilityChecking``).
    public func eligibleActivitiesNotWaiting() -> (eligible: [any Activity], pending: [any AvailabilityChecking]) {
        let placeholders = activityItems.map(\.placeholder)
        var eligible: [any Activity] = []
        var pending: [any AvailabilityChecking] = []
        // Through the activities' own requirements: a cast (`as? any P`) of
        // each type to a protocol it does not conform to scans every
        // conformance record of the program, 140 K instructions each.
        for activity in ordered() where refusal(activity, items: placeholders, explaining: false) == nil {
            if let settled = activity.settledAvailability {
                if settled.isAvailable { eligible.append(activity) }
            } else if let checking = activity as? any AvailabilityChecking {
                pending.append(checking)
            } else if activity.availability.isAvailable {
                eligible.append(activity)
            }
        }
        return (eligible, pending)
    }

    /// The activity of `type`, eligible or not.
    public func activity(ofType type: ActivityType) -> (any Activity)? {
        (applicationActivities + systemActivities).first { $0.activityType == type }
    }

    /// The verdict on one activity: the first of excluded, unsupported-items, unavailable.
    public func evaluate(_ activity: any Activity) -> ActivityEvaluation {
        evaluate(activity, items: activityItems.map(\.placeholder), explaining: true)
    }

    /// The verdict on the items' `placeholders`; without `explaining`, an
    /// unsupported-items verdict has no detail.
    private func evaluate(_ activity: any Activity, items placeholders: [ShareItem], explaining: Bool) -> ActivityEvaluation {
        if let refused = refusal(activity, items: placeholders, explaining: explaining) { return refused }
        if case .unavailable(let detail) = activity.availability {
            return ActivityEvaluation(activity: activity, reason: .unavailable, detail: detail)
        }
        return ActivityEvaluation(activity: activity, reason: nil, detail: nil)
    }

    /// The verdict when the activity is excluded or takes none of the items;
    /// `nil` when only its availability is left to judge.
    private func refusal(_ activity: any Activity, items placeholders: [ShareItem], explaining: Bool) -> ActivityEvaluation? {
        let type = activity.activityType
        if excludedActivityTypes.contains(type) {
            return ActivityEvaluation(activity: activity, reason: .excluded, detail: "excluded")
        }
        if let only = includedActivityTypes, !only.contains(type) {
            return ActivityEvaluation(activity: activity, reason: .excluded, detail: "not in --only")
        }
        let kinds = supportedKinds(of: activity)
        let supported = placeholders.filter { $0.isSupported(by: kinds) }
        if supported.isEmpty || (!type.isSystem && !activity.canPerform(with: supported)) {
            return ActivityEvaluation(activity: activity, reason: .unsupportedItems,
                                      detail: explaining ? unsupportedDetail(kinds: kinds, items: placeholders,
                                                                             askedActivity: !supported.isEmpty) : nil)
        }
        if let why = activity.refusal(of: supported) {
            return ActivityEvaluation(activity: activity, reason: .unsupportedItems, detail: why)
        }
        return nil
    }

    /// The kinds an activity takes: the support table's for system types, its own otherwise.
    public func supportedKinds(of activity: any Activity) -> Set<ItemKind> {
        SupportTable.descriptor(for: activity.activityType)?.kinds ?? activity.supportedKinds
    }

    private func ordered() -> [any Activity] {
        var seen = Set<ActivityType>()
        var result: [any Activity] = []
        func add(_ activity: any Activity) {
            if seen.insert(activity.activityType).inserted { result.append(activity) }
        }
        let all = applicationActivities + systemActivities
        for type in pinnedActivityTypes {
            if let activity = all.first(where: { $0.activityType == type }) { add(activity) }
        }
        // Each position looked up once, not at every comparison.
        let system = systemActivities.map { (position: SupportTable.position(of: $0.activityType) ?? Int.max, activity: $0) }
            .sorted { $0.position < $1.position }.map(\.activity)
        for category in [ActivityCategory.share, .action] {
            for activity in applicationActivities where activity.activityCategory == category { add(activity) }
            for activity in system where category == self.category(of: activity) { add(activity) }
        }
        return result
    }

    /// The row an activity's tile goes in: the support table's for system types.
    public func category(of activity: any Activity) -> ActivityCategory {
        SupportTable.descriptor(for: activity.activityType)?.category ?? activity.activityCategory
    }

    private func unsupportedDetail(kinds: Set<ItemKind>, items: [ShareItem], askedActivity: Bool) -> String {
        if items.isEmpty { return "no items" }
        if askedActivity { return "the activity cannot perform with these items" }
        let takes = ItemKind.allCases.filter(kinds.contains).map(\.columnTitle).joined(separator: ", ")
        var given: [String] = []
        for item in items where !given.contains(item.kind.columnTitle) { given.append(item.kind.columnTitle) }
        return "takes \(takes); items are \(given.joined(separator: ", "))"
    }

    // MARK: - Running the picked activity

    /// Runs `activity` through its lifecycle and reports exactly one result.
    ///
    /// Resolves the items it supports (item sources per type, providers off
    /// the main actor), calls `prepare`, shows its form through `presenter`
    /// when it has one, calls `perform`, and hands the session's outcome to
    /// ``completionWithItemsHandler`` once. Lifecycle violations (no finish,
    /// a second finish) are reported in the result and in ``lastSession``.
    @discardableResult
    public func run(_ activity: any Activity, presenter: (any ActivityFormPresenter)? = nil) async -> ActivityResult {
        var result = await lifecycle(activity, presenter: presenter)
        // What the activity hands back names the originals, not the copies it was given.
        if let itemAdjuster {
            result.returnedItems = result.returnedItems.map(itemAdjuster.original(of:))
            result.warnings += itemAdjuster.warnings
        }
        completionWithItemsHandler?(result)
        return result
    }

    /// The session of the most recent run, for checks of the lifecycle rules.
    public private(set) var lastSession: ActivitySession?

    private func lifecycle(_ activity: any Activity, presenter: (any ActivityFormPresenter)?) async -> ActivityResult {
        let type = activity.activityType
        let verdict = evaluate(activity)
        if let reason = verdict.reason {
            return .failure(type, ActivityError(code: ActivityError.Code.notEligible,
                message: "\(type.rawValue) cannot run: \(reason.rawValue) (\(verdict.detail ?? reason.rawValue))"))
        }
        let items: [ShareItem]
        do {
            // Item providers compute their items now; the front end shows their progress.
            let kinds = supportedKinds(of: activity)
            let providers = activityItems.compactMap { entry -> ItemProvider? in
                guard case .provider(let provider) = entry, provider.placeholder.isSupported(by: kinds) else { return nil }
                return provider
            }
            if let presenter, !providers.isEmpty {
                items = try await presenter.prepare(activity, providers: providers) { try await self.resolvedItems(for: activity) }
            } else {
                items = try await resolvedItems(for: activity)
            }
        } catch ItemProviderError.cancelled {
            return ActivityResult(activityType: type, outcome: .cancelled)
        } catch {
            return .failure(type, ActivityError(code: ActivityError.Code.itemFailed, message: "an item could not be prepared: \(ErrorText.sentence(error))"))
        }
        guard !items.isEmpty else {
            return .failure(type, ActivityError(code: ActivityError.Code.noItems, message: "no item is left for \(type.rawValue) once resolved"))
        }
        do {
            try await activity.prepare(with: items)
        } catch {
            return .failure(type, ActivityError(code: ActivityError.Code.prepareFailed, message: "\(type.rawValue) could not prepare: \(ErrorText.sentence(error))"))
        }
        let subject = subject(for: type)
        if let receiving = activity as? any SubjectReceiving { receiving.offeredSubject = subject }
        if let receiving = activity as? any MetadataReceiving { receiving.offeredMetadata = activityItems.compactMap(\.linkMetadata) }
        if let asking = activity as? any QuestionAsking, let question = asking.questionBeforePerforming,
           let presenter = presenter as? any QuestionPresenter {
            guard let index = await presenter.ask(question), question.options.indices.contains(index) else {
                return ActivityResult(activityType: type, outcome: .cancelled)
            }
            asking.answer(index)
        }
        if let live = activity as? any LiveActivity {
            return await performLive(live, items: items, subject: subject, presenter: presenter as? any LivePresenter)
        }
        guard let form = activity.makeForm() else {
            return await perform(activity, items: items, subject: subject, form: nil)
        }
        guard let presenter else {
            return .failure(type, ActivityError(code: ActivityError.Code.noTerminal,
                message: "\(type.rawValue) needs its form shown, and there is no terminal to show it on"))
        }
        // Each submission is one perform; a failure that loses nothing keeps the form open.
        return await presenter.present(form, for: activity) { [self] submitted in
            let result = await self.perform(activity, items: items, subject: subject, form: submitted)
            if result.outcome == .failed, let error = result.error, error.code != ActivityError.Code.noFinish {
                return .retry(error.message)
            }
            return .finished(result)
        }
    }

    /// Reopens `activity`'s form with values kept from an earlier run
    /// (`--resume`): no items to resolve, no eligibility to check, the same
    /// submissions and exactly one completion.
    @discardableResult
    public func resume(_ activity: any Activity, presenter: any ActivityFormPresenter) async -> ActivityResult {
        let type = activity.activityType
        let result: ActivityResult
        if let form = activity.makeForm() {
            result = await presenter.present(form, for: activity) { [self] submitted in
                let result = await self.perform(activity, items: [], subject: nil, form: submitted)
                if result.outcome == .failed, let error = result.error, error.code != ActivityError.Code.noFinish { return .retry(error.message) }
                return .finished(result)
            }
        } else {
            result = .failure(type, ActivityError(code: ActivityError.Code.noForm, message: "\(type.rawValue) has no form to resume"))
        }
        completionWithItemsHandler?(result)
        return result
    }

    /// Where a live activity's status goes without a screen (`share
    /// --activity airDrop` with no terminal: lines on standard error).
    public var liveStatusWithoutScreen: (@Sendable (LiveStatus) -> Void)?

    /// Performs a live activity on its screen, or with its status handed to
    /// ``liveStatusWithoutScreen`` when there is no screen to show it on.
    private func performLive(_ activity: any LiveActivity, items: [ShareItem], subject: String?,
                             presenter: (any LivePresenter)?) async -> ActivityResult {
        guard let presenter else {
            guard let sink = liveStatusWithoutScreen else {
                return .failure(activity.activityType, ActivityError(code: ActivityError.Code.noTerminal,
                    message: "\(activity.activityType.rawValue) shows its progress as it runs, and there is no screen for it"))
            }
            // Without a screen, Ctrl-C, TERM and HUP stop it the way Esc would, so that what it started ends with it.
            let display = LiveDisplay(sink: sink)
            let interruptsAtStart = Interrupts.watch()
            defer { Interrupts.stopWatching() }
            let watcher = Task {
                while !Task.isCancelled && Interrupts.count.load(ordering: .relaxed) == interruptsAtStart {
                    try? await Task.sleep(for: .milliseconds(50))
                }
                if !Task.isCancelled { display.cancel() }
            }
            defer { watcher.cancel() }
            return await perform(activity, items: items, subject: subject, form: nil) { session in
                await activity.perform(session, display: display)
            }
        }
        return await presenter.presentLive(activity) { [self] display in
            await perform(activity, items: items, subject: subject, form: nil) { session in
                await activity.perform(session, display: display)
            }
        }
    }

    private func perform(_ activity: any Activity, items: [ShareItem], subject: String?, form: SubmittedForm?,
                         body: ((ActivitySession) async -> Void)? = nil) async -> ActivityResult {
        let type = activity.activityType
        let session = ActivitySession(activityType: type, items: items, subject: subject, form: form,
                                      linkMetadata: activityItems.compactMap(\.linkMetadata))
        lastSession = session
        if let body { await body(session) } else { await activity.perform(session) }
        guard let result = session.result else {
            session.recordViolation("perform returned without finish")
            return .failure(type, ActivityError(code: ActivityError.Code.noFinish, message: "\(type.rawValue) ended without reporting an outcome"))
        }
        return result
    }

    /// The subject offered to `type`: `subject` first, then the first item source's.
    public func subject(for type: ActivityType) -> String? {
        if let subject, !subject.isEmpty { return subject }
        return activityItems.lazy.map { $0.subject(for: type) }.first { !$0.isEmpty }
    }

    /// The real items for `activity`: only entries whose placeholder it
    /// supports, resolved for its type, and still of a supported kind; then
    /// changed by ``itemAdjuster``, when there is one.
    public func resolvedItems(for activity: any Activity) async throws -> [ShareItem] {
        let kinds = supportedKinds(of: activity)
        var items: [ShareItem] = []
        for entry in activityItems where entry.placeholder.isSupported(by: kinds) {
            if let item = try await entry.resolve(for: activity.activityType), item.isSupported(by: kinds) {
                items.append(item)
            }
        }
        guard let itemAdjuster else { return items }
        return try await itemAdjuster.adjusted(items, for: activity)
    }
}
