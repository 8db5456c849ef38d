import Foundation
import ShareCore
import ShareMail

/// Mail: the terminal `MFMailComposeViewController` as an activity.
///
/// Strings and URLs go into the body, images and files are attached, a
/// `mailto:` URL fills To, Cc, Bcc, Subject and body (never attachments),
/// and the subject offered for `mail` becomes the subject. With `--send`
/// the message goes at once; with `--save-draft` it is saved; otherwise
/// the compose screen shows Mail's form.
@MainActor
public final class MailActivity: Activity {
    /// What the command line asked for.
    public let request: MailRequest
    /// Identities, transport and folders.
    public let settings: MailSettings
    private var items: [ShareItem] = []

    /// Creates the Mail activity.
    public init(request: MailRequest = MailRequest(), settings: MailSettings) {
        self.request = request
        self.settings = settings
    }

    public var activityType: ActivityType { .mail }
    public var activityTitle: String { "Mail" }
    public var activityImage: ActivityImage { .glyph("✉") }
    public var activityCategory: ActivityCategory { .share }
    public var supportedKinds: Set<ItemKind> { [.string, .url, .image, .file] }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    public func makeForm() -> ActivityForm? {
        guard request.mode == .compose else { return nil }
        let composer = try? makeComposer(subject: nil)
        return ActivityForm(title: "New Message", fields: [
            FormField(id: "from", label: "From", kind: .choice(settings.identities.map(\.displayString))),
            FormField(id: "to", label: "To", kind: .addressList, initialValue: composer?.toRecipients.joined(separator: ", ") ?? ""),
            FormField(id: "cc", label: "Cc", kind: .addressList, initialValue: composer?.ccRecipients.joined(separator: ", ") ?? ""),
            FormField(id: "bcc", label: "Bcc", kind: .addressList, initialValue: composer?.bccRecipients.joined(separator: ", ") ?? ""),
            FormField(id: "subject", label: "Subject", kind: .text, initialValue: composer?.subject ?? ""),
            FormField(id: "body", label: "", kind: .multilineText, initialValue: composer?.body ?? ""),
            FormField(id: "attachments", label: "Attachments", kind: .attachmentList),
        ])
    }

    public func perform(_ session: ActivitySession) async {
        let message: MailMessage
        do {
            message = try makeComposer(subject: session.subject).makeMessage(identities: settings.identities)
        } catch {
            session.fail(ActivityError(code: error.kind == .invalidInput ? ActivityResult.invalidInputCode : error.kind.rawValue,
                                       message: error.message))
            return
        }
        let mailer = Mailer(settings: settings)
        let outcome = request.mode == .saveDraft ? mailer.saveDraft(message) : mailer.send(message)
        switch outcome {
        case .sent:
            session.finish(.sent)
        case .saved(let path):
            session.finish(.saved, error: ActivityError(code: "saved", message: "the message is saved in drafts: \(path)"))
        case .queued(let path, let reason):
            session.finish(.queued, error: ActivityError(code: "queued", message: "\(reason) (queued as \(path))"))
        case .failed(let error, let draft):
            let kept = draft.map { "; the message is kept in drafts: \($0)" } ?? ""
            session.fail(ActivityError(code: error.kind == .invalidInput ? ActivityResult.invalidInputCode : error.kind.rawValue,
                                       message: error.message + kept))
        }
    }

    /// The composer filled from the request, the items and the subject.
    func makeComposer(subject: String?) throws(MailError) -> MailComposer {
        var composer = MailComposer()
        composer.toRecipients = request.to
        composer.ccRecipients = request.cc
        composer.bccRecipients = request.bcc
        composer.preferredSendingAddress = request.from
        var bodyParts: [String] = []
        var mailtoSubject: String?
        for item in items {
            switch item {
            case .text(let text): bodyParts.append(text)
            case .url(let url) where url.scheme?.lowercased() == "mailto":
                let mailto: MailtoURL
                do { mailto = try MailtoURL(parsing: url.absoluteString) } catch {
                    throw MailError(.invalidInput, error.description)
                }
                composer.toRecipients += mailto.to
                composer.ccRecipients += mailto.cc
                composer.bccRecipients += mailto.bcc
                if mailtoSubject == nil { mailtoSubject = mailto.subject }
                if let body = mailto.body { bodyParts.append(body) }
            case .url(let url): bodyParts.append(url.absoluteString)
            case .image(let file), .file(let file): try attach(file, to: &composer)
            }
        }
        composer.subject = subject ?? mailtoSubject ?? ""
        let paragraphs = bodyParts.map { String($0.reversed().drop { $0.isNewline }.reversed()) }
        composer.setMessageBody(paragraphs.joined(separator: "\n\n"), isHTML: request.html)
        return composer
    }

    private func attach(_ file: FileItem, to composer: inout MailComposer) throws(MailError) {
        switch file.storage {
        case .path(let url): try composer.addAttachment(file: url, mimeType: file.contentType, fileName: file.name)
        case .data(let data): try composer.addAttachmentData(data, mimeType: file.contentType, fileName: file.name)
        }
    }
}
