import ShareSupport

/// Checks that an activity keeps the lifecycle rules, for its author's tests.
///
/// Runs `activity` through a share sheet with `items` (twice, since a
/// sheet may reuse an activity), submitting `formValues` when it has a
/// form, and returns every rule it broke, in words; an empty list means
/// it conforms:
///
/// - its type is a reverse-DNS name and its title is not empty;
/// - `canPerform` accepts the items it is meant for;
/// - its form, if any, has fields with distinct ids;
/// - `perform` reports exactly one outcome (no second `finish`, no return
///   without one), on every run.
///
/// ```swift
/// @Test @MainActor func mustachifyConforms() async {
///     #expect(await checkActivityConformance(Mustachify(), items: [.item(.image(photo))]).isEmpty)
/// }
/// ```
@MainActor
public func checkActivityConformance(_ activity: any Activity, items: [ActivityItem],
                                     formValues: [String: String] = [:]) async -> [String] {
    var problems: [String] = []
    let type = activity.activityType
    if type.isSystem || !ActivityType.isReverseDNS(type.rawValue) {
        problems.append("the type '\(type.rawValue)' is not a reverse-DNS name such as com.example.upload")
    }
    if activity.activityTitle.trimmingWhitespace(includingNewlines: true).isEmpty { problems.append("the title is empty") }
    let sheet = ShareSheet(activityItems: items, applicationActivities: [activity], systemActivities: [])
    let verdict = sheet.evaluate(activity)
    if let reason = verdict.reason {
        problems.append("it does not take these items: \(reason.rawValue) (\(verdict.detail ?? ""))")
        return problems
    }
    if let form = activity.makeForm() {
        let ids = form.fields.map(\.id)
        if Set(ids).count != ids.count { problems.append("its form has fields with the same id") }
    }
    final class Submitter: ActivityFormPresenter {
        let values: [String: String]
        init(_ values: [String: String]) { self.values = values }
        func present(_ form: ActivityForm, for activity: any Activity,
                     submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission) async -> ActivityResult {
            let action = form.action(.primary) ?? form.actions.first ?? .done
            switch await submit(SubmittedForm(action: action.id, values: values)) {
            case .finished(let result): return result
            case .retry(let message):
                return .failure(activity.activityType, ActivityError(code: ActivityError.Code.retry, message: message))
            }
        }
    }
    for run in 1...2 {
        var completions = 0
        sheet.completionWithItemsHandler = { _ in completions += 1 }
        let result = await sheet.run(activity, presenter: Submitter(formValues))
        if completions != 1 { problems.append("run \(run): \(completions) completions instead of one") }
        if let violations = sheet.lastSession?.violations {
            problems += violations.map { "run \(run): \($0)" }
        }
        if result.error?.code == ActivityError.Code.noFinish, sheet.lastSession?.violations.isEmpty != false {
            problems.append("run \(run): perform returned without reporting an outcome")
        }
    }
    return problems
}
