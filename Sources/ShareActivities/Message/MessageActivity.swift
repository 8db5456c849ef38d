import FoundationEssentials
import ShareCore
import ShareSupport

/// Message: the items sent to people over XMPP.
///
/// Text and URLs become one chat message; files and images are uploaded
/// through the server's HTTP File Upload and sent as links. The recipients
/// come from `--to` (then no form is shown) or from the form, which also
/// edits the text and the files. The outcome is `sent` once the server
/// took the messages, with their ids as the returned items; a recipient
/// the server refused is named in a warning (the others got it, so a
/// retry would send it twice).
@MainActor
public final class MessageActivity: SystemActivity, FormValidating, RecipientsReceiving {
    public nonisolated static var systemType: ActivityType { .message }

    private let settings: MessageSettings
    private let recipients: [String]
    /// Recipients offered before the form opens (a person picked in the people row).
    public var offeredRecipients: [String] = []
    private let detector: any ContentTypeDetector
    /// The vCard folder whose XMPP addresses the form's To offers.
    private let contactFolder: String
    private var items: [ShareItem] = []
    /// What the form's To offers (read once, when the form is made).
    private var offered: [String] = []
    /// Link's places, for files the server or a webhook cannot take.
    private let links: LinkAccess
    private let environment: [String: String]

    /// Message for the context's `[message]` section and command line.
    public init(context: ActivityContext) throws(ConfigurationError) {
        settings = try MessageActivity.settings(context.section("message"), webhooks: context.subsections("message"),
                                                stateHome: context.locations.stateHome, environment: context.environment)
        environment = context.environment
        recipients = context.request(for: MessageActivity.self).recipients
        links = LinkAccess(context: context, placeName: nil)
        detector = context.detector
        contactFolder = try context.section("contacts").path("vcard-dir", environment: context.environment)
            ?? context.locations.home + "/.contacts"
    }

    public var activityImage: ActivityImage { .glyph("✆") }

    /// Available when an XMPP account or a webhook is configured.
    public var availability: Availability {
        settings.account == nil && settings.webhooks.isEmpty && settings.matrix.isEmpty
            ? .unavailable("no messaging account: set jid and password-command in the [message] section of the config file,"
                           + " or a webhook in a [message.NAME] section")
            : .available
    }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    // MARK: - The form

    static let send = FormAction(id: "send", label: Localization.text("Send"), progress: Localization.text("Sending…"))

    /// Recipients, text and files; none when `--to` named the recipients.
    public func makeForm() -> ActivityForm? {
        guard recipients.isEmpty else { return nil }
        var attachments: [AttachedFile] = []
        for file in items.compactMap(\.fileItem) {
            guard let path = file.path?.path ?? MailActivity.materialize(file) else { continue }
            attachments.append(AttachedFile.current(atPath: path) ?? AttachedFile(path: path, stamp: nil))
        }
        var body = FormField(id: "body", label: Localization.text("Message"), kind: .multilineText, initialValue: MessageActivity.text(of: items))
        body.placeholder = Localization.text("Write your message here")
        var to = FormField(id: "to", label: Localization.text("To"), kind: .addressList,
                           initialValue: offeredRecipients.joined(separator: ", "))
        offered = suggestions()
        to.suggestions = offered
        return ActivityForm(title: localizedActivityTitle, fields: [
            to,
            body,
            FormField(id: "attachments", label: Localization.text("Files"), kind: .attachmentList, initialValue: AttachedFile.value(attachments)),
        ], actions: [MessageActivity.send])
    }

    public func problem(in field: FormField, value: String) -> String? {
        guard field.id == "to" else { return nil }
        let entries = MessageActivity.recipientList(value)
        let typing = value.trimmingWhitespace().hasSuffix(",") ? nil : entries.last?.lowercased()
        let bad = entries.enumerated().filter { index, recipient in
            // What is still being typed is not wrong while something offered holds it.
            if index == entries.count - 1, let typing, offered.contains(where: { $0.lowercased().contains(typing) }) { return false }
            return !XMPPAddress.isBareJID(recipient) && !settings.webhooks.contains { $0.name == recipient }
        }.map(\.element)
        return bad.first.map {
            settings.webhooks.isEmpty ? Localization.text("'%@' is not a JID (name@example.com)", $0)
                : Localization.text("'%@' is not a JID (name@example.com) nor a webhook", $0)
        }
    }

    /// What To offers as one types: the contacts' XMPP addresses (with an
    /// account to send from) and the webhooks, each as it is written in To.
    func suggestions() -> [String] {
        var offered: [String] = []
        if settings.account != nil {
            for contact in ContactFolder(path: contactFolder).contacts() {
                for jid in contact.jids where XMPPAddress.isBareJID(jid) {
                    offered.append(contact.fullName.isEmpty ? jid : "\(contact.fullName.filter { $0 != "<" && $0 != ">" && $0 != "," }) <\(jid)>")
                }
            }
        }
        return offered + settings.webhooks.map(\.name)
    }

    public func refusal(before action: FormAction, values: [String: String]) -> String? {
        MessageActivity.recipientList(values["to"] ?? "").isEmpty ? Localization.text("No recipient: add one in To") : nil
    }

    public func warnings(before action: FormAction, values: [String: String]) -> [String] { [] }

    /// Text and URL items, one a line: the chat message.
    nonisolated static func text(of items: [ShareItem]) -> String {
        items.compactMap { item -> String? in
            switch item {
            case .text(let text): text
            case .url(let url): url.absoluteString
            case .image, .file: nil
            }
        }.joined(separator: "\n")
    }

    /// The recipients of a comma separated list: JIDs and webhook names,
    /// each alone or as `Name <jid>` (as To's suggestions write them).
    nonisolated static func recipientList(_ text: String) -> [String] {
        text.split { $0 == "," || $0 == "\n" }.compactMap { entry in
            let trimmed = entry.trimmingWhitespace()
            if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
                return String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]).trimmingWhitespace()
            }
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        let fromForm = !session.formValues.isEmpty
        let to = fromForm ? MessageActivity.recipientList(session.formValues["to"] ?? "") : recipients.flatMap(MessageActivity.recipientList)
        var text = fromForm ? (session.formValues["body"] ?? "") : MessageActivity.text(of: session.items)
        guard !to.isEmpty else {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput, message: "no recipient: give --to JID or a webhook's name"))
            return
        }
        var uploads: [XMPPDelivery.Upload]
        let route: Route
        var places: LinkShipment?
        do throws(ActivityError) {
            uploads = try files(session, fromForm: fromForm)
            route = try self.route(to)
            if links.canSend {
                do throws(LinkFailure) { places = try links.shipment(display: session.display, heading: localizedActivityTitle, showsNews: fromForm) } catch {
                    throw error.activityError
                }
            }
            // What a webhook cannot take is known now: refused before anyone gets anything, or sent as links.
            if let refusal = route.webhooks.lazy.compactMap({ $0.refusal(of: uploads) }).first, places == nil {
                throw ActivityError(code: ActivityError.Code.invalidInput, message: refusal + " (a [link.NAME] place would send it as a link)")
            }
        } catch {
            session.fail(error)
            return
        }
        var linked: [String] = []
        let refused = uploads.filter { file in route.webhooks.contains { !$0.refused([file]).isEmpty } }
        if let places, !refused.isEmpty {
            let shipped = await Task.detached { () -> Result<LinkShipment.Delivery, XMPPFailure> in
                do throws(XMPPFailure) { return .success(try XMPPDelivery.ship(refused, through: places)) } catch { return .failure(error) }
            }.value
            switch shipped {
            case .success(let delivery):
                text += (text.isEmpty ? "" : "\n\n") + delivery.files.map { "\($0.name): \($0.link.absoluteString)" }.joined(separator: "\n")
                uploads.removeAll { file in refused.contains { $0.path == file.path } }
                linked.append("\(refused.map(\.name).joined(separator: ", ")) went as \(delivery.files.count == 1 ? "a link" : "links") through \(delivery.place.name)")
            case .failure(let failure):
                session.fail(ActivityError(code: ActivityError.Code.sendFailed, message: failure.message))
                return
            }
        }
        guard !text.trimmingWhitespace(includingNewlines: true).isEmpty || !uploads.isEmpty else {
            session.fail(ActivityError(code: ActivityError.Code.invalidInput, message: "nothing to send: the message is empty and has no files"))
            return
        }
        let settings = self.settings
        let urls = session.items.compactMap { item -> String? in if case .url(let url) = item { url.absoluteString } else { nil } }
        let subject = session.subject, message = text, files = uploads, environment = self.environment
        let (delivered, xmppLinked) = await Task.detached {
            MessageActivity.deliver(route, subject: subject, text: message, urls: urls, files: files, settings: settings, places: places,
                                    environment: environment)
        }.value
        linked += xmppLinked.map { [$0] } ?? []
        let reached = delivered.filter { $0.refusal == nil }
        // One line per reason, naming everyone it stopped (a connection that failed stops all the JIDs at once).
        var reasons: [(refusal: String, recipients: [String])] = []
        for refused in delivered {
            guard let refusal = refused.refusal else { continue }
            if let index = reasons.firstIndex(where: { $0.refusal == refusal }) {
                reasons[index].recipients.append(refused.recipient)
            } else {
                reasons.append((refusal, [refused.recipient]))
            }
        }
        let words = reasons.map { "\($0.recipients.joined(separator: ", ")): \($0.refusal)" }
        guard !reached.isEmpty else {
            let configuration = delivered.contains { $0.refusal?.hasPrefix("[message") == true }
            if delivered.allSatisfy(\.encrypted) {
                session.fail(ActivityError(code: ActivityError.Code.encryptedRoom, message: words.joined(separator: "; ")))
                return
            }
            // One reason for all: said once, naming the webhook it came from (an account's reason names the account).
            let webhook = reasons.count == 1 && route.webhooks.contains { $0.name == reasons[0].recipients.first }
            session.fail(ActivityError(code: configuration ? ActivityError.Code.configuration : ActivityError.Code.sendFailed,
                                       message: reasons.count == 1 && delivered.allSatisfy(\.sessionFailed)
                                           ? (webhook && !configuration ? words[0] : reasons[0].refusal)
                                           : "nobody got the message: " + words.joined(separator: "; ")))
            return
        }
        // A Discord or Telegram message can be deleted again (`share --undo`); an XMPP one cannot.
        let sentAt = Date()
        let undo = reached.flatMap { delivered -> [UndoAction] in
            if let room = delivered.room, let account = settings.matrix.first {
                return delivered.messageIDs.map { MatrixUndo.action(for: account, room: room, event: $0) }
            }
            guard let hook = route.webhooks.first(where: { $0.name == delivered.recipient }) else { return [] }
            return delivered.messageIDs.compactMap { ChatUndo.action(for: hook, id: $0, sent: sentAt) }
        }
        session.finish(.sent, returnedItems: reached.flatMap(\.messageIDs).map { .text($0) },
                       warnings: linked + words.map { "not delivered to \($0)" }, recipients: reached.map(\.recipient), undo: undo)
    }

    /// Where a share goes: XMPP addresses, webhooks by name, Matrix rooms and people.
    struct Route: Sendable {
        var jids: [String] = []
        var webhooks: [Webhook] = []
        var matrix: [String] = []
    }

    /// The recipients sorted into JIDs and webhooks; a name that is
    /// neither is refused before anything is sent.
    func route(_ recipients: [String]) throws(ActivityError) -> Route {
        var route = Route()
        for recipient in recipients {
            if let hook = settings.webhooks.first(where: { $0.name == recipient }) {
                if !route.webhooks.contains(hook) { route.webhooks.append(hook) }
            } else if MatrixAccount.isAddress(recipient) {
                guard !settings.matrix.isEmpty else {
                    throw ActivityError(code: ActivityError.Code.configuration,
                                        message: "\(recipient) is a Matrix address, and no Matrix account is configured ([message.NAME] type = matrix)")
                }
                if !route.matrix.contains(recipient) { route.matrix.append(recipient) }
            } else if XMPPAddress.isBareJID(recipient) {
                guard settings.account != nil else {
                    throw ActivityError(code: ActivityError.Code.configuration,
                                        message: "\(recipient) is an XMPP address, and no XMPP account is configured ([message] jid)")
                }
                if !route.jids.contains(recipient) { route.jids.append(recipient) }
            } else {
                let names = settings.webhooks.map(\.name)
                throw ActivityError(code: ActivityError.Code.invalidInput,
                                    message: "'\(String(String.UnicodeScalarView(recipient.unicodeScalars.prefix(80))))' is not a JID"
                                        + (names.isEmpty ? "; a recipient looks like name@example.com"
                                            : " nor a webhook (\(names.joined(separator: ", ")))"))
            }
        }
        return route
    }

    /// The files to upload: the form's attachments, or the file items.
    private func files(_ session: ActivitySession, fromForm: Bool) throws(ActivityError) -> [XMPPDelivery.Upload] {
        var paths: [String] = []
        if fromForm {
            paths = AttachedFile.list(session.formValues["attachments"] ?? "").map(\.path)
        } else {
            for file in session.items.compactMap(\.fileItem) {
                guard let path = file.path?.path ?? MailActivity.materialize(file) else {
                    throw ActivityError(code: ActivityError.Code.ioError, message: "cannot read \(file.name)")
                }
                paths.append(path)
            }
        }
        return try paths.map { path throws(ActivityError) in
            guard let stamp = FileStamp(ofFileAt: path) else {
                throw ActivityError(code: ActivityError.Code.ioError, message: "the file \(path) is gone; remove it or attach it again")
            }
            let type: String
            do { type = try detector.contentType(ofFileAt: path) } catch {
                throw ActivityError(code: ActivityError.Code.ioError, message: "cannot read \(path): \(ErrorText.sentence(error))")
            }
            return XMPPDelivery.Upload(name: URL(fileURLWithPath: path).lastPathComponent, path: path, size: Int(stamp.size), contentType: type)
        }
    }

    /// Delivers to the JIDs over one XMPP session, then to each webhook
    /// (off the main actor); what each recipient got, or why not.
    nonisolated static func deliver(_ route: Route, subject: String?, text: String, urls: [String], files: [XMPPDelivery.Upload],
                                    settings: MessageSettings, places: LinkShipment?,
                                    environment: [String: String] = [:]) -> ([XMPPDelivery.Delivered], linked: String?) {
        var delivered: [XMPPDelivery.Delivered] = []
        var linked: String?
        if !route.matrix.isEmpty, let account = settings.matrix.first {
            do throws(MatrixFailure) {
                let session = try MatrixSession(account: account, tokenFolder: settings.matrixTokens, commandTimeout: settings.commandTimeout,
                                                environment: environment)
                var matrix = MatrixDelivery(session: session)
                let matrixText = subject.map { text.isEmpty ? $0 : $0 + "\n" + text } ?? text
                for sent in matrix.deliver(text: matrixText, files: files, to: route.matrix) {
                    var entry = XMPPDelivery.Delivered(recipient: sent.recipient, messageIDs: sent.events, refusal: sent.refusal)
                    entry.room = sent.room
                    entry.encrypted = sent.encrypted
                    delivered.append(entry)
                }
            } catch {
                delivered += route.matrix.map { XMPPDelivery.Delivered(recipient: $0, messageIDs: [], refusal: error.message, sessionFailed: true) }
            }
        }
        if !route.jids.isEmpty, let account = settings.account {
            do throws(XMPPFailure) {
                let password: String
                do throws(PasswordCommand.Failure) {
                    password = try PasswordCommand.run(account.passwordCommand, timeout: settings.commandTimeout, section: "message")
                } catch {
                    throw XMPPFailure(message: "[message] \(error.message)")
                }
                let login = XMPPClient.Account(jid: account.jid, password: password, caFile: account.caFile, directTLS: account.directTLS,
                                               host: account.host, port: account.port)
                delivered += try XMPPDelivery(account: login, timeout: settings.networkTimeout).deliver(text: text, files: files, to: route.jids,
                                                                                                         places: places, linked: &linked)
            } catch {
                delivered += route.jids.map { XMPPDelivery.Delivered(recipient: $0, messageIDs: [], refusal: error.message, sessionFailed: true) }
            }
        }
        for hook in route.webhooks {
            do throws(XMPPFailure) {
                let ids = try hook.deliver(try hook.requests(subject: subject, text: text, urls: urls, files: files),
                                           commandTimeout: settings.commandTimeout)
                delivered.append(XMPPDelivery.Delivered(recipient: hook.name, messageIDs: ids))
            } catch {
                delivered.append(XMPPDelivery.Delivered(recipient: hook.name, messageIDs: [], refusal: error.message, sessionFailed: true))
            }
        }
        return (delivered, linked)
    }
}

extension MessageActivity {
    /// `--to` given with `--activity message`: the recipients (JIDs or
    /// webhook names), and then no form.
    public struct Request: ActivityRequest {
        /// The recipients named, if any.
        public var recipients: [String] = []

        public init() {}

        public init(arguments: ActivityArguments) {
            if arguments.activity == .message { recipients = arguments.values("--to") }
        }
    }
}
