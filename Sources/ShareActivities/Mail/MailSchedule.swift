import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Send later: `--send-at TIME`. The message waits in the outbox with its
/// time (``SendAt``) until a `share --flush` after it sends it; `share
/// --undo` takes it back while it waits.
extension MailActivity {
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
        var settings = try settings(section, locations: context.locations, environment: context.environment)
        settings.now = context.clock
        return settings
    }

    // MARK: - Sending later

    /// When the message is to go, if later: `--send-at`'s time, read now;
    /// a time past or unreadable is refused.
    func sendTime(_ session: ActivitySession) throws(ActivityError) -> Date? {
        guard session.formValues.isEmpty, let text = request.sendAt else { return nil }
        switch TimeExpression.date(text, now: settings.now()) {
        case .success(let due): return due
        case .failure(let error):
            throw ActivityError(code: ActivityError.Code.invalidInput, message: "--send-at: \(error.description); the message was not sent")
        }
    }

    /// Puts `message` in the outbox until `due` and finishes: `queued`,
    /// saying until when, with the step that takes it back.
    func schedule(_ message: MailMessage, at due: Date, linked: [LinkedFile], session: ActivitySession) async {
        let mailer = Mailer(settings: settings)
        let outcome = await Task.detached { mailer.schedule(message, at: due) }.value
        let recipients = message.envelopeRecipients.map(\.formatted)
        switch outcome {
        case .queued(let path, let reason):
            discardAutosave()
            let undo = MailActivity.unschedule(path: path, messageID: message.messageID, settings: settings)
            session.finish(.queued, returnedItems: linked.map { .url($0.link) },
                           error: ActivityError(code: ActivityError.Code.queued, message: "\(reason) (queued as \(path))"),
                           recipients: recipients, undo: [undo], waitsUntil: due)
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
