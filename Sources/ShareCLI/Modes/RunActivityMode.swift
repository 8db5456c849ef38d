import ShareActivities
import ShareCore
import ShareTerminal

/// `--activity TYPE`: one activity run without the picker.
extension ShareCommand {
    static func runActivity(_ type: ActivityType, sheet: ShareSheet, options: Options, console: Console,
                            presenter: ScreenPresenter, record: Recorder) -> Continuation {
        guard let activity = sheet.activity(ofType: type) else {
            let known = (sheet.applicationActivities + sheet.systemActivities).map(\.activityType.rawValue)
            return .exit(usage("--activity: no activity '\(type.rawValue)' is installed; known types: " + known.joined(separator: ", "), console))
        }
        let verdict = sheet.evaluate(activity)
        if verdict.isEligible && activity.makeForm() != nil && !console.hasTerminal() {
            let fix = SystemActivities.withoutTerminal(type).map { "; " + $0 } ?? ""
            return .exit(usage("no terminal for the \(activity.activityTitle) form\(fix)", console))
        }
        if let reason = verdict.reason {
            console.error("share: \(type.rawValue) cannot run: \(reason.rawValue) (\(TerminalText.sanitized(verdict.detail ?? "")))\n")
            return .exit(ExitCode.noActivity)
        }
        // Without a terminal a live activity (Nearby) runs with its news on standard error.
        if activity is any LiveActivity && !console.hasTerminal() {
            let lines = LiveStatusLines(write: console.error)
            sheet.liveStatusWithoutScreen = { lines.show($0) }
            return .activity { report(await sheet.run(activity, presenter: nil), options: options, console: console, record: record) }
        }
        return .activity { report(await sheet.run(activity, presenter: presenter), options: options, console: console, record: record) }
    }
}
