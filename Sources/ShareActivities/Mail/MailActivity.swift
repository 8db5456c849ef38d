import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareMail
import ShareSupport

/// Mail: the terminal `MFMailComposeViewController` as an activity.
///
/// Strings and URLs go into the body, images and files are attached, a
/// `mailto:` URL fills To, Cc, Bcc, Subject and body (never attachments),
/// and the subject offered for `mail` becomes the subject. With `--send`
/// the message goes at once; with `--save-draft` it is saved; otherwise
/// the compose screen shows Mail's form, whose values come back to
/// ``perform(_:)`` with the action chosen: ``send`` or ``saveDraft``.
@MainActor
public final class MailActivity: SystemActivity, FormAutosaving, FormValidating, SubjectReceiving, RecipientsReceiving, FormResuming,
                                  ActivityExplaining {
    public nonisolated static var systemType: ActivityType { .mail }

    /// The compose screen's primary action.
    public static let send = FormAction(id: "send", label: Localization.text("Send"), progress: Localization.text("Sending…"), role: .primary)
    /// The compose screen's secondary action.
    public static let saveDraft = FormAction(id: "save", label: Localization.text("Save draft"), progress: Localization.text("Saving…"), role: .secondary)

    /// What the command line asked for.
    public let request: MailRequest
    /// Identities, transport and folders.
    public let settings: MailSettings
    /// Types files attached in the compose screen.
    public let detector: any ContentTypeDetector
    /// A signature given as text, appended to a new body in the place of
    /// the account's `signature-file` (which the form reads when it is made).
    public let signature: String?
    /// `[mail] markdown = on`: bodies are Markdown unless `--html` says HTML.
    public let markdownByDefault: Bool
    /// `[mail] undo-send`: seconds Send waits in the compose screen, during
    /// which `u` takes the message back (0: none).
    public let undoSend: Int
    /// Values to reopen the form with (`--resume`), instead of the items; see ``resume(values:draft:)``.
    public private(set) var resumedValues: [String: String]?
    /// The subject offered to Mail (`--subject`), used to prefill the form.
    public var offeredSubject: String?
    /// Recipients offered to Mail (a person picked in the people row), after `--to`'s.
    public var offeredRecipients: [String] = []
    /// The draft the last autosave wrote.
    public private(set) var autosavePath: String?
    /// Attachments sent as links: Link's places and `[mail] link-over`.
    var links = MailLinks()
    /// OpenPGP: `[mail] pgp-*`.
    var pgp = MailPGP()
    /// The largest message the SMTP server takes (its `SIZE`), once asked.
    private(set) var serverLimit: Int?
    /// The asking, while the form is open.
    private var serverLimitAsked: Task<Int?, Never>?
    /// The environment share runs in (`PATH`, for `--explain`'s look at `token-command`).
    var environment: [String: String] = [:]
    /// Whether an item came from standard input (see ``ActivityContext/readsStandardInput``).
    var readsStandardInput = false
    /// The draft this message keeps on its account's IMAP server (`drafts = imap:…`), replaced by each save.
    let imapDraft = IMAPDraftSlot()
    /// Drafts read from an IMAP server into the local drafts folder (`--resume`), by path: their folder and UID.
    var importedDrafts: [String: (folder: IMAPFolder, uid: Int)] = [:]
    private var items: [ShareItem] = []

    /// Creates the Mail activity.
    public init(request: MailRequest = MailRequest(), settings: MailSettings,
                detector: any ContentTypeDetector = MagicContentTypeDetector(), signature: String? = nil, markdownByDefault: Bool = false,
                undoSend: Int = MailActivity.defaultUndoSend) {
        self.request = request
        self.settings = settings
        self.detector = detector
        self.signature = signature
        self.markdownByDefault = markdownByDefault
        self.undoSend = undoSend
    }

    /// Mail made from its `[mail]` section and the command line's request.
    public convenience init(context: ActivityContext) throws(ConfigurationError) {
        let section = context.section("mail")
        let settings = try MailActivity.settings(section, context: context)
        self.init(request: context.request(for: MailActivity.self), settings: settings,
                  detector: context.detector,
                  markdownByDefault: try section.flag("markdown") ?? false, undoSend: try MailActivity.undoSend(section))
        environment = context.environment
        readsStandardInput = context.readsStandardInput
        links = try MailLinks(context: context, section: section, placeName: request.place)
        pgp = try MailPGP(section, environment: context.environment)
    }

    /// Reopens the form with values kept from an unfinished run, and the draft their autosave wrote.
    public func resume(values: [String: String], draft: String?) {
        resumedValues = values
        autosavePath = draft
    }

    public var activityImage: ActivityImage { .glyph("✉") }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    // MARK: - The form

    public func makeForm() -> ActivityForm? {
        guard request.mode == .compose else { return nil }
        let initial = resumedValues == nil ? initialValues() : nil
        let values = resumedValues ?? initial?.values ?? [:]
        let identities = settings.identities.map(\.displayString)
        var body = FormField(id: "body", label: "", kind: .multilineText, initialValue: values["body"] ?? "")
        body.initialCursor = initial?.bodyCursor
        body.placeholder = Localization.text("Write your message here")
        var form = ActivityForm(title: Localization.text("New Message"), fields: [
            FormField(id: "from", label: Localization.text("From"), kind: .choice(identities), initialValue: values["from"] ?? identities.first ?? ""),
            FormField(id: "to", label: Localization.text("To"), kind: .addressList, initialValue: values["to"] ?? ""),
            FormField(id: "cc", label: Localization.text("Cc"), kind: .addressList, initialValue: values["cc"] ?? ""),
            FormField(id: "bcc", label: Localization.text("Bcc"), kind: .addressList, initialValue: values["bcc"] ?? ""),
            FormField(id: "subject", label: Localization.text("Subject"), kind: .text, initialValue: values["subject"] ?? ""),
            body,
            FormField(id: "attachments", label: Localization.text("Attachments"), kind: .attachmentList, initialValue: values["attachments"] ?? ""),
        ], actions: [sendAction, MailActivity.saveDraft])
        // Markdown is a toggle of the form, unless the body is HTML (--html).
        if !request.html {
            form.toggles = [FormToggle(id: "markdown", label: Localization.text("Markdown"), key: MailActivity.markdownKey,
                                       isOn: values["markdown"].map { $0 == "on" } ?? (bodyFormat == .markdown))]
        }
        // Ctrl-P: signed, signed and encrypted, encrypted, neither (where OpenPGP is set up, or asked for).
        if pgp.offered || request.sign || request.encrypt {
            form.toggles.append(MailPGP.toggle(values["pgp"].flatMap(MailPGP.Mode.init(rawValue:)) ?? pgp.initialMode(request)))
        }
        // With a place to upload to, Alt-L sends the attachments as links.
        if links.canSend {
            form.toggles.append(FormToggle(id: "links", label: Localization.text("As links"), key: MailLinks.key,
                                           isOn: values["links"].map { $0 == "on" } ?? request.links))
            askServerLimit()
        }
        form.isRecovered = resumedValues != nil
        if settings.transport == nil { form.notice = Localization.text("No transport is set: Send puts the message in the outbox") }
        offerSendLater(in: &form)
        return form
    }

    /// Asks the SMTP server, off the main actor, the largest message it
    /// takes, for the check before Send; `[mail] link-over` spares the asking.
    private func askServerLimit() {
        guard serverLimitAsked == nil, let smtp = settings.transport as? SMTPTransport else { return }
        let sender = settings.identities.first?.addrSpec ?? ""
        let asked = Task.detached { try? smtp.sizeLimit(greeting: sender) }
        serverLimitAsked = asked
        Task { [weak self] in
            let limit = await asked.value
            self?.serverLimit = limit
        }
    }

    /// How a message goes out, for `--explain`: the transport, or the outbox
    /// when there is none; with several accounts, each one's, the default first.
    public var explanation: String {
        guard settings.accounts.count > 1 else {
            return settings.accounts.first.map { explanation(of: $0) } ?? MailActivity.way(settings.transport)
        }
        return settings.accounts.enumerated().map { index, account in
            "\(account.name)\(index == 0 ? " (default)" : ""): \(account.identities.first?.addrSpec ?? "") \(explanation(of: account))"
        }.joined(separator: "; ")
    }

    private static func way(_ transport: (any MailTransport)?) -> String {
        transport.map { "through \($0.summary)" } ?? "no transport: messages wait in the outbox for share --flush"
    }

    /// How one account sends: its transport and login, a token command
    /// whose program is not installed, and where its copies go.
    private func explanation(of account: MailAccount) -> String {
        var words = MailActivity.way(account.transport)
        if let smtp = account.transport as? SMTPTransport, case .oauth2(let mechanism, let command) = smtp.login.method {
            words += mechanism == .any ? " with OAuth2" : " with OAuth2 (\(mechanism.rawValue.uppercased()))"
            if let program = MailActivity.missingProgram(command, environment: environment) {
                words += "; but token-command's program \(program) is not installed or not on PATH: install it, or set token-command "
                    + "in [\(smtp.login.section)] to a command that prints an access token (oama access ADDRESS, mutt_oauth2.py TOKENFILE, "
                    + "pizauth show ACCOUNT)"
            }
        }
        if let imap = account.imapSent { words += "; sent copies in \(imap.summary)" }
        if let imap = account.imapDrafts { words += "; drafts in \(imap.summary)" }
        return words
    }

    /// The first word of a shell command line, when it names a program that cannot be found.
    nonisolated static func missingProgram(_ command: String, environment: [String: String]) -> String? {
        guard let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
              !first.contains("="), !first.contains("$"), !["!", "{", "(", "exec", "env"].contains(first) else { return nil }
        let builtins: Set<String> = ["echo", "printf", "cat", "cd", "test", "[", "true", "false", "read", "."]
        if builtins.contains(first) { return nil }
        return ProgramSearch.executable(first, environment: environment) == nil ? first : nil
    }

    /// `--from`: an identity's address, or an account's name for its first identity.
    var requestedFrom: String? {
        guard let from = request.from else { return nil }
        if let account = settings.account(named: from.trimmingWhitespace()), let first = account.identities.first { return first.addrSpec }
        return from
    }

    /// The form's first values (the request, the items, the signature), and
    /// where the body's cursor starts.
    func initialValues() -> (values: [String: String], bodyCursor: Int) {
        let composer = (try? makeComposer(subject: offeredSubject)) ?? MailComposer()
        // The cursor starts on a fresh line after the shared content (a link
        // or text), so that what is typed never runs into it; the signature
        // stays below.
        var body = composer.body.isEmpty ? "" : composer.body + "\n"
        let cursor = body.count
        let preferred = requestedFrom.flatMap { from in
            settings.identities.first { $0.addrSpec.lowercased() == (try? MailAddress(parsing: from))?.addrSpec.lowercased() }
        }
        // The signature of the account the message starts from, read now: making Mail reads no file.
        let account = preferred.map { settings.account(sending: $0.addrSpec) } ?? settings.accounts.first
        let signature = signature ?? account?.readSignature()
        if let signature, !signature.isEmpty { body += (body.isEmpty ? "\n\n" : "\n") + "-- \n" + signature }
        var attachments: [AttachedFile] = []
        for item in items {
            guard let file = item.fileItem, let path = file.path?.path ?? MailActivity.materialize(file) else { continue }
            attachments.append(AttachedFile.current(atPath: path) ?? AttachedFile(path: path, stamp: nil))
        }
        let values = ["from": (preferred ?? settings.identities.first)?.displayString ?? "",
                      "to": composer.toRecipients.joined(separator: ", "), "cc": composer.ccRecipients.joined(separator: ", "),
                      "bcc": composer.bccRecipients.joined(separator: ", "), "subject": composer.subject, "body": body,
                      "attachments": AttachedFile.value(attachments)]
        return (values, cursor)
    }

    // MARK: - Checks

    /// Addresses that do not parse, in To, Cc and Bcc.
    public func problem(in field: FormField, value: String) -> String? {
        guard field.kind == .addressList, !value.trimmingWhitespace().isEmpty else { return nil }
        do {
            _ = try AddressList.parse(value)
            return nil
        } catch {
            return error.description
        }
    }

    /// Send with nobody in To, Cc or Bcc: asked before the warnings, in the form's words.
    public func refusal(before action: FormAction, values: [String: String]) -> String? {
        guard action.id == MailActivity.send.id else { return nil }
        let nobody = ["to", "cc", "bcc"].allSatisfy { (values[$0] ?? "").trimmingWhitespace(includingNewlines: true).isEmpty }
        if nobody { return Localization.text("No recipient: add one in To, Cc or Bcc") }
        if let tooBig = serverLimit.flatMap({ tooBig(values, limit: $0) }) { return tooBig }
        return pgpPlan(values).problem
    }

    /// The mode the form's Ctrl-P (or the command line and the config) asks for.
    func pgpMode(_ values: [String: String]) -> MailPGP.Mode {
        values["pgp"].flatMap(MailPGP.Mode.init(rawValue:)) ?? pgp.initialMode(request)
    }

    /// What the keys make of the form's `values`.
    func pgpPlan(_ values: [String: String]) -> MailPGP.Plan {
        let mode = pgpMode(values)
        guard mode != .off else { return MailPGP.Plan() }
        let from = values["from"].flatMap { try? MailAddress(parsing: $0) }?.addrSpec ?? settings.identities.first?.addrSpec
        return pgp.plan(mode, from: from, visible: MailPGP.addresses(values["to"] ?? "") + MailPGP.addresses(values["cc"] ?? ""),
                        hidden: MailPGP.addresses(values["bcc"] ?? ""), insists: pgp.insists(request))
    }

    /// Attachments that make the message bigger than the server takes
    /// (its `SIZE`), unless they go as links: what to do about it.
    func tooBig(_ values: [String: String], limit: Int) -> String? {
        guard let total = oversize(values, limit: limit) else { return nil }
        let most = ByteCount.words(Int64(limit))
        return links.canSend
            ? Localization.text("The attachments (%@) are more than the server takes (%@): Alt-L sends them as links", total, most)
            : Localization.text("The attachments (%@) are more than the server takes (%@): remove some", total, most)
    }

    /// The attachments' total in words, when the message they make is
    /// over `limit` and they are not going as links.
    private func oversize(_ values: [String: String], limit: Int) -> String? {
        guard values["links"] != "on" else { return nil }
        let sizes = AttachedFile.list(values["attachments"] ?? "").compactMap { FileStamp(ofFileAt: $0.path)?.size }
        guard !sizes.isEmpty, MailLinks.estimatedSize(attachments: sizes, body: values["body"] ?? "") > Int64(limit) else { return nil }
        return ByteCount.words(sizes.reduce(0, +))
    }

    /// Before Send: an empty subject, or a body that speaks of an
    /// attachment when none is attached (quoted lines and the signature do
    /// not count).
    public func warnings(before action: FormAction, values: [String: String]) -> [String] {
        guard action.id == MailActivity.send.id else { return [] }
        var warnings: [String] = []
        if (values["subject"] ?? "").trimmingWhitespace(includingNewlines: true).isEmpty { warnings.append(Localization.text("The subject is empty.")) }
        if AttachedFile.list(values["attachments"] ?? "").isEmpty, MailActivity.mentionsAttachment(values["body"] ?? "") {
            warnings.append(Localization.text("The message mentions an attachment, but nothing is attached."))
        }
        if let warning = pgpPlan(values).warning { warnings.append(warning) }
        // `[mail] link-over` offers links; the attachments may still go as they are.
        if let over = links.over, links.canSend, let total = oversize(values, limit: over) {
            warnings.append(Localization.text("The attachments (%@) are over link-over (%@): Alt-L sends them as links.", total,
                                              ByteCount.words(Int64(over))))
        }
        return warnings
    }

    /// Whether the body's own lines (not quoted, not the signature) mention an
    /// attachment: a word starting with "attach" (not "detached"), or 첨부.
    public static func mentionsAttachment(_ body: String) -> Bool {
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "-- " || line == "--" { break }
            if line.hasPrefix(">") { continue }
            let lowered = line.lowercased()
            if lowered.contains("첨부") { return true }
            let words = lowered.split { !$0.isLetter }
            if words.contains(where: { $0.hasPrefix("attach") }) { return true }
        }
        return false
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        let values = session.formValues
        var composer: MailComposer
        var message: MailMessage
        do {
            composer = try values.isEmpty ? makeComposer(subject: session.subject) : self.composer(from: values)
            _ = try composer.makeMessage(identities: settings.identities)
        } catch {
            session.fail(ActivityError(code: MailActivity.errorCode(error.kind),
                                       message: error.message))
            return
        }
        let save = values.isEmpty ? request.mode == .saveDraft : session.formAction == MailActivity.saveDraft.id
        // Send later: its time read before anything goes up or out.
        let later: Date?
        do { later = try sendTime(session) } catch {
            session.fail(error)
            return
        }
        // Sent from the form before the server's SIZE was known: known now, it may stop the message here.
        if !save, !values.isEmpty, let asked = serverLimitAsked, let limit = await asked.value, let refusal = tooBig(values, limit: limit) {
            session.fail(ActivityError(code: ActivityError.Code.sendFailed, message: refusal))
            return
        }
        // As links: the attachments go up first; a draft keeps them attached.
        var linked: [LinkedFile] = []
        if !save, values.isEmpty ? request.links : values["links"] == "on", !composer.attachments.isEmpty {
            switch await sendAsLinks(&composer, session: session) {
            case .success(let files): linked = files
            case .failure(let failure):
                if failure.stopped {
                    session.finish(.cancelled, error: ActivityError(code: ActivityError.Code.cancelled,
                                                                    message: "the upload was stopped; the message was not sent"))
                } else {
                    session.fail(ActivityError(code: failure.code, message: failure.message + "; the message was not sent"))
                }
                return
            }
        }
        do { message = try composer.makeMessage(identities: settings.identities) } catch {
            session.fail(ActivityError(code: MailActivity.errorCode(error.kind), message: error.message))
            return
        }
        // OpenPGP: the keys looked up now, for the message as it goes (a draft saved is not signed).
        var pgpWarning: String?
        if !save {
            let mode = pgpMode(values)
            let plan = pgp.plan(mode, from: message.from?.addrSpec,
                                visible: (AddressList.mailboxes(message.to) + AddressList.mailboxes(message.cc)).map(\.addrSpec),
                                hidden: AddressList.mailboxes(message.bcc).map(\.addrSpec), insists: pgp.insists(request))
            if let problem = plan.problem {
                session.fail(ActivityError(code: ActivityError.Code.noKey, message: problem))
                return
            }
            message.protection = plan.protection
            message.protection?.mayAsk = values.isEmpty
            // Without a screen gpg-agent's pinentry asks on the terminal, if there is one.
            if values.isEmpty && message.protection?.signs == true { OpenPGP.useTerminal() }
            pgpWarning = plan.warning
        }
        // Send later: into the outbox with its time, signed and encrypted now, while the person is here.
        if let later, !save {
            await schedule(message, at: later, linked: linked, warnings: [pgpWarning].compactMap { $0 }, session: session)
            return
        }
        let mailer = Mailer(settings: settings)
        // The transport blocks on the network: off the main actor, so the screen stays responsive.
        let outcome: MailOutcome
        if save || message.protection == nil {
            let ready = message
            // Sent while its draft is written only when a kill meanwhile loses nothing: no form
            // whose last keys no autosave has kept yet, no bytes from standard input or memory.
            let overlapping = values.isEmpty && !readsStandardInput && message.attachments.allSatisfy {
                if case .file = $0.source { return true } else { return false }
            }
            outcome = await Task.detached { save ? mailer.saveDraft(ready) : mailer.send(ready, overlapping: overlapping) }.value
        } else {
            outcome = await sendProtected(message, mailer: mailer, session: session)
        }
        // The mailer wrote the message to drafts itself before sending: the autosaved
        // copy is now one too many. A failed send's draft becomes the one to replace next.
        if case .failed(_, let draft?) = outcome {
            if let old = autosavePath, old != draft { settings.drafts.remove(old) }
            autosavePath = draft
        }
        let recipients = message.envelopeRecipients.map(\.formatted)
        // An address nobody chose never goes out without a word.
        let madeUp = message.from.flatMap { from in
            settings.madeUpSender.map { $0.addrSpec.lowercased() == from.addrSpec.lowercased() } == true
                ? "sent from \(from.addrSpec), an address made up from the account's name; set from in the [mail] section of the config file"
                : nil
        }
        switch outcome {
        case .sent(_, _, let warning):
            discardAutosave()
            await discardIMAPDraft()
            session.finish(.sent, returnedItems: linked.map { .url($0.link) }, warnings: [pgpWarning, warning, madeUp].compactMap { $0 },
                           recipients: recipients,
                           undo: [.impossible(reason: "a sent message cannot be unsent")])
        case .saved(let path):
            discardAutosave()
            let stored = await storeIMAPDraft(path, from: message.from)
            session.finish(.saved, error: ActivityError(code: ActivityError.Code.saved, message: "the message is saved in drafts: \(path)" + stored),
                           recipients: recipients)
        case .queued(let path, let reason):
            discardAutosave()
            await discardIMAPDraft()
            session.finish(.queued, error: ActivityError(code: ActivityError.Code.queued, message: "\(reason) (queued as \(path))"),
                           recipients: recipients)
        case .failed(let error, let draft):
            let kept = draft.map { " (the message is kept in drafts: \($0))" } ?? ""
            // A refusal for size (552, or 5.3.4) can be answered with links.
            let tooLarge = error.message.hasPrefix("552") || error.message.contains("5.3.4")
            let hint = tooLarge && linked.isEmpty && links.canSend && !message.attachments.isEmpty
                ? "; --links (Alt-L in the form) sends the attachments as links" : ""
            session.fail(ActivityError(code: MailActivity.errorCode(error.kind),
                                       message: error.message + hint + kept))
        }
    }

    /// Sends a signed or encrypted message: written (and signed) off the
    /// main actor first; when gpg-agent needs a passphrase from the form,
    /// written again with the terminal lent to its pinentry (the screen
    /// left, then drawn again); then sent off the main actor.
    private func sendProtected(_ message: MailMessage, mailer: Mailer, session: ActivitySession) async -> MailOutcome {
        var prepared = await Task.detached { mailer.prepare(message) }.value
        if case .done(.failed(let error, _)) = prepared, error.kind == .passphrase {
            var asking = message
            asking.protection?.mayAsk = true
            prepared = session.withTerminal {
                OpenPGP.useTerminal()
                return mailer.prepare(asking)
            }
        }
        switch prepared {
        case .done(let outcome): return outcome
        case .ready(let ready): return await Task.detached { mailer.send(ready) }.value
        }
    }

    /// Uploads the composer's attachments through Link's place and writes
    /// their links into its body instead: the files that went.
    private func sendAsLinks(_ composer: inout MailComposer, session: ActivitySession) async -> Result<[LinkedFile], LinkFailure> {
        let shipment: LinkShipment
        do throws(LinkFailure) {
            shipment = try links.access.shipment(display: session.display, heading: localizedActivityTitle, showsNews: !session.formValues.isEmpty)
        } catch {
            return .failure(error)
        }
        let items = composer.attachments.map { attachment -> ShareItem in
            switch attachment.source {
            case .file(let url):
                let size = FileStamp(ofFileAt: url.path)?.size ?? 0
                return .file(FileItem(name: attachment.fileName, contentType: attachment.contentType, size: size, storage: .path(url)))
            case .data(let data):
                return .file(FileItem(name: attachment.fileName, contentType: attachment.contentType, size: Int64(data.count), storage: .data(data)))
            }
        }
        let baseName = LinkPayload.baseName(subject: composer.subject.isEmpty ? nil : composer.subject)
        let display = session.display
        let work = Task.detached { shipment.send(items, baseName: baseName, digests: true) }
        let outcome = await withTaskCancellationHandler { await work.value } onCancel: { display.cancel() }
        guard case .success(let delivery) = outcome else { return outcome.map(\.files) }
        let format: MailBodyFormat = composer.isHTML ? .html : composer.isMarkdown ? .markdown : .plain
        composer.setMessageBody(MailLinks.body(composer.body, format: format, files: delivery.files, place: delivery.place.name), format: format)
        composer.attachments = []
        return .success(delivery.files)
    }

    // MARK: - Autosave

    /// Writes the values as a draft (what parses of them) and returns its path.
    public func autosaveJob() -> AutosaveJob {
        let settings = settings, format = bodyFormat, detector = detector, previous = autosavePath, slot = imapDraft
        return { values in
            let message = try MailActivity.lenientMessage(values, settings: settings, format: format, detector: detector)
            guard case .saved(let path) = Mailer(settings: settings).saveDraft(message) else {
                throw MailError(.io, "cannot autosave the draft in \(settings.drafts.path)")
            }
            // The draft it replaces goes here too, off the keystrokes' way (a long one takes a while to unlink).
            if let previous, previous != path { settings.drafts.remove(previous) }
            // And on the IMAP server, replacing the one before; the local draft is what
            // recovery needs, so a server away now is tried again at the next autosave.
            if let folder = message.from.flatMap({ settings.account(sending: $0.addrSpec).imapDrafts }) {
                _ = try? slot.store(path, in: folder)
            }
            return path
        }
    }

    // MARK: - Drafts on an IMAP server

    /// Stores the draft at `path` in the IMAP Drafts folder of the account
    /// `from` sends through, if it has one: words to add to the outcome.
    func storeIMAPDraft(_ path: String, from: MailAddress?) async -> String {
        guard let folder = settings.account(sending: from?.addrSpec ?? "").imapDrafts else { return "" }
        let slot = imapDraft
        let outcome = await Task.detached { () -> Result<IMAPStored, MailError> in
            do throws(MailError) { return .success(try slot.store(path, in: folder)) } catch { return .failure(error) }
        }.value
        switch outcome {
        case .success(let stored): return " and in \(stored.location)"
        case .failure(let error): return "; it could not be stored in \(folder.summary): \(error.message)"
        }
    }

    /// Deletes this message's draft from the IMAP server: it was sent or queued.
    func discardIMAPDraft() async {
        let slot = imapDraft
        guard slot.current != nil else { return }
        await Task.detached { try? slot.discard() }.value
    }

    public func autosaved(at place: String) {
        autosavePath = place
    }

    public func discardAutosave() {
        if let path = autosavePath { settings.drafts.remove(path) }
        autosavePath = nil
    }

    /// The message as far as it is valid: addresses that do not parse yet are
    /// left out of the draft (the form keeps them), attachments that vanished too.
    private nonisolated static func lenientMessage(_ values: [String: String], settings: MailSettings, format: MailBodyFormat,
                                                   detector: any ContentTypeDetector) throws(MailError) -> MailMessage {
        var lenient = values
        for field in ["to", "cc", "bcc"] {
            let parts = AddressList.entryTexts(values[field] ?? "")
            lenient[field] = parts.filter { (try? AddressList.parse($0)) != nil }.joined(separator: ", ")
        }
        lenient["subject"] = (values["subject"] ?? "").replacingScalars(["\n", "\r"], with: " ")
        lenient["attachments"] = AttachedFile.value(AttachedFile.list(values["attachments"] ?? "").filter {
            FileStamp(ofFileAt: $0.path) != nil
        })
        var composer = try MailActivity.composer(from: lenient, format: MailActivity.format(of: values, otherwise: format), detector: detector,
                                                 checkUnchanged: false)
        // A draft needs no sender: with no identity configured it is saved without a From.
        if (try? composer.makeMessage(identities: settings.identities, requireSender: false)) == nil {
            composer.preferredSendingAddress = nil
        }
        return try composer.makeMessage(identities: settings.identities, requireSender: false)
    }

    // MARK: - Building the composer

    /// The composer from the compose screen's values.
    func composer(from values: [String: String]) throws(MailError) -> MailComposer {
        try MailActivity.composer(from: values, format: MailActivity.format(of: values, otherwise: bodyFormat), detector: detector,
                                  checkUnchanged: true)
    }

    /// What the body is written in: HTML with `--html`, else Markdown with
    /// `--markdown` or `[mail] markdown = on`, else plain text.
    public var bodyFormat: MailBodyFormat {
        request.html ? .html : request.markdown || markdownByDefault ? .markdown : .plain
    }

    /// Send as the compose screen offers it: with the undo window.
    var sendAction: FormAction {
        var action = MailActivity.send
        action.undoWindow = undoSend
        return action
    }

    /// Seconds Send waits in the compose screen unless `[mail] undo-send` says otherwise.
    public nonisolated static let defaultUndoSend = 5

    /// `[mail] undo-send`: a whole number of seconds from 0 (off) to 60.
    static func undoSend(_ section: ConfigSection) throws(ConfigurationError) -> Int {
        guard let entry = section.entry("undo-send") else { return defaultUndoSend }
        let text = entry.value.hasSuffix("s") ? String(entry.value.dropLast()) : entry.value
        guard let seconds = Int(text.trimmingWhitespace()), (0...60).contains(seconds) else {
            throw section.error(entry, "undo-send is a number of seconds from 0 (off) to 60, not '\(entry.value)'")
        }
        return seconds
    }

    /// The body's format for the form's `values`: its Markdown toggle when it has one.
    nonisolated static func format(of values: [String: String], otherwise format: MailBodyFormat) -> MailBodyFormat {
        switch values["markdown"] {
        case "on": .markdown
        case "off": .plain
        default: format
        }
    }

    /// Alt-M flips Markdown: Ctrl-K is already the text fields' kill to the
    /// end of the line, which SPEC §7 promises in every field.
    public nonisolated static let markdownKey = "M-m"

    /// The composer from values; with `checkUnchanged`, an attachment that
    /// changed since it was attached is refused (sending), else taken as it is (autosave).
    nonisolated static func composer(from values: [String: String], format: MailBodyFormat, detector: any ContentTypeDetector,
                                     checkUnchanged: Bool) throws(MailError) -> MailComposer {
        var composer = MailComposer()
        composer.preferredSendingAddress = values["from"].flatMap { $0.isEmpty ? nil : $0 }
        composer.toRecipients = [values["to"] ?? ""].filter { !$0.trimmingWhitespace().isEmpty }
        composer.ccRecipients = [values["cc"] ?? ""].filter { !$0.trimmingWhitespace().isEmpty }
        composer.bccRecipients = [values["bcc"] ?? ""].filter { !$0.trimmingWhitespace().isEmpty }
        composer.subject = values["subject"] ?? ""
        composer.setMessageBody(values["body"] ?? "", format: format)
        for attachment in AttachedFile.list(values["attachments"] ?? "") {
            let url = URL(fileURLWithPath: attachment.path)
            let name = attachment.name
            guard let now = FileStamp(ofFileAt: attachment.path) else {
                throw MailError(.invalidInput, "the attachment \(name) is gone (\(attachment.path)); remove it or attach it again")
            }
            if checkUnchanged, let then = attachment.stamp, then != now {
                throw MailError(.invalidInput, "the attachment \(name) changed after it was attached; attach it again to send the new version")
            }
            let type: String
            do { type = try detector.contentType(ofFileAt: attachment.path) } catch {
                throw MailError(.invalidInput, "cannot read the attachment \(attachment.path): \(ErrorText.sentence(error))")
            }
            try composer.addAttachment(file: url, mimeType: type, fileName: name)
        }
        return composer
    }

    /// The composer filled from the request, the items and the subject.
    func makeComposer(subject: String?) throws(MailError) -> MailComposer {
        var composer = MailComposer()
        composer.toRecipients = request.to + offeredRecipients
        composer.ccRecipients = request.cc
        composer.bccRecipients = request.bcc
        composer.preferredSendingAddress = requestedFrom
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
        let paragraphs = bodyParts.map { part in
            // Trailing line breaks go, read from the end: a long text is not walked.
            var text = part[...]
            while text.last?.isNewline == true { text = text.dropLast() }
            return String(text)
        }
        composer.setMessageBody(paragraphs.joined(separator: "\n\n"), format: bodyFormat)
        return composer
    }

    private func attach(_ file: FileItem, to composer: inout MailComposer) throws(MailError) {
        switch file.storage {
        case .path(let url): try composer.addAttachment(file: url, mimeType: file.contentType, fileName: file.name)
        case .data(let data): try composer.addAttachmentData(data, mimeType: file.contentType, fileName: file.name)
        }
    }

    /// Writes bytes held in memory (standard input) to a private temporary
    /// file, so the compose screen can list them like any attachment.
    static func materialize(_ file: FileItem) -> String? {
        guard case .data(let data) = file.storage else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("share-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let url = directory.appendingPathComponent(file.name)
        return (try? data.write(to: url)).map { url.path }
    }
}
