import Foundation
import Testing
@testable import ShareCore

@MainActor
struct EligibilityTests {
    private func sheet(_ items: [ShareItem], app: [any Activity] = [], system: [any Activity] = SystemStandIn.all()) -> ShareSheet {
        ShareSheet(activityItems: items.map(ActivityItem.item), applicationActivities: app, systemActivities: system)
    }

    @Test func excludedTypesNeverShowAndSayWhy() {
        let sheet = sheet([Fixtures.text])
        sheet.excludedActivityTypes = [.mail, .copyToPasteboard]
        let verdicts = Dictionary(uniqueKeysWithValues: sheet.evaluations().map { ($0.activity.activityType, $0) })
        #expect(verdicts[.mail]?.reason == .excluded)
        #expect(verdicts[.copyToPasteboard]?.reason == .excluded)
        #expect(verdicts[.message]?.isEligible == true)
        #expect(!sheet.eligibleActivities().contains { $0.activityType == .mail })
    }

    @Test func onlyListExcludesEverythingElse() {
        let sheet = sheet([Fixtures.text])
        sheet.apply(ActivityFilter(only: [.mail, .print]))
        #expect(sheet.eligibleActivities().map(\.activityType) == [.mail])
        let print = sheet.evaluations().first { $0.activity.activityType == .print }
        #expect(print?.reason == .unsupportedItems)
        let message = sheet.evaluations().first { $0.activity.activityType == .message }
        #expect(message?.reason == .excluded)
        #expect(message?.detail == "not in --only")
    }

    @Test func theFirstReasonInSpecOrderIsReported() {
        let unavailable = SystemStandIn(SupportTable.descriptor(for: .addToReadingList)!, availability: .unavailable("not built yet"))
        let excluding = sheet([Fixtures.text], system: [unavailable])
        excluding.excludedActivityTypes = [.addToReadingList]
        #expect(excluding.evaluate(unavailable).reason == .excluded)
        #expect(sheet([Fixtures.text], system: [unavailable]).evaluate(unavailable).reason == .unsupportedItems)
        let verdict = sheet([Fixtures.url], system: [unavailable]).evaluate(unavailable)
        #expect(verdict.reason == .unavailable)
        #expect(verdict.detail == "not built yet")
    }

    @Test func customActivitiesAskCanPerformWithOnlyTheirKinds() {
        let upload = RecordingActivity("com.example.upload", kinds: [.image])
        upload.acceptsItems = { $0.count == 1 }
        let sheet = sheet([Fixtures.text, Fixtures.image, Fixtures.url], app: [upload])
        #expect(sheet.evaluate(upload).isEligible)
        #expect(upload.canPerformItems == [Fixtures.image])

        upload.acceptsItems = { _ in false }
        let verdict = sheet.evaluate(upload)
        #expect(verdict.reason == .unsupportedItems)
        #expect(verdict.detail == "the activity cannot perform with these items")
    }

    @Test func orderIsPinnedThenShareRowThenActionRowApplicationFirst() {
        let appAction = RecordingActivity("com.example.action", category: .action)
        let appShare = RecordingActivity("com.example.share", category: .share)
        let sheet = sheet([Fixtures.url, Fixtures.image], app: [appAction, appShare],
                          system: SystemStandIn.all().reversed())
        sheet.pinnedActivityTypes = [.copyToPasteboard, .mail]
        #expect(sheet.eligibleActivities().map(\.activityType.rawValue) == [
            "copyToPasteboard", "mail",
            "com.example.share", "message", "postToFacebook", "postToFlickr", "postToTencentWeibo",
            "postToTwitter", "postToVimeo", "postToWeibo", "postToMastodon", "postToBluesky",
            "com.example.action", "airDrop", "addToReadingList", "assignToContact", "print", "saveToCameraRoll", "link",
        ])
    }

    @Test func hiddenActivitiesKeepTheirPlaceInEvaluations() {
        let sheet = sheet([Fixtures.text])
        sheet.excludedActivityTypes = [.mail]
        #expect(sheet.evaluations().count == 17)
        #expect(sheet.evaluations().first?.activity.activityType == .mail)
    }

    @Test func anActivityIsHandedOnlyTheItemsItSupports() async throws {
        let sheet = sheet([Fixtures.text, Fixtures.url, Fixtures.image, Fixtures.file])
        let print = sheet.activity(ofType: .print)!
        #expect(try await sheet.resolvedItems(for: print) == [Fixtures.image, Fixtures.file])
        let reading = sheet.activity(ofType: .addToReadingList)!
        #expect(try await sheet.resolvedItems(for: reading) == [Fixtures.url])

        let contact = RecordingActivity("com.example.contact", kinds: [.image])
        let custom = self.sheet([Fixtures.text, Fixtures.image], app: [contact])
        await custom.run(contact)
        #expect(contact.preparedItems == [Fixtures.image])
    }

    @Test func activityTypeNamesAreCheckedAndErrorsListTheValidOnes() throws {
        #expect(try ActivityType(parsing: "mail") == .mail)
        #expect(try ActivityType(parsing: "com.nshipster.mustachify").rawValue == "com.nshipster.mustachify")
        #expect(try ActivityType(parsing: "com.nshipster.mustachify").isSystem == false)
        for bad in ["Mail", "mustachify", "", "com..x", ".com.x", "1com.x", "com.x y", "com.x;rm"] {
            #expect(throws: ActivityTypeError(word: bad)) { try ActivityType(parsing: bad) }
        }
        let message = ActivityTypeError(word: "mial").description
        #expect(message.contains("'mial'"))
        for type in ActivityType.system { #expect(message.contains(type.rawValue)) }
    }
}

/// A system activity narrower than its row: it takes URLs only, and says so.
@MainActor
private final class URLOnlyStandIn: SubjectReceiving {
    let activityType = ActivityType.postToFacebook
    let activityTitle = "Facebook"
    var offeredSubject: String?
    private(set) var asked: [[ShareItem]] = []
    private(set) var subjectAtForm: String?

    func refusal(of items: [ShareItem]) -> String? {
        asked.append(items)
        return items.contains { $0.kind == .url } ? nil : "takes one URL; this share has none"
    }

    func makeForm() -> ActivityForm? {
        subjectAtForm = offeredSubject
        return nil
    }

    func perform(_ session: ActivitySession) async { session.finish(.performed) }
}

@MainActor
struct NarrowingTests {
    @Test func aNarrowingRefusalIsUnsupportedItemsWithItsWords() {
        let narrow = URLOnlyStandIn()
        let sheet = ShareSheet(activityItems: [.item(Fixtures.text)], systemActivities: [narrow])
        let verdict = sheet.evaluate(narrow)
        #expect(verdict.reason == .unsupportedItems)
        #expect(verdict.detail == "takes one URL; this share has none")
        // Asked with the items of the row's kinds only (Facebook's row takes String, URL, Image; not Files).
        let mixed = ShareSheet(activityItems: [.item(Fixtures.url), .item(Fixtures.file)], systemActivities: [narrow])
        #expect(mixed.evaluate(narrow).isEligible)
        #expect(narrow.asked.last == [Fixtures.url])
    }

    @Test func exclusionComesBeforeTheNarrowing() {
        let narrow = URLOnlyStandIn()
        let sheet = ShareSheet(activityItems: [.item(Fixtures.text)], systemActivities: [narrow])
        sheet.excludedActivityTypes = [.postToFacebook]
        #expect(sheet.evaluate(narrow).reason == .excluded)
    }

    @Test func theSubjectOfferedReachesTheActivityBeforeItsForm() async {
        let narrow = URLOnlyStandIn()
        let sheet = ShareSheet(activityItems: [.item(Fixtures.url)], systemActivities: [narrow])
        sheet.subject = "Read this"
        let result = await sheet.run(narrow)
        #expect(result.outcome == .performed)
        #expect(narrow.subjectAtForm == "Read this")
    }
}
