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

    /// `--resume`: the form left unfinished, opened again with its values.
    static func resume(_ run: Invocation) -> Continuation {
        let state = run.composeState
        guard let saved = state.latest(),
              let activity = run.systemActivities.first(where: { $0.activityType.rawValue == saved.activity }) as? any FormResuming else {
            return .exit(usage("there is no unfinished message to resume (share keeps one in \(state.path))", run.console))
        }
        guard run.console.hasTerminal() else { return .exit(usage("no terminal for the compose screen", run.console)) }
        activity.resume(values: saved.values, draft: saved.draft)
        let sheet = ShareSheet(activityItems: [], systemActivities: run.systemActivities)
        let presenter = run.presenter(stateFile: state.adopting(saved))
        let recorder = Recorder(history: run.history, items: [])
        return .activity {
            report(await sheet.resume(activity, presenter: presenter), options: run.options, console: run.console, record: recorder)
        }
    }
}
