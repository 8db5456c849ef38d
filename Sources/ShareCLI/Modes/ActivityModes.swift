import FoundationEssentials
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// The modes activities declare (`--flush`, `--reading-list`, `--resume`),
/// run with the activity as made for this run.
extension ShareCommand {
    static func activityMode(_ flag: String, _ run: Invocation) -> Continuation {
        guard let (owner, mode) = SystemActivities.mode(flag), let activity = run.systemActivity(owner) else {
            return .exit(usage(Localization.text("%@ needs an activity this build does not have", flag), run.console))
        }
        let recorder = Recorder(history: run.history, items: [])
        let console = run.console
        let output = ModeOutput(output: console.output, error: console.error, json: run.options.json, shown: TerminalText.sanitized) { result in
            if let problem = recorder.record(result) { warn(problem, console) }
        }
        switch mode.run(activity, output) {
        case .exit(let code): return .exit(code)
        case .resumeForm: return resume(run)
        }
    }

    /// `--resume`: the form left unfinished, opened again with its values;
    /// else the newest saved draft. `--resume --draft`: the draft chosen
    /// among the saved ones (a chooser when there are several).
    static func resume(_ run: Invocation) -> Continuation {
        let state = run.composeState
        let choosing = run.options.arguments.given.contains { $0.name == "--draft" }
        let forms = run.systemActivities.compactMap { $0 as? any FormResuming }
        let noTerminal = { usage(Localization.text("no terminal for the compose screen"), run.console) }
        if !choosing, let saved = state.latest(), let activity = forms.first(where: { $0.activityType.rawValue == saved.activity }) {
            return run.console.hasTerminal() ? reopen(activity, saved: saved, run) : .exit(noTerminal())
        }
        guard let activity = forms.first else {
            return .exit(usage(Localization.text("%@ needs an activity this build does not have", "--resume"), run.console))
        }
        let (drafts, unreadable) = activity.savedDrafts()
        if !unreadable.isEmpty {
            warn(Localization.text("left out of the drafts, not read as mail messages: %@", unreadable.joined(separator: ", ")), run.console)
        }
        guard !drafts.isEmpty else {
            return .exit(usage(Localization.text("there is no unfinished message and no saved draft to resume (unfinished messages are kept in %@)",
                                                 state.path), run.console))
        }
        guard run.console.hasTerminal() else { return .exit(noTerminal()) }
        let chooser = run.presenter(stateFile: state)
        return .activity {
            var draft = drafts[0]
            if choosing && drafts.count > 1 {
                let options = drafts.map { draft in
                    [draft.title, draft.detail, localMinute(Date(timeIntervalSince1970: draft.saved))]
                        .filter { !$0.isEmpty }.joined(separator: " · ")
                }
                guard let index = await chooser.choose(title: Localization.text("Resume a draft"), heading: Localization.text("Choose a draft"),
                                                       none: Localization.text("no draft matches"), options: options) else {
                    return report(ActivityResult(activityType: activity.activityType, outcome: .cancelled), options: run.options,
                                  console: run.console)
                }
                draft = drafts[index]
            }
            // A draft an unfinished screen autosaved: that screen, with what was typed.
            if let saved = state.all().last(where: { $0.draft == draft.path && $0.activity == activity.activityType.rawValue }) {
                return await reopened(activity, saved: saved, run)
            }
            do throws(ActivityError) {
                try activity.resume(draft: draft.path, filesIn: run.locations.stateHome + "/reopened")
            } catch {
                return report(.failure(activity.activityType, error), options: run.options, console: run.console)
            }
            let sheet = ShareSheet(activityItems: [], systemActivities: run.systemActivities)
            let recorder = Recorder(history: run.history, items: [])
            return report(await sheet.resume(activity, presenter: run.presenter(stateFile: state)), options: run.options,
                          console: run.console, record: recorder)
        }
    }

    /// The screen `saved` left unfinished, opened again by the run that reopens it.
    private static func reopen(_ activity: any FormResuming, saved: ComposeStateFile.Saved, _ run: Invocation) -> Continuation {
        .activity { await reopened(activity, saved: saved, run) }
    }

    private static func reopened(_ activity: any FormResuming, saved: ComposeStateFile.Saved, _ run: Invocation) async -> Int32 {
        activity.resume(values: saved.values, draft: saved.draft)
        let sheet = ShareSheet(activityItems: [], systemActivities: run.systemActivities)
        let presenter = run.presenter(stateFile: run.composeState.adopting(saved))
        let recorder = Recorder(history: run.history, items: [])
        return report(await sheet.resume(activity, presenter: presenter), options: run.options, console: run.console, record: recorder)
    }
}
