import ShareCore
import ShareMail
import ShareSupport

/// What a user can touch of Mail from the command line: its options and
/// the request they build, `--flush` and `--resume`, its words for running
/// without a terminal and its error codes.
extension MailActivity {
    public typealias Request = MailRequest

    /// The heading of Mail's options.
    nonisolated static let group = OptionSpec.Group("Mail (--activity mail, or --send / --save-draft alone)")

    public nonisolated static var options: [OptionSpec] {
        [
            OptionSpec("--to", value: "ADDR", repeatable: true, group: group, activity: .mail, alsoFor: [.message],
                       help: "recipients (repeatable; comma lists ok); with --activity message, JIDs",
                       values: .completed("addresses")),
            OptionSpec("--cc", value: "ADDR", repeatable: true, group: group, activity: .mail, help: "copy recipients (repeatable)",
                       values: .completed("addresses")),
            OptionSpec("--bcc", value: "ADDR", repeatable: true, group: group, activity: .mail,
                       help: "blind copies: in the envelope, never in the sent headers", values: .completed("addresses")),
            OptionSpec("--from", value: "ADDR", group: group, activity: .mail,
                       help: "send as this configured identity, through the account it belongs to (or an account's name: [mail.NAME])"),
            OptionSpec("--body", value: "TEXT", group: group, activity: .mail, alsoFor: [.message],
                       help: "body text (an item, first in the body); with --activity message, the message", item: .text),
            OptionSpec("--body-file", value: "PATH", group: group, activity: .mail, help: "body text from a UTF-8 file", values: .files,
                       item: .textOfFile),
            OptionSpec("--html", group: group, activity: .mail, help: "the body is HTML (sent with a plain-text part first)"),
            OptionSpec("--markdown", group: group, activity: .mail,
                       help: "the body is Markdown: sent as written and as HTML (tables, autolinks, strikethrough)"),
            OptionSpec("--attach", value: "PATH", repeatable: true, group: group, activity: .mail, help: "attach a file (repeatable)",
                       values: .files, item: .file),
            OptionSpec("--links", group: group, activity: .mail,
                       help: "upload the attachments to the Link place and send their links, sizes and SHA-256 instead"),
            OptionSpec("--sign", group: group, activity: .mail, help: "sign with OpenPGP (RFC 3156; [mail] pgp-key, else the From address's key)"),
            OptionSpec("--encrypt", group: group, activity: .mail,
                       help: "encrypt with OpenPGP to every recipient and to yourself; refused when one has no key"),
            OptionSpec("--send", group: group, activity: .mail, help: "send without the compose screen", startsActivity: true),
            OptionSpec("--save-draft", group: group, activity: .mail, help: "save to drafts without sending", startsActivity: true),
            sendAtOption,
            OptionSpec("--draft", group: group, help: "with --resume: choose the saved draft to reopen"),
        ]
    }

    public nonisolated static var modes: [ActivityMode] {
        [
            .of(MailActivity.self, OptionSpec("--flush", group: group, help: "deliver the messages waiting in the outbox")) { mail, output in
                .exit(flush(Mailer(settings: mail.settings), output: output))
            },
            .of(MailActivity.self, OptionSpec("--resume", group: group,
                                              help: "reopen the compose screen left unfinished, else the newest saved draft")) { _, _ in
                .resumeForm
            },
        ]
    }

    public nonisolated static var withoutTerminal: String? { Localization.text("add --send to send it, or --save-draft to keep it") }

    /// A refused login is `unauthorized`, which Social declares: one code, one meaning, for both.
    public nonisolated static var errorCodes: [String] { [ActivityError.Code.saved, ActivityError.Code.temporaryFailure, ActivityError.Code.noKey] }

    public nonisolated static var undoSteps: [UndoStep] { [unscheduleStep] }

    /// The result's error code for a failure of the mail engine.
    public nonisolated static func errorCode(_ kind: MailError.Kind) -> String {
        switch kind {
        case .invalidInput: ActivityError.Code.invalidInput
        case .io: ActivityError.Code.ioError
        case .rejected: ActivityError.Code.sendFailed
        case .temporary: ActivityError.Code.temporaryFailure
        case .configuration, .passphrase: ActivityError.Code.configuration
        case .unauthorized: ActivityError.Code.unauthorized
        }
    }

    /// `--flush`: each message of the outbox that is due tried again, a line
    /// (or a JSON row) each; each one sent is a share of its own in the
    /// history. Those scheduled for later stay, each a `waiting` line with
    /// its time: waiting is no failure.
    static func flush(_ mailer: Mailer, output: ModeOutput) -> Int32 {
        let flush = mailer.flushOutbox()
        let flushed = flush.flushed
        var rows: [JSONValue] = []
        var text = ""
        var worst = ExitCode.completed
        for message in flushed {
            let outcome = message.outcome
            if case .sent(let copy, _, let warning) = outcome {
                var result = ActivityResult(activityType: .mail, outcome: .sent, returnedItems: copy.map { [.text($0)] } ?? [])
                result.recipients = message.recipients
                result.warnings = warning.map { [$0] } ?? []
                result.undo = [.impossible(reason: "a sent message cannot be unsent")]
                output.record(result)
            }
            let (path, word, message): (String, String, String?) = switch outcome {
            case .sent(let copy, _, let warning): (copy ?? "", "sent", warning)
            case .queued(let path, let reason): (path, "queued", reason)
            case .saved(let path): (path, "saved", nil)
            case .failed(let error, let draft): (draft ?? "", "failed", error.message)
            }
            if word == "queued" { worst = max(worst, ExitCode.notCompleted) }
            if word == "failed" { worst = ExitCode.failed }
            rows.append(.object([("path", .string(path)), ("outcome", .string(word)), ("error", .optional(message))]))
            text += "\(word)\t\(path)" + (message.map { "\t\(output.shown($0))" } ?? "") + "\n"
        }
        waitingRows(flush.waiting, rows: &rows, text: &text)
        // Sent copies stored on their IMAP server now; one that still is not waits for the next flush.
        for copy in flush.stored {
            if let location = copy.location {
                rows.append(.object([("path", .string(location)), ("outcome", .string("stored")), ("error", .null)]))
                text += "stored\t\(location)\n"
            } else {
                let problem = "the sent copy is not stored on the IMAP server yet: " + (copy.error?.message ?? "")
                rows.append(.object([("path", .string(copy.path)), ("outcome", .string("failed")), ("error", .string(problem))]))
                text += "failed\t\(copy.path)\t\(output.shown(problem))\n"
                worst = ExitCode.failed
            }
        }
        if output.json { output.output(JSONValue.array(rows).serialized + "\n") } else { output.output(text) }
        if flushed.isEmpty && flush.waiting.isEmpty && flush.stored.isEmpty && !output.json { output.error("share: " + Localization.text("the outbox is empty") + "\n") }
        return worst
    }
}

extension MailRequest: ActivityRequest {
    /// Mail's options as given: recipients in order, the last `--from`.
    public init(arguments: ActivityArguments) throws(UsageError) {
        self.init()
        to = arguments.values("--to")
        cc = arguments.values("--cc")
        bcc = arguments.values("--bcc")
        from = arguments.value("--from")
        html = arguments.has("--html")
        markdown = arguments.has("--markdown")
        links = arguments.has("--links")
        sign = arguments.has("--sign")
        encrypt = arguments.has("--encrypt")
        place = try LinkRequest(arguments: arguments).place
        if html && markdown { throw UsageError(Localization.text("--html and --markdown cannot be used together")) }
        sendAt = try MailActivity.sendAt(arguments)
        switch (arguments.has("--send") || sendAt != nil, arguments.has("--save-draft")) {
        case (true, true) where sendAt != nil: throw UsageError(Localization.text("--send-at and --save-draft cannot be used together"))
        case (true, true): throw UsageError(Localization.text("--send and --save-draft cannot be used together"))
        case (true, false): mode = .send
        case (false, true): mode = .saveDraft
        case (false, false): mode = .compose
        }
    }
}

extension ActivityError.Code {
    /// The message was kept in drafts (outcome `saved`); the message names the file.
    public static let saved = "saved"

    /// The server refused for now (4xx).
    public static let temporaryFailure = "temporary-failure"

    /// OpenPGP: a recipient, or the sender, has no usable key.
    public static let noKey = "no-key"
}
