// Example (seed 000): a custom mail activity fed by an item provider.
//
//   example-custom-mail [--config PATH] [SHARE-OPTIONS…]
//
// The provider computes the report only when "Mail Report" is picked, and
// only for that activity: a dictionary of subject, message and attachment
// (carried as JSON text, since items are text, URLs, images or files).
// Every other activity gets a one-line summary. Picking "Mail Report"
// opens the compose screen prefilled from the dictionary.
import Foundation
import ShareActivities
import ShareCLI
import ShareCore
import ShareMail

let reportType = ActivityType(rawValue: "com.example.report-mail")

/// The report, computed lazily: a dictionary for Mail Report, a summary otherwise.
func makeReportProvider() -> ItemProvider {
    ItemProvider(placeholder: .text("Q4 report"), subject: "Q4 report") { context in
        guard context.activityType == reportType else { return .text("Q4 report: revenue up 12%") }
        context.reportProgress(0.3)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("Q4 report.csv")
        try "quarter,revenue\nQ3,100\nQ4,112\n".write(to: file, atomically: true, encoding: .utf8)
        try context.checkCancellation()
        context.reportProgress(1)
        let dictionary = ["subject": "Q4 report", "message": "Hello,\n\nthe Q4 numbers are attached.\n", "attachment": file.path]
        let data = try JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])
        return .text(String(decoding: data, as: UTF8.self))
    }
}

/// Mail with its content from the provider's dictionary: the compose screen, prefilled.
@MainActor
final class ReportMailActivity: Activity, FormValidating {
    private let mail: MailActivity
    private var dictionary: [String: String] = [:]

    init(settings: MailSettings) {
        mail = MailActivity(settings: settings)
    }

    var activityType: ActivityType { reportType }
    var activityTitle: String { "Mail Report" }
    var activityImage: ActivityImage { .textArt(["┌─✉─┐", "│ Q4│", "└───┘"]) }
    var activityCategory: ActivityCategory { .share }
    var supportedKinds: Set<ItemKind> { [.string] }

    func prepare(with items: [ShareItem]) async throws {
        for case .text(let text) in items {
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] { dictionary = object }
        }
        try await mail.prepare(with: [])
    }

    func makeForm() -> ActivityForm? {
        guard var form = mail.makeForm() else { return nil }
        form.title = "Mail Report"
        for index in form.fields.indices {
            switch form.fields[index].id {
            case "subject": form.fields[index].initialValue = dictionary["subject"] ?? ""
            case "body": form.fields[index].initialValue = dictionary["message"] ?? ""
            case "attachments": form.fields[index].initialValue = dictionary["attachment"] ?? ""
            default: break
            }
        }
        return form
    }

    func perform(_ session: ActivitySession) async {
        await mail.perform(session)
    }

    // Mail's checks: bad addresses marked, an empty subject asked about.
    func problem(in field: FormField, value: String) -> String? { mail.problem(in: field, value: value) }
    func warnings(before action: FormAction, values: [String: String]) -> [String] {
        mail.warnings(before: action, values: values)
    }
}

signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
let configPath = arguments.firstIndex(of: "--config").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let settings: MailSettings
do {
    settings = try MailActivity(context: ShareCommand.activityContext(configPath: configPath)).settings
} catch {
    FileHandle.standardError.write(Data("example-custom-mail: \(error)\n".utf8))
    exit(2)
}
exit(await ShareCommand.main(rawArguments: arguments.map { Array($0.utf8) }, console: .process,
                             applicationActivities: [ReportMailActivity(settings: settings)],
                             activityItems: [.provider(makeReportProvider())]))
