import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareMail
import ShareSupport
import ShareTerminal
import Synchronization

/// An activity's form as a screen of the loop: `FormUpdate` decides, this
/// performs its effects.
@MainActor
final class ComposeProgram: ScreenProgram {
    enum Message: Sendable {
        /// Half a second after a change: save what is typed.
        case autosave
        /// The autosave of that number, running off the main actor, is done.
        case autosaved(Int)
        /// A submission was answered.
        case answered(FormSubmission)
        /// Time to read the address book (the first frame is drawn).
        case loadAddresses
        /// The address book's vCards and aliases are read.
        case addressesLoaded
        /// `query-command` answered for this token.
        case queried(token: String, [AddressBook.Entry])
        /// The running submission shows how far it is.
        case progress(LiveStatus)
        /// A second of an action's undo window went by.
        case countdown
    }

    /// How long after the first unsaved change the autosave runs, in milliseconds.
    static let autosaveDelay = 500

    private var screen: FormState
    /// The frames drawn of it, each from the one before where only the body changed.
    private var frames = FormFrames()
    private let activity: any Activity
    private let autosaving: (any FormAutosaving)?
    private let validating: (any FormValidating)?
    private let counting: (any FormCounting)?
    private let scheduling: (any FormScheduling)?
    /// The link screen shown once the activity finished with a link no
    /// browser here opened, and the result it closes with.
    private var handoff: (screen: LinkState, result: ActivityResult)?
    private let submit: @MainActor (SubmittedForm) async -> FormSubmission
    let services: ComposeServices
    /// The autosave running now, if any, and whether another is due after it.
    private var autosaveRunning: (thread: BackgroundThread.Joinable?, outcome: AutosaveOutcome)?
    private var autosaveAgain = false
    /// The number of the last autosave started: a report of an earlier one
    /// (taken in already, before a send) is ignored.
    private var autosaveNumber = 0
    /// What `query-command` last answered (and for which token), and
    /// whether a query is running.
    private var queryAnswer: (token: String, entries: [AddressBook.Entry])?
    private var queryRunning = false
    /// Where the running submission shows its progress and hears Esc.
    private var running: LiveDisplay?

    init(form: ActivityForm, activity: any Activity, submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission,
         services: ComposeServices, size: (width: Int, height: Int), colors: Bool) {
        self.activity = activity
        self.submit = submit
        self.services = services
        autosaving = activity as? any FormAutosaving
        validating = activity as? any FormValidating
        counting = activity as? any FormCounting
        scheduling = activity as? any FormScheduling
        let initialRows = (form.fields.first { $0.kind == .attachmentList }?.initialValue ?? "")
            .split(separator: "\n").compactMap { [services] line in ComposeProgram.row(forLine: String(line), detector: services.detector) }
        screen = FormState(form: form, attachments: initialRows, width: size.width, height: size.height, colors: colors)
        screen.keys = services.keys
        if let counting {
            for index in screen.fields.indices {
                screen.fields[index].count = counting.count(in: screen.fields[index].field, value: screen.fields[index].value)
            }
        }
    }

    func view() -> Frame {
        if let handoff { return LinkView.view(handoff.screen) }
        return ComposeProgram.frame(&frames, of: &screen)
    }

    /// The frame of `screen`, which is only read: taken `inout` so that it
    /// is read where it is stored. A class's property handed on as a value,
    /// even to a `borrowing` parameter, is copied first, and a copied state
    /// retains and releases every reference it holds.
    private static func frame(_ frames: inout FormFrames, of screen: inout FormState) -> Frame {
        frames.frame(for: screen)
    }

    /// Reads the address book on a thread of its own, so that neither the
    /// first frame nor a keystroke waits for ten thousand vCards.
    private func loadAddresses(_ loop: ScreenLoop<Message>) {
        let book = services.addressBook, poster = loop.poster
        guard !book.isLoaded else { return }
        let work: @Sendable () -> Void = { book.load(); poster.post(.addressesLoaded) }
        // Without a thread (none to be had, or tests in the terminal's clock): now.
        if !services.usesThreads || !BackgroundThread.start(work) { work() }
    }

    func handle(_ event: ScreenEvent<Message>, in loop: ScreenLoop<Message>) -> ActivityResult? {
        if handoff != nil {
            guard case .input(let input) = event else { return nil }
            return handleLink(.input(input))
        }
        switch event {
        case .input(let input):
            return perform(FormUpdate.update(&screen, .input(input)), in: loop)
        case .tick:
            _ = FormUpdate.update(&screen, .tick)
        case .message(.autosave):
            // Not while a submission runs (it may remove the draft): once it is answered.
            if screen.isBusy {
                loop.schedule(.autosave, after: ComposeProgram.autosaveDelay, key: "autosave")
            } else if autosaveRunning != nil {
                autosaveAgain = true
            } else {
                startAutosave(loop)
            }
        case .message(.autosaved(let number)):
            // A report of an autosave already taken in (before a Send) changes nothing.
            guard number == autosaveNumber, autosaveRunning != nil else { return nil }
            let again = autosaveAgain
            finishAutosave()
            // Through the timer, so that the rule "none while a submission runs" holds for it too.
            if again { loop.schedule(.autosave, after: 0, key: "autosave") }
        case .message(.countdown):
            let effects = FormUpdate.update(&screen, .countdownTick)
            if case .countdown? = screen.dialog { loop.schedule(.countdown, after: 1000, key: "countdown") }
            return perform(effects, in: loop)
        case .message(.loadAddresses):
            loadAddresses(loop)
        case .message(.addressesLoaded):
            if let token = currentToken() { return perform(showCompletions(for: token), in: loop) }
        case .message(.queried(let token, let entries)):
            queryRunning = false
            queryAnswer = (token, entries)
            // The token typed meanwhile is asked next, if it is still being typed.
            if let wanted = currentToken(), wanted != token {
                startQuery(wanted, loop)
            } else {
                return perform(showCompletions(for: token), in: loop)
            }
        case .message(.progress(let status)):
            // What an upload says after Esc would cover "Stopping…".
            guard let running, !running.isCancelled, let line = status.lines.last else { return nil }
            _ = FormUpdate.update(&screen, .progress(line.text + (line.progress.map { " \(Int(($0 * 100).rounded(.down))) %" } ?? "")))
        case .message(.answered(let answer)):
            running = nil
            let effects = FormUpdate.update(&screen, .busy(nil))
            switch answer {
            case .finished(let result):
                finishAutosave()
                if autosaving != nil { services.stateFile.clear() }
                if let link = result.linkToOpen { return open(link.absoluteString, finishing: result, in: loop) }
                return result
            case .retry(let message):
                _ = FormUpdate.update(&screen, .status(message, isError: true))
            }
            return perform(effects, in: loop)
        }
        return nil
    }

    /// Opens the link the activity finished with in a browser (on the
    /// terminal, which a browser such as w3m needs); when none here can,
    /// shows it with a QR code until the person is done with it.
    private func open(_ link: String, finishing result: ActivityResult, in loop: ScreenLoop<Message>) -> ActivityResult? {
        var miss = Browser.Miss.noBrowser
        if services.system.hasBrowser(for: link) {
            let system = services.system
            let outcome: Browser.Miss? = loop.terminal.suspend {
                let tty = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
                guard tty >= 0 else { return .failed("cannot open /dev/tty") }
                defer { close(tty) }
                return system.open(link, terminal: tty)
            }
            guard let outcome else { return result }
            miss = outcome
        }
        let reason = switch miss {
        case .noBrowser: Localization.text("No browser here: scan the code with a phone, or open the link on another machine.")
        case .failed(let why): Localization.text("The browser did not open the link (%@): scan the code, or open the link elsewhere.", why)
        }
        let size = loop.terminal.size
        handoff = (LinkState(title: screen.title, url: link, reason: reason, width: size.width, height: size.height, colors: screen.colors),
                   result)
        return nil
    }

    /// Puts a link on the clipboard; what to tell the person, and whether it is a problem.
    static func copy(_ link: String, system: SystemIntegration) -> (news: String, isError: Bool) {
        do {
            let throughTerminal = try system.copy(link)
            return (throughTerminal ? Localization.text("Sent the link to the terminal's clipboard (OSC 52)") : Localization.text("Copied the link"),
                    false)
        } catch {
            return (Localization.text("Cannot copy the link: %@", ErrorText.sentence(error)), true)
        }
    }

    /// A message for the link screen; the result once the person is done.
    private func handleLink(_ message: LinkMessage) -> ActivityResult? {
        guard let result = handoff?.result, var state = handoff?.screen else { return nil }
        for effect in LinkUpdate.update(&state, message) {
            switch effect {
            case .done:
                return result
            case .copy(let link):
                let (news, isError) = ComposeProgram.copy(link, system: services.system)
                _ = LinkUpdate.update(&state, .status(news, isError: isError))
            }
        }
        handoff = (state, result)
        return nil
    }

    /// A closed terminal (SIGHUP, reads that keep failing) or a TERM: save
    /// what was typed now, not within the half second, and stop.
    func terminalClosed(in loop: ScreenLoop<Message>) -> ActivityResult {
        // The activity finished already: the link was made and shown.
        if let handoff { return handoff.result }
        finishAutosave()
        // Only a form that autosaves (Mail) keeps what was typed, and the
        // one state file --resume reads is its own.
        guard autosaving != nil else {
            return ActivityResult(activityType: activity.activityType, outcome: .cancelled,
                                  error: ActivityError(code: ActivityError.Code.terminalClosed, message: "the terminal went away"))
        }
        if screen.changed { save() }
        let kept = services.stateFile.holdsOwn ? " (share --resume reopens it)" : ""
        return ActivityResult(activityType: activity.activityType, outcome: .cancelled,
                              error: ActivityError(code: ActivityError.Code.terminalClosed,
                                                   message: "the terminal went away; what was typed is saved" + kept))
    }

    /// Performs effects, and those of the answers they bring, in order.
    private func perform(_ effects: [FormEffect], in loop: ScreenLoop<Message>) -> ActivityResult? {
        var queue = effects
        func apply(_ message: FormMessage) { queue += FormUpdate.update(&screen, message) }
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            switch effect {
            case .changed(let field):
                if autosaving != nil, !loop.isScheduled("autosave") { loop.schedule(.autosave, after: ComposeProgram.autosaveDelay, key: "autosave") }
                guard let index = screen.index(of: field) else { continue }
                if let counting {
                    apply(.count(field: field, counting.count(in: screen.fields[index].field, value: screen.fields[index].value)))
                }
                // One-line fields are checked as they are typed; the body at Send (its warnings).
                if let validating, screen.fields[index].field.kind != .multilineText {
                    apply(.problem(field: field, validating.problem(in: screen.fields[index].field, value: screen.fields[index].value)))
                }
            case .completeAddress(let token):
                if let suggestions = screen.fields.indices.contains(screen.focus) ? screen.fields[screen.focus].field.suggestions : nil {
                    // The field's own list: filtered now, nothing to look up.
                    let lowered = token.lowercased()
                    apply(.completions(suggestions.filter { $0.lowercased().contains(lowered) }))
                    continue
                }
                // What is loaded shows in this frame; the rest as it comes (addressesLoaded, queried).
                queue += showCompletions(for: token)
                if services.addressBook.hasQueryCommand && !queryRunning { startQuery(token, loop) }
            case .completePath(let text):
                apply(.pathCompletions(PathCompletion.candidates(for: text, environment: services.environment,
                                                                 from: FileManager.default.currentDirectoryPath)))
            case .attach(let typed):
                let path = PathCompletion.expand(typed, environment: services.environment, from: FileManager.default.currentDirectoryPath)
                if let row = ComposeProgram.row(forLine: path, detector: services.detector) {
                    apply(.attached(row))
                } else {
                    apply(.status(ComposeProgram.attachProblem(path), isError: true))
                }
            case .openEditor(let field, let text):
                let edited = loop.terminal.suspend { services.system.edit(text) }
                apply(.edited(field: field, text: edited))
            case .submit(let action, let values, let confirmed):
                // What the activity does next (send, save for good) comes after the autosave running now.
                finishAutosave()
                // What stops the action first (no recipient), then what to confirm (no subject).
                if let refusal = validating?.refusal(before: action, values: values) {
                    apply(.status(refusal, isError: true))
                    continue
                }
                let warnings = confirmed ? [] : validating?.warnings(before: action, values: values) ?? []
                guard warnings.isEmpty else {
                    apply(.confirm(action, warnings: warnings))
                    continue
                }
                // An action done later asks when first (Mail's Send later).
                if action.role == .later {
                    apply(.askTime(action, values))
                    continue
                }
                // An action with an undo window waits it out on screen first (Mail's undo send).
                if action.undoWindow > 0 {
                    apply(.countdown(action, values))
                    loop.schedule(.countdown, after: 1000, key: "countdown")
                    continue
                }
                run(action, values, loop)
            case .run(let action, let values):
                run(action, values, loop)
            case .readTime(let action, let text):
                // What the time means, as it is typed; nothing while it means nothing yet.
                if case .accepted(_, let shown)? = scheduling?.time(text, for: action) {
                    apply(.timeNote(shown, isProblem: false))
                }
            case .schedule(let action, let values, let text):
                switch scheduling?.time(text, for: action) ?? .refused(Localization.text("This form cannot wait for a time")) {
                case .accepted(let value, _): apply(.timeAccepted(action, values, value: value))
                case .refused(let reason): apply(.timeNote(reason, isProblem: true))
                }
            case .stop:
                running?.cancel()
            case .discard:
                finishAutosave()
                if let autosaving {
                    autosaving.discardAutosave()
                    services.stateFile.clear()
                }
                return ActivityResult(activityType: activity.activityType, outcome: .cancelled)
            }
        }
        return nil
    }

    /// Runs `action` with `values`: the activity's submission, off the loop.
    private func run(_ action: FormAction, _ values: [String: String], _ loop: ScreenLoop<Message>) {
        _ = FormUpdate.update(&screen, .busy(action))
        let submit = self.submit, poster = loop.poster
        let display = LiveDisplay { poster.post(.progress($0)) }
        running = display
        let terminal = loop.terminal
        let submitted = SubmittedForm(action: action.id, values: values, display: display) { work in terminal.suspend(work) }
        loop.start { .answered(await submit(submitted)) }
    }

    /// The completions known for `token`, if it is still the one being
    /// typed: the vCards' and aliases' (none while they load), then what
    /// `query-command` answered for it.
    private func showCompletions(for token: String) -> [FormEffect] {
        guard currentToken() == token else { return [] }
        let local = services.addressBook.loadedMatches(token) ?? []
        let queried = queryAnswer?.token == token ? queryAnswer?.entries ?? [] : []
        return FormUpdate.update(&screen, .completions(AddressBook.merge(local, queried).map(\.formatted)))
    }

    /// The address being typed in the focused field, while completions are
    /// wanted for it (two characters or more, or one wide one such as a
    /// Hangul syllable; not after Esc, not in another field).
    private func currentToken() -> String? {
        guard let field = screen.completionField, screen.fields.indices.contains(screen.focus),
              screen.fields[screen.focus].field.id == field else { return nil }
        let token = FormUpdate.currentAddressToken(screen.fields[screen.focus].editor)
        return token.count >= 2 || DisplayWidth.of(token) >= 2 ? token : nil
    }

    /// Runs `query-command` for `token` on a thread of its own (one at a
    /// time: the token typed meanwhile is asked next).
    private func startQuery(_ token: String, _ loop: ScreenLoop<Message>) {
        let book = services.addressBook, poster = loop.poster
        queryRunning = true
        let work: @Sendable () -> Void = { poster.post(.queried(token: token, book.query(token))) }
        if !services.usesThreads || !BackgroundThread.start(work) { work() }
    }

    /// Autosaves now, in this turn (the terminal went away).
    private func save() {
        let outcome = AutosaveOutcome()
        ComposeProgram.autosave(screen, job: autosaving?.autosaveJob(), stateFile: services.stateFile,
                                activity: activity.activityType, into: outcome)
        take(outcome)
    }

    /// Starts an autosave of the screen as it is: on a thread of its own,
    /// so that the next keystroke never waits for the message to be
    /// written; it posts `.autosaved` when done.
    private func startAutosave(_ loop: ScreenLoop<Message>) {
        let snapshot = screen, job = autosaving?.autosaveJob(), stateFile = services.stateFile, type = activity.activityType
        let outcome = AutosaveOutcome(), poster = loop.poster
        autosaveNumber += 1
        let number = autosaveNumber
        let work: @Sendable () -> Void = {
            ComposeProgram.autosave(snapshot, job: job, stateFile: stateFile, activity: type, into: outcome)
            poster.post(.autosaved(number))
        }
        if services.usesThreads, let thread = BackgroundThread.startJoinable(work) {
            autosaveRunning = (thread, outcome)
        } else {
            autosaveRunning = (nil, outcome)
            work()
        }
    }

    /// Waits for the autosave running, if any, and takes in its outcome. No
    /// other is due after it (Send, discard and a closed terminal come next).
    private func finishAutosave() {
        autosaveAgain = false
        guard let (thread, outcome) = autosaveRunning else { return }
        thread?.join()
        autosaveRunning = nil
        take(outcome)
    }

    /// An autosave's outcome taken in: the activity learns where the values went, a failure is shown.
    private func take(_ outcome: AutosaveOutcome) {
        switch outcome.result.withLock({ $0 }) {
        case .saved(let place)?: autosaving?.autosaved(at: place)
        case .failed(let reason)?:
            _ = FormUpdate.update(&screen, .status(Localization.text("Autosave failed: %@", reason), isError: true))
        case nil: break
        }
    }

    /// The values of `form` saved through `job`, and kept for `--resume`; off the main actor.
    nonisolated static func autosave(_ form: FormState, job: AutosaveJob?, stateFile: ComposeStateFile, activity: ActivityType,
                                     into outcome: AutosaveOutcome) {
        let values = form.values
        var draft: String?
        if let job {
            do {
                let place = try job(values)
                draft = place
                outcome.result.withLock { $0 = .saved(place) }
            } catch {
                outcome.result.withLock { $0 = .failed(ErrorText.sentence(error)) }
            }
        }
        stateFile.write(activity: activity, values: values, draft: draft)
    }

    /// A row for a line of the attachment field (a resumed row keeps the
    /// size and time it was attached with, so a later change is noticed),
    /// or nil when the file is not a readable regular file.
    private static func row(forLine line: String, detector: any ContentTypeDetector) -> AttachmentRow? {
        let resumed = AttachedFile(line: line)
        guard let current = AttachedFile.current(atPath: resumed.path) else { return nil }
        let type = (try? detector.contentType(ofFileAt: current.path)) ?? "application/octet-stream"
        return AttachmentRow(file: resumed.stamp == nil ? current : resumed, contentType: type)
    }

    private static func attachProblem(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) != 0 { return Localization.text("No such file: %@", path) }
        if info.st_mode & S_IFMT == S_IFDIR { return Localization.text("%@ is a folder; attach files", path) }
        if info.st_mode & S_IFMT != S_IFREG { return Localization.text("%@ is not a regular file", path) }
        return Localization.text("Cannot read %@", path)
    }
}

/// Where the compose screen's values are kept between runs, for `--resume`:
/// What an autosave came to, handed from its thread to the screen.
final class AutosaveOutcome: Sendable {
    enum Result: Sendable {
        case saved(String)
        case failed(String)
    }

    let result = Mutex<Result?>(nil)
}

/// Paths typed at the attach prompt, which starts in the current folder
/// as a shell does: `~` expanded, a relative path taken from `folder`,
/// Tab completion.
enum PathCompletion {
    /// The path `text` names: absolute, with `~` expanded and a relative path under `folder`.
    static func expand(_ text: String, environment: [String: String], from folder: String) -> String {
        if text == "~" || text.hasPrefix("~/"), let home = environment["HOME"] { return home + text.dropFirst() }
        if text.hasPrefix("/") || folder.isEmpty { return text }
        return (folder.hasSuffix("/") ? folder : folder + "/") + text
    }

    /// Entries of the typed path's folder that start with its last part;
    /// folders end in "/". Returned as typed (with `~` kept, relative
    /// paths relative).
    static func candidates(for text: String, environment: [String: String], from current: String) -> [String] {
        let expanded = expand(text, environment: environment, from: current)
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
