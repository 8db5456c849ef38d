import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareMail
import ShareTerminal

/// Shows an activity's form on the terminal (Mail's compose screen) and
/// drives it: autosave, address checks and completion, attachments,
/// `$EDITOR`, and submissions that keep the screen open when they fail.
@MainActor
final class ComposePresenter: ActivityFormPresenter {
    private let colors: Bool
    private let addressBook: AddressBook
    private let detector: any ContentTypeDetector
    private let environment: [String: String]
    private let state: ComposeStateFile
    private let keys: FormKeys

    init(colors: Bool, addressBook: AddressBook, detector: any ContentTypeDetector, environment: [String: String],
         stateFile: ComposeStateFile, keys: FormKeys = FormKeys()) {
        self.keys = keys
        self.colors = colors
        self.addressBook = addressBook
        self.detector = detector
        self.environment = environment
        state = stateFile
    }

    func present(_ form: ActivityForm, for activity: any Activity,
                 submit: @escaping @MainActor ([String: String]) async -> FormSubmission) async -> ActivityResult {
        let cancelled = ActivityResult(activityType: activity.activityType, outcome: .cancelled)
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal(wantColors: colors) } catch {
            return .failure(activity.activityType, ActivityError(code: "no-terminal", message: error.message))
        }
        defer { terminal.end() }
        let size = terminal.size
        let initialRows = (form.fields.first { $0.kind == .attachmentList }?.initialValue ?? "")
            .split(separator: "\n").compactMap { row(forLine: String($0)) }
        var screen = FormState(form: form, attachments: initialRows, width: size.width, height: size.height, colors: terminal.colors)
        screen.keys = keys
        let autosaving = activity as? any FormAutosaving
        var autosaveDue: Date?
        var failedReads = 0
        HangUp.watch()
        defer { HangUp.stop() }

        func apply(_ message: FormMessage) -> [FormEffect] { FormUpdate.update(&screen, message) }

        while true {
            terminal.draw(FormView.view(screen))
            // Autosave within a second of the last change; wait for keys meanwhile.
            let wait = autosaveDue.map { Int32(max(0, min(1000, $0.timeIntervalSinceNow * 1000))) }
            let event = terminal.nextEvent(timeoutMilliseconds: wait)
            if let due = autosaveDue, Date() >= due {
                autosaveDue = nil
                save(screen.values, with: autosaving, activity: activity, into: &screen)
            }
            // A closed terminal (SIGHUP, or reads that keep failing) or a TERM:
            // save what was typed now, not within the second, and stop.
            if event == nil && wait == nil { failedReads += 1 } else if event != nil { failedReads = 0 }
            if HangUp.happened || failedReads >= 3 {
                if screen.changed { save(screen.values, with: autosaving, activity: activity, into: &screen) }
                let kept = state.read() != nil ? " (share --resume reopens it)" : ""
                return ActivityResult(activityType: activity.activityType, outcome: .cancelled,
                                      error: ActivityError(code: "terminal-closed",
                                                           message: "the terminal went away; what was typed is saved" + kept))
            }
            guard let event else { continue }
            var queue = apply(.input(event))
            while !queue.isEmpty {
                let effect = queue.removeFirst()
                switch effect {
                case .changed(let values, let field):
                    autosaveDue = autosaveDue ?? Date().addingTimeInterval(0.5)
                    if ["to", "cc", "bcc"].contains(field) {
                        queue += apply(.problem(field: field, problem(inAddresses: values[field] ?? "")))
                    }
                case .completeAddress(let token):
                    queue += apply(.completions(addressBook.complete(token)))
                case .completePath(let text):
                    queue += apply(.pathCompletions(PathCompletion.candidates(for: text, environment: environment)))
                case .attach(let typed):
                    let path = PathCompletion.expand(typed, environment: environment)
                    if let row = row(forLine: path, strict: true) {
                        queue += apply(.attached(row))
                    } else {
                        queue += apply(.status(attachProblem(path), isError: true))
                    }
                case .openEditor(let field, let text):
                    let edited = terminal.suspend { ExternalEditor.edit(text, environment: environment) }
                    queue += apply(.edited(field: field, text: edited))
                case .submit(let values), .save(let values):
                    let isSave: Bool = if case .save = effect { true } else { false }
                    _ = apply(.busy(true))
                    terminal.draw(FormView.view(screen))
                    let payload = values.merging(["_action": isSave ? "save" : "send"]) { $1 }
                    let (answer, typedMeanwhile) = await whileBusy(terminal, &screen) { await submit(payload) }
                    _ = apply(.busy(false))
                    for event in typedMeanwhile { queue += apply(.input(event)) }
                    switch answer {
                    case .finished(let result):
                        state.clear()
                        return result
                    case .retry(let message):
                        queue += apply(.status(message, isError: true))
                    }
                case .discard:
                    autosaving?.discardAutosave()
                    state.clear()
                    return cancelled
                }
            }
        }
    }

    /// Runs `work` (a send: the network is slow) while the screen stays
    /// alive: a spinner turns, a resize is redrawn, and keys wait their turn.
    private func whileBusy(_ terminal: NcursesTerminal, _ screen: inout FormState,
                           _ work: @escaping @MainActor () async -> FormSubmission) async -> (FormSubmission, [InputEvent]) {
        final class Box { var answer: FormSubmission? }
        let box = Box()
        let task = Task { @MainActor in box.answer = await work() }
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        var tick = 0
        var typed: [InputEvent] = []
        while box.answer == nil {
            screen.status = "Sending… " + frames[tick % frames.count]
            tick += 1
            terminal.draw(FormView.view(screen))
            switch terminal.nextEvent(timeoutMilliseconds: 80) {
            case .resize(let width, let height)?:
                screen.width = width
                screen.height = height
            case let event?: typed.append(event)
            case nil: break
            }
            await Task.yield()
        }
        await task.value
        return (box.answer ?? .retry("the submission ended without an answer"), typed)
    }

    /// Autosaves through the activity, and keeps the values for `--resume`.
    private func save(_ values: [String: String], with autosaving: (any FormAutosaving)?, activity: any Activity,
                      into screen: inout FormState) {
        var draft: String?
        if let autosaving {
            do { draft = try autosaving.autosave(values) } catch {
                _ = FormUpdate.update(&screen, .status("Autosave failed: \(error)", isError: true))
            }
        }
        state.write(activity: activity.activityType, values: values, draft: draft)
    }

    private func problem(inAddresses text: String) -> String? {
        guard !text.trimmingWhitespace().isEmpty else { return nil }
        do {
            _ = try AddressList.parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// A row for a file, or nil when it is not a readable regular file.
    private func row(forLine line: String, strict: Bool = false) -> AttachmentRow? {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let path = parts[0]
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, R_OK) == 0 else { return nil }
        let type = (try? detector.contentType(ofFileAt: path)) ?? "application/octet-stream"
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        // A resumed row keeps the size and time it was attached with, so a later change is noticed.
        let size = parts.count > 1 ? Int64(parts[1]) ?? Int64(info.st_size) : Int64(info.st_size)
        let stamp = parts.count > 2 ? Double(parts[2]) ?? modified : modified
        return AttachmentRow(path: path, name: URL(fileURLWithPath: path).lastPathComponent, contentType: type,
                             size: size, modified: stamp)
    }

    private func attachProblem(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) != 0 { return "No such file: \(path)" }
        if info.st_mode & S_IFMT == S_IFDIR { return "\(path) is a folder; attach files" }
        if info.st_mode & S_IFMT != S_IFREG { return "\(path) is not a regular file" }
        return "Cannot read \(path)"
    }
}

/// Where the compose screen's values are kept between runs, for `--resume`:
/// `$XDG_STATE_HOME/share/compose.json`, written atomically on every autosave.
struct ComposeStateFile: Sendable {
    let path: String

    init(environment: [String: String]) {
        path = Locations(environment: environment).stateHome + "/compose.json"
    }

    func write(activity: ActivityType, values: [String: String], draft: String?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Saved(activity: activity.rawValue, values: values, draft: draft)) else { return }
        let directory = PathText.parent(of: path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// The saved values and autosave draft, if a compose screen was left unfinished.
    func read() -> (activity: String, values: [String: String], draft: String?)? {
        guard let data = FileManager.default.contents(atPath: path),
              let saved = try? JSONDecoder().decode(Saved.self, from: data) else { return nil }
        return (saved.activity, saved.values, saved.draft)
    }

    /// What the file holds: {"activity": …, "values": {…}, "draft": …}.
    private struct Saved: Codable {
        var activity: String
        var values: [String: String]
        var draft: String?
    }

    func clear() { unlink(path) }
}

/// Paths typed at the attach prompt: `~` expanded, Tab completion.
enum PathCompletion {
    static func expand(_ text: String, environment: [String: String]) -> String {
        if text == "~" || text.hasPrefix("~/"), let home = environment["HOME"] { return home + text.dropFirst() }
        return text
    }

    /// Entries of the typed path's folder that start with its last part;
    /// folders end in "/". Returned as typed (with `~` kept).
    static func candidates(for text: String, environment: [String: String]) -> [String] {
        let expanded = expand(text, environment: environment)
        let folder: String
        let prefix: String
        if expanded.hasSuffix("/") {
            folder = expanded
            prefix = ""
        } else {
            folder = PathText.parent(of: expanded).isEmpty ? "." : PathText.parent(of: expanded) + "/"
            prefix = PathText.lastComponent(of: expanded)
        }
        guard let names = LocalFiles.names(inFolder: folder) else { return [] }
        let typedFolder = text.hasSuffix("/") ? text : String(text.dropLast(prefix.count))
        return names.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            typedFolder + name + (LocalFiles.isFolder(folder + name) ? "/" : "")
        }
    }
}

/// `$VISUAL` / `$EDITOR` (else `vi`) on a temporary file holding the text.
enum ExternalEditor {
    /// The edited text, or nil when the editor failed (the old text stays).
    static func edit(_ text: String, environment: [String: String]) -> String? {
        let command = (environment["VISUAL"] ?? environment["EDITOR"]).flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("share-\(getpid())-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { return nil }
        defer { try? FileManager.default.removeItem(at: file) }
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        // The editor command may carry arguments (`code --wait`): the shell
        // splits it, and the file name goes in as "$1", never into the text.
        guard let status = try? Subprocess.runOnTerminal("/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", file.path],
                                                         terminal: tty),
              status == 0, case .success(let bytes) = LocalFiles.contents(ofFile: file.path, limit: 1 << 26) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
