import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Send later: Ctrl-L in the compose screen, `--send-at TIME` without it.
/// The message waits in the outbox with its time (``SendAt``) until a
/// `share --flush` after it sends it; `share --undo` takes it back while
/// it waits.
extension MailActivity: FormScheduling {
    /// The compose screen's Send later: Send with a time, so that the
    /// checks before Send (no recipient, no subject) are asked before it too.
    public static let sendLater = FormAction(id: "send", label: Localization.text("Send later"), progress: Localization.text("Scheduling…"),
                                             role: .later)

    /// `--send-at TIME`: sends without the compose screen, at that time.
    nonisolated static let sendAtOption = OptionSpec(
        "--send-at", value: "TIME", group: group, activity: .mail,
        help: "send later: the message waits in the outbox until TIME (in 2h, tomorrow 9:00, 2026-12-05 09:00) for share --flush",
        manual: "send later, without the compose screen: the message waits in the outbox until TIME, and the first share --flush from then on sends it (outcome queued); TIME is in 2h, in 30m, in 1d, tomorrow 9:00, 9:00 (today, or tomorrow once past), mon 9:00, or an ISO time (2026-12-05T09:00 or 2026-12-05 09:00 in local time, or with its offset); share --undo takes the message back while it waits",
        startsActivity: true)

    /// The value of `--send-at`, once it reads as a time; whether it is
    /// past is known when the message is sent, by the run's clock.
    nonisolated static func sendAt(_ arguments: ActivityArguments) throws(UsageError) -> String? {
        guard let text = arguments.value("--send-at") else { return nil }
        if case .failure(.unreadable) = TimeExpression.date(text, now: Date()) {
            throw UsageError(Localization.text("--send-at: %@", TimeExpressionError.unreadable(text).description))
        }
        return text
    }

    /// Mail's settings from its section, with the run's clock.
    static func settings(_ section: ConfigSection, context: ActivityContext) throws(ConfigurationError) -> MailSettings {
        var settings = try settings(section, accounts: context.subsections("mail"), locations: context.locations,
                                    environment: context.environment)
        settings.now = context.clock
        return settings
    }

    // MARK: - The form

    /// Send later on the form, and the notice of what waits in the outbox.
    func offerSendLater(in form: inout ActivityForm) {
        form.actions.append(MailActivity.sendLater)
        if let waiting = outboxNotice() { form.notice = waiting }
    }

    /// What waits in the outbox, in a line: how many, and when the next
    /// scheduled one goes (without a transport, that Send puts the message
    /// there too); `nil` when it is empty.
    func outboxNotice() -> String? {
        let summary = Mailer(settings: settings).outboxSummary()
        guard summary.count > 0 else { return nil }
        let count = String(summary.count)
        if settings.transport == nil {
            return Localization.plural("No transport is set: Send puts the message in the outbox, where %@ waits",
                                       "No transport is set: Send puts the message in the outbox, where %@ wait", count: summary.count, count)
        }
        guard let next = summary.next else {
            return Localization.plural("%@ message waits in the outbox for share --flush", "%@ messages wait in the outbox for share --flush",
                                       count: summary.count, count)
        }
        return Localization.plural("%@ message waits in the outbox; the next goes %@", "%@ messages wait in the outbox; the next goes %@",
                                   count: summary.count, count, TimeExpression.shown(next, now: settings.now()))
    }

    /// The time typed for Send later, read with this run's clock.
    public func time(_ text: String, for action: FormAction) -> FormTime {
        let now = settings.now()
        switch TimeExpression.date(text, now: now) {
        case .success(let due): return .accepted(value: TimeExpression.iso(due), shown: TimeExpression.shown(due, now: now))
        // The ways to write a time are on the form already.
        case .failure(.unreadable(let typed)): return .refused(Localization.text("cannot read '%@' as a time", typed))
        case .failure(let error): return .refused(error.description)
        }
    }

    // MARK: - Sending later

    /// When the message is to go, if later: the form's time (Send later),
    /// or `--send-at`'s read now; a time past or unreadable is refused.
    func sendTime(_ session: ActivitySession) throws(ActivityError) -> Date? {
        if !session.formValues.isEmpty {
            guard let value = session.formValues[FormAction.timeKey] else { return nil }
            guard let due = TimeExpression.instant(value) else {
                throw ActivityError(code: ActivityError.Code.invalidInput, message: "'\(value)' is not a time to send at")
            }
            return due
        }
        guard let text = request.sendAt else { return nil }
        switch TimeExpression.date(text, now: settings.now()) {
        case .success(let due): return due
        case .failure(let error):
            throw ActivityError(code: ActivityError.Code.invalidInput, message: "--send-at: \(error.description); the message was not sent")
        }
    }

    /// Puts `message` in the outbox until `due` and finishes: `queued`,
    /// saying until when (and `warnings`), with the step that takes it back.
    /// A message signed or encrypted is so in the outbox already: a
    /// passphrase is asked now, with the terminal lent to gpg-agent's
    /// pinentry as Send does, never by the flush that sends it.
    func schedule(_ message: MailMessage, at due: Date, linked: [LinkedFile], warnings: [String], session: ActivitySession) async {
        let mailer = Mailer(settings: settings)
        var outcome = await Task.detached { mailer.schedule(message, at: due) }.value
        if case .failed(let error, _) = outcome, error.kind == .passphrase {
            var asking = message
            asking.protection?.mayAsk = true
            outcome = session.withTerminal {
                OpenPGP.useTerminal()
                return mailer.schedule(asking, at: due)
            }
        }
        let recipients = message.envelopeRecipients.map(\.formatted)
        switch outcome {
        case .queued(let path, let reason):
            discardAutosave()
            await discardIMAPDraft()
            let undo = MailActivity.unschedule(path: path, messageID: message.messageID, settings: settings)
            session.finish(.queued, returnedItems: linked.map { .url($0.link) },
                           error: ActivityError(code: ActivityError.Code.queued, message: "\(reason) (queued as \(path))"),
                           warnings: warnings, recipients: recipients, undo: [undo], waitsUntil: due)
        case .failed(let error, let draft):
            if let draft {
                if let old = autosavePath, old != draft { settings.drafts.remove(old) }
                autosaved(at: draft)
            }
            let kept = draft.map { " (the message is kept in drafts: \($0))" } ?? ""
            session.fail(ActivityError(code: MailActivity.errorCode(error.kind), message: error.message + kept))
        case .sent, .saved:
            session.fail(ActivityError(code: ActivityError.Code.failed, message: "the message was not put in the outbox"))
        }
    }

    // MARK: - Flushing

    /// The rows of `--flush` for the messages left waiting: `waiting`, the
    /// path and the time (ISO 8601, local, with its offset).
    nonisolated static func waitingRows(_ waiting: [WaitingMessage], rows: inout [JSONValue], text: inout String) {
        for message in waiting {
            let due = TimeExpression.iso(message.due)
            rows.append(.object([("path", .string(message.path)), ("outcome", .string("waiting")), ("error", .null), ("due", .string(due))]))
            text += "waiting\t\(message.path)\t\(due)\n"
        }
    }

    // MARK: - Undo

    /// The undo step of a message scheduled at `path`: back to drafts while it waits.
    nonisolated static func unschedule(path: String, messageID: String, settings: MailSettings) -> UndoAction {
        UndoAction("unscheduleMail", ["path": path, "message-id": messageID, "outbox": settings.outbox.path,
                                      "drafts": settings.drafts.path, "sent": settings.sent.path])
    }

    /// Carries out `unscheduleMail`: the message leaves the outbox for
    /// drafts while it still waits there; once sent, it says so.
    nonisolated static let unscheduleStep = UndoStep("unscheduleMail") { action, _ in
        guard let path = action["path"], let messageID = action["message-id"], let outbox = action["outbox"],
              let drafts = action["drafts"], let sent = action["sent"] else { return .failure(Undo.incomplete(action)) }
        switch Mailer.unschedule(path: path, messageID: messageID, outbox: Maildir(path: outbox), drafts: Maildir(path: drafts),
                                 sent: Maildir(path: sent)) {
        case .success(let draft): return .success("took the message back from the outbox; it is in drafts: \(draft)")
        case .failure(let error): return .failure(UndoRefusal(error.message))
        }
    }
}
