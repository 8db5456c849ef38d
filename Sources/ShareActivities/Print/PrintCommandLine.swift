import ShareCore
import ShareSupport

/// What a user can touch of Print from the command line: its options,
/// the request they build, the printers a shell completes, its error
/// codes and how a print is undone.
extension PrintActivity {
    public typealias Request = PrintRequest

    /// The heading of Print's options.
    nonisolated static let group = OptionSpec.Group("Print (--activity print; --printer skips the form)")

    public nonisolated static var options: [OptionSpec] {
        [
            OptionSpec("--printer", value: "NAME", group: group, activity: .print, help: "the CUPS destination (`lpstat -e` lists them)",
                       values: .completed("printers")),
            OptionSpec("--copies", value: "N", group: group, activity: .print, help: "copies, 1 to 999 (default 1)"),
            OptionSpec("--pages", value: "RANGE", group: group, activity: .print, help: "pages such as 1-3,7 or 5- (default all)"),
            OptionSpec("--sides", value: "SIDES", group: group, activity: .print,
                       help: "one, two or two-short-edge (default the printer's)", values: .words(["one", "two", "two-short-edge"])),
        ]
    }

    public nonisolated static var completions: [ActivityCompletion] {
        [.of(PrintActivity.self, "printers") { print, _ in print.destinationNames() }]
    }

    public nonisolated static var withoutTerminal: String? { Localization.text("add --printer NAME to print without it") }

    public nonisolated static var errorCodes: [String] { [ActivityError.Code.printFailed, ActivityError.Code.printerStopped] }

    public nonisolated static var undoSteps: [UndoStep] {
        [UndoStep("cancelPrintJob") { action, environment in
            guard let id = action["id"], let printer = action["printer"] else { return .failure(Undo.incomplete(action)) }
            return cancel(id, printer: printer, server: action["server"], environment: environment)
        }]
    }

    /// Cancels job `id` while CUPS still holds it, on the scheduler it was sent to (`server`).
    nonisolated static func cancel(_ id: String, printer: String, server: String?, environment: [String: String]) -> Result<String, UndoRefusal> {
        var environment = environment
        if let server { environment["CUPS_SERVER"] = server }
        let cups = CUPS(environment: environment)
        switch try? cups.job(id, printer: printer) {
        case .completed?: return .failure(UndoRefusal("job \(id) has printed already"))
        case .unknown?: return .failure(UndoRefusal("CUPS no longer knows job \(id) (printed, or removed)"))
        case .cancelled?, .aborted?: return .failure(UndoRefusal("job \(id) is not in the queue any more"))
        default: break
        }
        do { try cups.cancel(id, printer: printer) } catch { return .failure(UndoRefusal("cancel \(id): \(error.description)")) }
        return .success("cancelled job \(id)")
    }
}

extension UndoAction {
    /// Cancel a print job still in CUPS' queue, on the scheduler it was
    /// sent to (`server`: the `CUPS_SERVER` of that run, if set).
    static func cancelPrintJob(id: String, printer: String, server: String?) -> UndoAction {
        var values = ["id": id, "printer": printer]
        if let server { values["server"] = server }
        return UndoAction("cancelPrintJob", values)
    }
}

extension ActivityError.Code {
    /// Print: CUPS refused the job, or aborted it.
    public static let printFailed = "print-failed"
    /// Print: the printer is stopped, so the job waits in its queue.
    public static let printerStopped = "printer-stopped"
}

extension PrintRequest: ActivityRequest {
    /// Print's options as given: each value checked, the last one counting.
    public init(arguments: ActivityArguments) throws(UsageError) {
        self.init()
        for value in arguments.values("--printer") {
            guard !value.isEmpty, !value.contains(where: { $0 == "/" || $0 == "#" || $0 == " " || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                throw UsageError(Localization.text("--printer: '%@' is not a printer name (no spaces, '/' or '#'); `lpstat -e` lists them", value))
            }
            printer = value
        }
        for value in arguments.values("--copies") {
            guard let copies = PrintRequest.copies(value) else {
                throw UsageError(Localization.text("--copies takes a number from 1 to 999, not '%@'", value))
            }
            self.copies = copies
        }
        for value in arguments.values("--pages") {
            guard PrintRequest.isPageRange(value) else {
                throw UsageError(Localization.text("--pages takes pages and ranges such as 1-3,7 or 5-, not '%@'", value))
            }
            pages = value
        }
        for value in arguments.values("--sides") {
            guard let sides = PrintRequest.Sides(rawValue: value) else {
                throw UsageError(Localization.text("--sides takes one, two or two-short-edge, not '%@'", value))
            }
            self.sides = sides
        }
    }
}
