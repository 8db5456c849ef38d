import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// `--activity TYPE`: one activity run without the picker.
extension ShareCommand {
    static func runActivity(_ type: ActivityType, sheet: ShareSheet, options: Options, console: Console,
                            presenter: ScreenPresenter, record: Recorder, sharing: SharingAdjuster) -> Continuation {
        guard let activity = sheet.activity(ofType: type) else {
            let known = (sheet.applicationActivities + sheet.systemActivities).map(\.activityType.rawValue)
            return .exit(usage(Localization.text("--activity: no activity '%@' is installed; known types: %@", type.rawValue,
                                                 known.joined(separator: ", ")), console))
        }
        let verdict = sheet.evaluate(activity)
        if verdict.isEligible && activity.makeForm() != nil && !console.hasTerminal() {
            let title = activity.localizedActivityTitle
            return .exit(usage(SystemActivities.withoutTerminal(type).map { Localization.text("no terminal for the %@ form; %@", title, $0) }
                ?? Localization.text("no terminal for the %@ form", title), console))
        }
        if let reason = verdict.reason {
            console.error("share: " + Localization.text("%@ cannot run: %@ (%@)", type.rawValue, reason.rawValue,
                                                        TerminalText.sanitized(verdict.detail ?? "")) + "\n")
            return .exit(ExitCode.noActivity)
        }
        // Without a terminal a live activity (Nearby) runs with its news on standard error.
        if activity is any LiveActivity && !console.hasTerminal() {
            let lines = LiveStatusLines(write: console.error)
            sheet.liveStatusWithoutScreen = { lines.show($0) }
            return .activity {
                report(await sheet.run(activity, presenter: nil), options: options, console: console, record: record, sharing: sharing)
            }
        }
        return .activity {
            report(await sheet.run(activity, presenter: presenter), options: options, console: console, record: record, sharing: sharing)
        }
    }
}
