import Foundation
@testable import ShareCore

/// A custom activity for tests that records what the share sheet did to it.
@MainActor
final class RecordingActivity: Activity {
    let activityType: ActivityType
    let activityTitle: String
    let activityCategory: ActivityCategory
    let supportedKinds: Set<ItemKind>
    var availability: Availability = .available
    var acceptsItems: ([ShareItem]) -> Bool = { !$0.isEmpty }
    var form: ActivityForm?
    var prepareError: (any Error)?
    /// What perform does with the session; by default it reports `performed`.
    var body: (ActivitySession) -> Void = { $0.finish(.performed) }

    private(set) var calls: [String] = []
    private(set) var preparedItems: [ShareItem] = []
    private(set) var canPerformItems: [ShareItem] = []

    init(_ type: String, title: String? = nil, category: ActivityCategory = .action,
         kinds: Set<ItemKind> = Set(ItemKind.allCases)) {
        activityType = ActivityType(rawValue: type)
        activityTitle = title ?? type
        activityCategory = category
        supportedKinds = kinds
    }

    func canPerform(with items: [ShareItem]) -> Bool {
        calls.append("canPerform")
        canPerformItems = items
        return acceptsItems(items)
    }

    func prepare(with items: [ShareItem]) async throws {
        calls.append("prepare")
        preparedItems = items
        if let prepareError { throw prepareError }
    }

    func makeForm() -> ActivityForm? {
        calls.append("makeForm")
        return form
    }

    func perform(_ session: ActivitySession) async {
        calls.append("perform")
        body(session)
    }
}

/// A system activity stand-in with a chosen availability.
@MainActor
final class SystemStandIn: Activity {
    let descriptor: SystemActivityDescriptor
    var availability: Availability
    var activityType: ActivityType { descriptor.type }
    var activityTitle: String { descriptor.title }
    var activityCategory: ActivityCategory { descriptor.category }
    // Deliberately wider than the table: eligibility must follow the table, not this.
    var supportedKinds: Set<ItemKind> { Set(ItemKind.allCases) }

    init(_ descriptor: SystemActivityDescriptor, availability: Availability = .available) {
        self.descriptor = descriptor
        self.availability = availability
    }

    func perform(_ session: ActivitySession) async { session.finish(.performed) }

    /// Every row of the table, all available.
    static func all() -> [any Activity] { SupportTable.rows.map { SystemStandIn($0) } }
}

/// Presents a form by submitting scripted values in turn; `nil` cancels.
@MainActor
final class ScriptedPresenter: ActivityFormPresenter {
    let submissions: [[String: String]?]
    private(set) var presented: [ActivityForm] = []
    private(set) var answers: [FormSubmission] = []
    init(_ submissions: [[String: String]?]) { self.submissions = submissions }
    func present(_ form: ActivityForm, for activity: any Activity,
                 submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission) async -> ActivityResult {
        presented.append(form)
        let action = form.action(.primary) ?? .done
        for values in submissions {
            guard let values else { break }
            let answer = await submit(SubmittedForm(action: action.id, values: values))
            answers.append(answer)
            if case .finished(let result) = answer { return result }
        }
        return ActivityResult(activityType: activity.activityType, outcome: .cancelled)
    }
}

enum Fixtures {
    /// A valid 1×1 RGBA PNG.
    static let png: Data = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0x0F, 0x00, 0x00,
        0x01, 0x01, 0x00, 0x05, 0x18, 0xD8, 0x4E, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])

    static let pdf = Data("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)

    /// A fresh temporary directory.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("share-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `data` to `name` in a fresh directory and returns its path.
    static func file(_ name: String, _ data: Data) throws -> String {
        let url = try directory().appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    static let text = ShareItem.text("PIN 4821")
    static let url = ShareItem.url(URL(string: "https://nshipster.com")!)
    static let image = ShareItem.image(FileItem(name: "mustache.png", contentType: "image/png", size: 67, storage: .data(png)))
    static let file = ShareItem.file(FileItem(name: "Q4 Projections.pdf", contentType: "application/pdf", size: 70, storage: .data(pdf)))
}
