import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Send later: the outbox keeps each message's time (``SendAt``), and
/// `share --flush` sends only what is due.
extension MailActivity {
    /// Mail's settings from its section, with the run's clock.
    static func settings(_ section: ConfigSection, context: ActivityContext) throws(ConfigurationError) -> MailSettings {
        var settings = try settings(section, locations: context.locations, environment: context.environment)
        settings.now = context.clock
        return settings
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
}
