import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// The picker: an activity (or a person of the people row) picked, then run.
extension ShareCommand {
    static func pick(_ sheet: ShareSheet, items: [ShareItem], options: Options, console: Console,
                     presenter: ScreenPresenter, keys: KeyMap<PickerAction>, record: Recorder, sharing: SharingAdjuster, people: (@Sendable () -> [SharedPerson])? = nil,
                     togglePin: ((ActivityType) -> String)? = nil) -> Continuation {
        // Activities that must ask something slow (Print asks CUPS) join the
        // picker when their answer comes; with nothing else to show, it is waited for.
        var (eligible, pending) = sheet.eligibleActivitiesNotWaiting()
        if eligible.isEmpty && !pending.isEmpty {
            eligible = sheet.eligibleActivities()
            pending = []
        }
        guard !eligible.isEmpty else {
            console.error("share: " + Localization.text("no activity can take these items (see share --explain)") + "\n")
            return .exit(ExitCode.noActivity)
        }
        guard console.hasTerminal() else {
            return .exit(usage(Localization.text("no terminal to draw the picker on (/dev/tty); use --list, --explain or --activity TYPE"), console))
        }
        let noColor = options.noColor || !(console.environment["NO_COLOR"] ?? "").isEmpty
        let picked: PickerSession.Choice?
        do {
            // The Options line shows when pictures are shared: what the options before sharing will remove.
            let pictures = items.filter { $0.kind == .image }.count
            let line = pictures > 0 ? PickerOptions(options: sharing.options, pictures: pictures, offersLink: sharing.offersLink) : nil
            picked = try PickerSession.run(sheet: sheet, activities: eligible, pending: pending, items: items, title: options.title,
                                           colors: !noColor, keys: keys, options: line, people: people, togglePin: togglePin)
        } catch {
            return .exit(usage(error.message, console))
        }
        guard let picked, let activity = sheet.activity(ofType: picked.type) else {
            return .exit(report(.dismissed, options: options, console: console))
        }
        if let chosen = picked.options { sharing.options = chosen }
        // A person of the people row goes into the activity's recipients.
        if let person = picked.person, let receiver = activity as? any RecipientsReceiving { receiver.offeredRecipients = [person] }
        return .activity {
            let result = await sheet.run(activity, presenter: presenter)
            // What an activity printed (a plugin) is shown on a screen of its own before the run ends.
            if activity is any OutputShowing, result.completed {
                let lines = result.returnedItems.compactMap { item -> String? in
                    switch item {
                    case .text(let text): text
                    case .url(let url): url.absoluteString
                    default: nil
                    }
                }
                if !lines.isEmpty { await presenter.showResult(title: activity.localizedActivityTitle, lines: lines) }
            }
            return report(result, options: options, console: console, record: record, sharing: sharing)
        }
    }
}
