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

/// Shows what an activity puts on the terminal, each screen in its own
/// file: its form (`FormScreen.swift`: Mail's compose screen, with
/// autosave, address checks and completion, attachments, `$EDITOR`, and
/// submissions that keep the screen open when they fail), its live status
/// (`LiveScreen.swift`), its items' preparation (`PreparationScreen.swift`),
/// a choice of one of a list (`ChoiceScreen.swift`) and what it gave back
/// (`ResultScreen.swift`).
@MainActor
final class ScreenPresenter: ActivityFormPresenter {
    /// Opens the terminal the form is drawn on.
    typealias TerminalOpener = @MainActor () throws -> any TerminalBackend

    let openTerminal: TerminalOpener
    let services: ComposeServices

    /// `usesThreads` false runs autosaves, the address book's reading and
    /// `query-command` in the screen's own turn (tests in the terminal's clock).
    init(colors: Bool, addressBook: AddressBook, detector: any ContentTypeDetector, environment: [String: String],
         stateFile: ComposeStateFile, keys: KeyMap<FormCommand> = .form, terminal: TerminalOpener? = nil,
         usesThreads: Bool = true) {
        if let terminal {
            openTerminal = terminal
        } else {
            openTerminal = { try NcursesTerminal(wantColors: colors) }
        }
        services = ComposeServices(addressBook: addressBook, detector: detector, environment: environment,
                                   stateFile: stateFile, keys: keys, usesThreads: usesThreads)
    }

    func present(_ form: ActivityForm, for activity: any Activity,
                 submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission) async -> ActivityResult {
        let terminal: any TerminalBackend
        do { terminal = try openTerminal() } catch {
            return .failure(activity.activityType, ActivityError(code: ActivityError.Code.noTerminal, message: ErrorText.sentence(error)))
        }
        defer { terminal.end() }
        let program = ComposeProgram(form: form, activity: activity, submit: submit, services: services,
                                     size: terminal.size, colors: terminal.colors)
        let loop = ScreenLoop<ComposeProgram.Message>(terminal: terminal)
        // Taken after the first frame is drawn; only a form with addresses needs the book.
        if form.fields.contains(where: { $0.kind == .addressList && $0.suggestions == nil }) { loop.post(.loadAddresses) }
        return await loop.run(program)
    }
}

/// What the compose screen looks things up in and saves to.
struct ComposeServices {
    let addressBook: AddressBook
    let detector: any ContentTypeDetector
    let environment: [String: String]
    /// The browser, the clipboard and the editor.
    var system: SystemIntegration { SystemIntegration(environment: environment) }
    let stateFile: ComposeStateFile
    let keys: KeyMap<FormCommand>
    /// Whether autosaves, the address book's reading and `query-command`
    /// run on threads of their own (off the keystrokes' way).
    let usesThreads: Bool
}
