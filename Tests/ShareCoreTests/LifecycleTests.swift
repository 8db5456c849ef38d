import Foundation
import Testing
@testable import ShareCore

private struct Boom: Error, CustomStringConvertible { var description: String { "disk on fire" } }

@MainActor
struct LifecycleTests {
    private func sheet(_ activity: RecordingActivity, items: [ActivityItem] = [.item(Fixtures.text)]) -> ShareSheet {
        ShareSheet(activityItems: items, applicationActivities: [activity], systemActivities: [])
    }

    @Test func theLifecycleRunsInOrderAndReportsOnce() async {
        let activity = RecordingActivity("com.example.note")
        let sheet = sheet(activity)
        var reported: [ActivityResult] = []
        sheet.completionWithItemsHandler = { reported.append($0) }
        let result = await sheet.run(activity)
        #expect(activity.calls == ["canPerform", "prepare", "makeForm", "perform"])
        #expect(result.outcome == .performed)
        #expect(result.completed)
        #expect(reported == [result])
    }

    @Test func aSecondFinishIsIgnoredAndRecorded() async {
        let activity = RecordingActivity("com.example.twice")
        activity.body = { session in
            session.finish(.sent)
            session.fail(ActivityError(code: "late", message: "too late"))
        }
        let sheet = sheet(activity)
        var count = 0
        sheet.completionWithItemsHandler = { _ in count += 1 }
        let result = await sheet.run(activity)
        #expect(result.outcome == .sent)
        #expect(result.error == nil)
        #expect(count == 1)
        #expect(sheet.lastSession?.violations == ["finished twice: first sent, then failed"])
    }

    @Test func performWithoutFinishFailsInsteadOfHanging() async {
        let activity = RecordingActivity("com.example.silent")
        activity.body = { _ in }
        let sheet = sheet(activity)
        let result = await sheet.run(activity)
        #expect(result.outcome == .failed)
        #expect(result.error?.code == "no-finish")
        #expect(sheet.lastSession?.violations == ["perform returned without finish"])
    }

    @Test func aPrepareErrorFailsTheRunWithoutPerforming() async {
        let activity = RecordingActivity("com.example.fragile")
        activity.prepareError = Boom()
        let result = await sheet(activity).run(activity)
        #expect(result.outcome == .failed)
        #expect(result.error?.code == "prepare-failed")
        #expect(result.error?.message.contains("disk on fire") == true)
        #expect(!activity.calls.contains("perform"))
    }

    @Test func aFormIsShownBeforePerformAndItsValuesReachTheSession() async {
        let activity = RecordingActivity("com.example.post")
        activity.form = ActivityForm(title: "Post", fields: [FormField(id: "body", label: "Body", kind: .multilineText)])
        var seen: [String: String] = [:]
        activity.body = { session in seen = session.formValues; session.finish(.performed) }
        let presenter = ScriptedPresenter([["body": "hello"]])
        let result = await sheet(activity).run(activity, presenter: presenter)
        #expect(presenter.presented.map(\.title) == ["Post"])
        #expect(seen == ["body": "hello"])
        #expect(result.outcome == .performed)
    }

    @Test func cancellingTheFormCancelsTheRun() async {
        let activity = RecordingActivity("com.example.post")
        activity.form = ActivityForm(title: "Post", fields: [])
        let result = await sheet(activity).run(activity, presenter: ScriptedPresenter([nil]))
        #expect(result.outcome == .cancelled)
        #expect(!result.completed)
        #expect(result.exitCode == 1)
        #expect(!activity.calls.contains("perform"))
    }

    @Test func aFailedSubmissionKeepsTheFormOpenUntilOneSucceeds() async {
        let activity = RecordingActivity("com.example.post")
        activity.form = ActivityForm(title: "Post", fields: [FormField(id: "to", label: "To", kind: .addressList)])
        activity.body = { session in
            if session.formValues["to"] == "bad" {
                session.fail(ActivityError(code: "invalid-input", message: "To: invalid address 'bad'"))
            } else {
                session.finish(.sent)
            }
        }
        let presenter = ScriptedPresenter([["to": "bad"], ["to": "kim@example.com"]])
        var completions = 0
        let sheet = sheet(activity)
        sheet.completionWithItemsHandler = { _ in completions += 1 }
        let result = await sheet.run(activity, presenter: presenter)
        #expect(presenter.answers == [.retry("To: invalid address 'bad'"), .finished(result)])
        #expect(result.outcome == .sent)
        #expect(completions == 1)
        #expect(activity.calls.filter { $0 == "perform" }.count == 2)
    }

    @Test func aFormWithoutAPresenterFailsClearly() async {
        let activity = RecordingActivity("com.example.post")
        activity.form = ActivityForm(title: "Post", fields: [])
        let result = await sheet(activity).run(activity, presenter: nil)
        #expect(result.error?.code == "no-terminal")
    }

    @Test func anIneligibleActivityIsNotRun() async {
        let activity = RecordingActivity("com.example.images", kinds: [.image])
        let result = await sheet(activity).run(activity)
        #expect(result.outcome == .failed)
        #expect(result.error?.code == "not-eligible")
        #expect(!activity.calls.contains("prepare"))
    }

    @Test func theSubjectComesFromTheSheetThenItemSources() async {
        let activity = RecordingActivity("com.example.mailer")
        var subject: String?
        activity.body = { session in subject = session.subject; session.finish(.sent) }
        let source = StaticSource(item: Fixtures.text, subject: "From the source")
        let sheet = sheet(activity, items: [.source(source)])
        await sheet.run(activity)
        #expect(subject == "From the source")
        sheet.subject = "From --subject"
        await sheet.run(activity)
        #expect(subject == "From --subject")
    }

    @Test func completedIsTrueOnlyForPerformedAndSent() {
        for outcome in ActivityOutcome.allCases {
            let result = ActivityResult(activityType: .mail, outcome: outcome)
            #expect(result.completed == (outcome == .performed || outcome == .sent), "\(outcome)")
            let expectedExit: Int32 = switch outcome {
            case .performed, .sent: 0
            case .saved, .queued, .cancelled: 1
            case .failed: 3
            }
            #expect(result.exitCode == expectedExit, "\(outcome)")
            #expect((result.error != nil) == (outcome == .failed), "\(outcome)")
        }
    }

    @Test func theCompletionJSONHasTheContractShape() throws {
        let sent = ActivityResult(activityType: .mail, outcome: .sent)
        #expect(sent.json.serialized
            == #"{"activityType":"mail","completed":true,"outcome":"sent","returnedItems":[],"error":null}"#)
        let failed = ActivityResult.failure(.print, ActivityError(code: "lp-failed", message: "lp said \"no\"\n"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(failed.json.serialized.utf8)) as? [String: Any])
        #expect(object["completed"] as? Bool == false)
        #expect(object["outcome"] as? String == "failed")
        let error = try #require(object["error"] as? [String: String])
        #expect(error == ["code": "lp-failed", "message": "lp said \"no\"\n"])
        let returned = ActivityResult(activityType: ActivityType(rawValue: "com.example.x"), outcome: .performed,
                                      returnedItems: [.text("박지성"), Fixtures.url])
        #expect(returned.json.serialized.contains(#""returnedItems":[{"kind":"string","value":"박지성"},{"kind":"url","value":"https://nshipster.com"}]"#))
    }
}

/// An item source with a fixed item and subject.
final class StaticSource: ActivityItemSource {
    let item: ShareItem
    let subjectText: String
    let metadata: LinkMetadata?
    init(item: ShareItem, subject: String = "", metadata: LinkMetadata? = nil) {
        self.item = item
        self.subjectText = subject
        self.metadata = metadata
    }
    func placeholderItem() -> ShareItem { item }
    func item(for activityType: ActivityType) -> ShareItem? { item }
    func subject(for activityType: ActivityType) -> String { subjectText }
    func linkMetadata() -> LinkMetadata? { metadata }
}

@MainActor
struct ConformanceTests {
    @Test func aWellBehavedActivityConforms() async {
        let activity = RecordingActivity("com.example.fine")
        #expect(await checkActivityConformance(activity, items: [.item(Fixtures.text)]) == [])
    }

    @Test func brokenLifecyclesAreReported() async {
        let twice = RecordingActivity("com.example.twice")
        twice.body = { session in session.finish(.performed); session.finish(.performed) }
        let problems = await checkActivityConformance(twice, items: [.item(Fixtures.text)])
        #expect(problems == ["run 1: finished twice: first performed, then performed",
                             "run 2: finished twice: first performed, then performed"])

        let silent = RecordingActivity("com.example.silent")
        silent.body = { _ in }
        #expect(await checkActivityConformance(silent, items: [.item(Fixtures.text)])
            == ["run 1: perform returned without finish", "run 2: perform returned without finish"])

        let misnamed = RecordingActivity("upload", title: " ")
        let named = await checkActivityConformance(misnamed, items: [.item(Fixtures.text)])
        #expect(named.contains("the type 'upload' is not a reverse-DNS name such as com.example.upload"))
        #expect(named.contains("the title is empty"))

        let picky = RecordingActivity("com.example.images", kinds: [.image])
        #expect(await checkActivityConformance(picky, items: [.item(Fixtures.text)]).first?.hasPrefix("it does not take these items") == true)
    }

    @Test func formsAreSubmittedWithTheGivenValues() async {
        let activity = RecordingActivity("com.example.form")
        activity.form = ActivityForm(title: "Post", fields: [FormField(id: "body", label: "Body", kind: .multilineText)])
        var seen: [String] = []
        activity.body = { session in seen.append(session.formValues["body"] ?? ""); session.finish(.performed) }
        #expect(await checkActivityConformance(activity, items: [.item(Fixtures.text)], formValues: ["body": "hi"]) == [])
        #expect(seen == ["hi", "hi"])
    }
}
