import FoundationEssentials
import ShareCore

/// CUPS through its own command-line programs (`lp`, `lpstat`), as a
/// person at the terminal would use it: whatever server, queues and
/// options they have set up (`CUPS_SERVER`, `~/.cups/client.conf`,
/// `lpoptions`) apply to share too.
///
/// The programs run with `LC_ALL=C`, so that their words can be read, and
/// with a time limit, so that an unreachable server never hangs share.
struct CUPS: Sendable {
    /// The environment the programs run in (share's own, in the C locale).
    let environment: [String: String]
    /// `lp`.
    let lp: String
    /// `lpstat`.
    let lpstat: String

    /// How long one `lp` or `lpstat` may take.
    static let timeout = 15.0

    /// CUPS for `environment`, or why it cannot be used (no `lp`, no `lpstat`).
    static func find(environment: [String: String]) -> Result<CUPS, CUPSError> {
        guard let lp = ProgramSearch.executable("lp", environment: environment) else {
            return .failure(CUPSError("no `lp` on PATH (Debian: apt install cups-client)"))
        }
        guard let lpstat = ProgramSearch.executable("lpstat", environment: environment) else {
            return .failure(CUPSError("no `lpstat` on PATH (Debian: apt install cups-client)"))
        }
        var environment = environment
        environment["LC_ALL"] = "C"
        environment["LANG"] = "C"
        return .success(CUPS(environment: environment, lp: lp, lpstat: lpstat))
    }

    // MARK: - Destinations

    /// The destinations `lpstat -e` lists, and the default among them.
    struct Destinations: Sendable, Equatable {
        var names: [String]
        var preferred: String?
    }

    /// The destinations, and the one to preselect: `$LPDEST`, `$PRINTER`,
    /// the `Default` of `~/.cups/lpoptions`, then the server's default
    /// (`lpstat -d`), the first of them that `lpstat -e` lists.
    func destinations(home: String) throws(CUPSError) -> Destinations {
        let output = try run(lpstat, ["-e", "-d"])
        var names: [String] = []
        var serverDefault: String?
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("system default destination: ") {
                serverDefault = String(line.dropFirst("system default destination: ".count)).trimmingWhitespace()
            } else if line.hasPrefix("no system default destination") {
                continue
            } else if !line.isEmpty, !line.contains(" ") {
                names.append(line)
            }
        }
        let candidates = [environment["LPDEST"], environment["PRINTER"], CUPS.lpoptionsDefault(home: home), serverDefault]
        let preferred = candidates.compactMap { $0 }.first { names.contains($0) }
        return Destinations(names: names, preferred: preferred)
    }

    /// Whether the scheduler answers (`lpstat -r`).
    func schedulerIsRunning() -> Bool {
        ((try? run(lpstat, ["-r"])) ?? "").hasPrefix("scheduler is running")
    }

    /// The `Default NAME` line of `~/.cups/lpoptions`, if any.
    static func lpoptionsDefault(home: String) -> String? {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: home + "/.cups/lpoptions") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2)
            if words.count >= 2, words[0].lowercased() == "default" { return String(words[1]) }
        }
        return nil
    }

    // MARK: - Jobs

    /// Sends `files` to `printer`; returns the job id `lp` reports (`Office-12`).
    func submit(_ files: [String], request: PrintRequest, printer: String, title: String) throws(CUPSError) -> String {
        let output = try run(lp, request.lpArguments(printer: printer, title: title) + ["--"] + files)
        // "request id is Office-12 (1 file(s))"
        let line = output.split(separator: "\n").first { $0.hasPrefix("request id is ") }
        guard let id = line?.dropFirst("request id is ".count).split(separator: " ").first else {
            throw CUPSError("lp printed no job id: \(output.trimmingWhitespace(includingNewlines: true))")
        }
        return String(id)
    }

    /// Where a job is.
    enum JobState: Sendable, Equatable {
        /// Waiting or printing; `reasons` are CUPS' (`job-printing`, `printer-stopped`).
        case active(reasons: [String], message: String?)
        /// Held until released (`job-hold-until-specified`).
        case held(reasons: [String])
        /// Printed.
        case completed
        /// Cancelled (by a person or at the printer).
        case cancelled(reasons: [String])
        /// Given up by CUPS: a filter or the backend failed.
        case aborted(reasons: [String], message: String?)
        /// Not among the printer's jobs at all (purged from its history).
        case unknown
    }

    /// The state of job `id` on `printer`, from `lpstat -l -o`: the jobs
    /// not completed first, then the completed ones (which hold cancelled
    /// and aborted jobs too); CUPS' `Alerts:` (job-state-reasons) tell them apart.
    func job(_ id: String, printer: String) throws(CUPSError) -> JobState {
        if let active = try CUPS.jobEntry(id, in: run(lpstat, ["-W", "not-completed", "-l", "-o", printer])) {
            if active.reasons.contains(where: { $0.hasPrefix("job-hold-until") }) { return .held(reasons: active.reasons) }
            return .active(reasons: active.reasons, message: active.message)
        }
        guard let done = try CUPS.jobEntry(id, in: run(lpstat, ["-W", "completed", "-l", "-o", printer])) else { return .unknown }
        if done.reasons.contains("job-completed-successfully") { return .completed }
        if done.reasons.contains(where: { $0.contains("canceled") || $0.contains("cancelled") }) { return .cancelled(reasons: done.reasons) }
        return .aborted(reasons: done.reasons, message: done.message)
    }

    /// The `Status:` and `Alerts:` lines of job `id` in `lpstat -l -o`'s output.
    static func jobEntry(_ id: String, in output: String) -> (reasons: [String], message: String?)? {
        var inJob = false
        var reasons: [String] = []
        var message: String?
        var found = false
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix("\t") && !line.hasPrefix(" ") {
                inJob = line.split(separator: " ").first.map(String.init) == id
                found = found || inJob
                continue
            }
            guard inJob else { continue }
            let text = line.trimmingWhitespace()
            if text.hasPrefix("Status: ") { message = String(text.dropFirst("Status: ".count)) }
            if text.hasPrefix("Alerts: ") { reasons = text.dropFirst("Alerts: ".count).split(separator: " ").map(String.init) }
        }
        return found ? (reasons, message) : nil
    }

    /// Cancels job `id` (`cancel ID`).
    func cancel(_ id: String) throws(CUPSError) {
        guard let cancel = ProgramSearch.executable("cancel", environment: environment) else { throw CUPSError("no `cancel` on PATH") }
        _ = try run(cancel, [id])
    }

    /// Whether `printer` is stopped, and CUPS' words for why (its state message or reasons).
    func stopped(_ printer: String) throws(CUPSError) -> String? {
        let output = try run(lpstat, ["-l", "-p", printer])
        // "printer Office disabled since Wed 02 Dec 2026 03:02:25 AM UTC -\n\tPaused for share tests\n\tAlerts: paused ..."
        guard let first = output.split(separator: "\n").first, first.contains(" disabled since ") else { return nil }
        let details = output.split(separator: "\n").dropFirst().map { $0.trimmingWhitespace() }
        let message = details.first { !$0.isEmpty && !$0.contains(":") } ?? details.first { $0.hasPrefix("Alerts: ") } ?? "stopped"
        return String(message)
    }

    // MARK: - Running

    private func run(_ program: String, _ arguments: [String]) throws(CUPSError) -> String {
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(program, arguments: arguments, environment: environment, errorLimit: 4096,
                                         supervision: Subprocess.Supervision(timeout: CUPS.timeout))
        } catch {
            throw CUPSError(error.description)
        }
        let name = PathText.lastComponent(of: program)
        if outcome.timedOut { throw CUPSError("\(name) did not answer within \(Int(CUPS.timeout)) s (is the CUPS server reachable?)") }
        if outcome.cancelled { throw CUPSError("\(name) was interrupted") }
        guard outcome.status == 0 else {
            let words = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            throw CUPSError(words.isEmpty ? "\(name) exited with status \(outcome.status)" : words)
        }
        return String(decoding: outcome.output, as: UTF8.self)
    }
}

/// Why CUPS could not be asked or refused, in words (often CUPS' own).
struct CUPSError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
