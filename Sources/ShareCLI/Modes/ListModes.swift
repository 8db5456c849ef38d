import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// `--list` and `--explain`: the share sheet's verdicts printed.
extension ShareCommand {
    static func list(_ sheet: ShareSheet, options: Options, console: Console) -> Int32 {
        let eligible = sheet.eligibleEvaluations()
        if options.json {
            console.output(JSONValue.array(eligible.map { json($0, sheet) }).serialized + "\n")
        } else {
            console.output(eligible.map { evaluation in
                let activity = evaluation.activity
                return "\(activity.activityType.rawValue)\t\(TerminalText.sanitized(activity.activityTitle))\n"
            }.joined())
        }
        if eligible.isEmpty {
            console.error("share: " + Localization.text("no activity can take these items (see share --explain)") + "\n")
            return ExitCode.noActivity
        }
        return ExitCode.completed
    }

    static func explain(_ sheet: ShareSheet, items: [ShareItem], problems: [PluginProblem], options: Options,
                        console: Console) -> Int32 {
        let evaluations = sheet.evaluations()
        // A broken plugin never stops share; --explain names the file and the problem.
        let broken = problems.map { "skipped plugin \($0.path): \($0.message)" }
        if options.json {
            console.output(JSONValue.array(evaluations.map { json($0, sheet) }).serialized + "\n")
            for line in broken { console.error("share: \(TerminalText.sanitized(line))\n") }
            return ExitCode.completed
        }
        var text = ""
        if let title = options.title { text += "Title: \(TerminalText.excerpt(title, columns: 70))\n" }
        if let subject = options.subject { text += "Subject: \(TerminalText.excerpt(subject, columns: 68))\n" }
        text += "Items (\(items.count)):\n"
        for item in items { text += "  " + describe(item) + "\n" }
        text += "Activities:\n"
        let typeWidth = evaluations.map { $0.activity.activityType.rawValue.count }.max() ?? 0
        let titles = evaluations.map { TerminalText.sanitized($0.activity.activityTitle) }
        let titleWidth = titles.map { DisplayWidth.of($0) }.max() ?? 0
        for (evaluation, title) in zip(evaluations, titles) {
            let activity = evaluation.activity
            let how = (activity as? any ActivityExplaining)?.explanation
            let status = evaluation.reason.map { "\($0.rawValue): \(evaluation.detail ?? "")" } ?? "eligible" + (how.map { " (\($0))" } ?? "")
            text += "  " + pad(activity.activityType.rawValue, typeWidth) + "  " + pad(title, titleWidth) + "  "
                + pad(sheet.category(of: activity).rawValue, 6) + "  " + status + "\n"
        }
        if !broken.isEmpty {
            text += "Broken plugins (\(broken.count)):\n"
            for problem in problems { text += "  \(TerminalText.sanitized(problem.path)): \(TerminalText.sanitized(problem.message))\n" }
        }
        console.output(text)
        return ExitCode.completed
    }

    /// One activity's row of `--list --json` and `--explain --json`; the
    /// category is the share sheet's (the support table's, for system types).
    static func json(_ evaluation: ActivityEvaluation, _ sheet: ShareSheet) -> JSONValue {
        let activity = evaluation.activity
        return .object([
            ("type", .string(activity.activityType.rawValue)),
            ("title", .string(activity.activityTitle)),
            ("category", .string(sheet.category(of: activity).rawValue)),
            ("eligible", .bool(evaluation.isEligible)),
            ("reason", .optional(evaluation.reason?.rawValue)),
            ("detail", .optional(evaluation.detail ?? (evaluation.isEligible ? (activity as? any ActivityExplaining)?.explanation : nil))),
        ])
    }

    static func describe(_ item: ShareItem) -> String {
        switch item {
        case .text(let text): return "string  " + TerminalText.excerpt(text, columns: 60)
        case .url(let url): return "url     " + TerminalText.excerpt(url.absoluteString, columns: 60)
        case .image(let file), .file(let file):
            return pad(item.kind.rawValue, 6) + "  " + TerminalText.excerpt(file.name, columns: 40)
                + "  " + file.contentType + "  " + ByteCount.words(file.size)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }
}
