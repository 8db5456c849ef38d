import FoundationEssentials
import ShareCore
import ShareSupport

/// Print: images and files sent to CUPS through libcups, as `lp` sends
/// them, and followed until CUPS says the job is done.
///
/// The printer, copies, pages, sides and fit-to-page are chosen in a form
/// (the printer preselected as CUPS would choose it), or given on the
/// command line (`--printer` skips the form). The job id is the returned
/// item. The job is followed until it completes, is cancelled or aborted,
/// or its printer is found stopped; a job still printing after
/// ``followSeconds`` is left to CUPS and reported `queued`. A job on a
/// stopped printer is cancelled and reported `failed` with CUPS' words, so
/// that a failure never prints later by surprise.
@MainActor
public final class PrintActivity: SystemActivity, FormValidating, AvailabilityChecking {
    public nonisolated static var systemType: ActivityType { .print }

    /// How long a job is followed before it is left to CUPS.
    nonisolated static let followSeconds = 120.0
    /// How often the job's state is asked for.
    nonisolated static let pollMilliseconds = 300

    private let environment: [String: String]
    private let home: String
    private let request: PrintRequest
    private var items: [ShareItem] = []
    /// The availability once known: at once without a scheduler, else from CUPS' list.
    private var answer: Availability?
    private var judgedWithoutAsking = false

    /// Print for the context's environment and command line.
    public init(context: ActivityContext) {
        environment = context.environment
        home = context.locations.home
        request = context.request(for: PrintActivity.self)
    }

    public var activityImage: ActivityImage { .glyph("⎙") }

    // MARK: - Availability

    /// Available when CUPS lists a destination (as `lpstat -e` does).
    /// When the scheduler is surely not there (its socket is missing),
    /// that is known at once, without loading libcups; otherwise it is asked.
    public var availability: Availability {
        if let settled = settledAvailability { return settled }
        let asked = availabilityCheck()()
        settle(asked)
        return asked
    }

    public var settledAvailability: Availability? {
        if answer == nil && !judgedWithoutAsking {
            judgedWithoutAsking = true
            if let down = CUPS.schedulerDown(environment: environment, home: home) {
                answer = .unavailable("no printer: \(down)")
            }
        }
        return answer
    }

    public func availabilityCheck() -> @Sendable () -> Availability {
        let cups = CUPS(environment: environment)
        return {
            do throws(CUPSError) {
                return try cups.destinations().names.isEmpty ? .unavailable("no printer: `lpstat -e` lists none") : .available
            } catch {
                return .unavailable("no printer: \(error)")
            }
        }
    }

    public func settle(_ availability: Availability) {
        answer = availability
    }

    /// The destinations `lpstat -e` lists (none when CUPS cannot be asked), for completion scripts.
    func destinationNames() -> [String] { destinations().names }

    /// The destinations as CUPS lists them now (none when it cannot be asked).
    private func destinations() -> CUPS.Destinations {
        (try? CUPS(environment: environment).destinations()) ?? CUPS.Destinations(names: [], preferred: nil)
    }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    // MARK: - The form

    static var sidesChoices: [String] {
        [Localization.text("printer's default"), Localization.text("one-sided"), Localization.text("two-sided"), Localization.text("two-sided, short edge")]
    }
    static var scalingChoices: [String] { [Localization.text("actual size"), Localization.text("fit to page")] }

    /// The printer and its options, unless `--printer` chose already.
    public func makeForm() -> ActivityForm? {
        guard request.printer == nil else { return nil }
        let found = destinations()
        let files = items.compactMap(\.fileItem).map { "\($0.name) · \(ByteCount.words($0.size))" }.joined(separator: ", ")
        let sides = request.sides.map { PrintRequest.Sides.allCases.firstIndex(of: $0)! + 1 } ?? 0
        return ActivityForm(title: localizedActivityTitle, fields: [
            FormField(id: "files", label: Localization.text("Print"), kind: .preview, initialValue: files),
            FormField(id: "printer", label: Localization.text("Printer"), kind: .choice(found.names), initialValue: found.preferred ?? found.names.first ?? ""),
            FormField(id: "copies", label: Localization.text("Copies"), kind: .text, initialValue: String(request.copies)),
            FormField(id: "pages", label: Localization.text("Pages"), kind: .text, initialValue: request.pages ?? Localization.text("all")),
            FormField(id: "sides", label: Localization.text("Sides"), kind: .choice(PrintActivity.sidesChoices), initialValue: PrintActivity.sidesChoices[sides]),
            FormField(id: "scaling", label: Localization.text("Scaling"), kind: .choice(PrintActivity.scalingChoices),
                      initialValue: PrintActivity.scalingChoices[request.fitToPage ? 1 : 0]),
        ], actions: [FormAction(id: "print", label: Localization.text("Print"), progress: Localization.text("Printing…"))])
    }

    public func problem(in field: FormField, value: String) -> String? {
        let text = value.trimmingWhitespace()
        switch field.id {
        // On the form, in the reader's language (PrintRequest's rules are for --json and usage errors).
        case "copies": return PrintRequest.copies(text) == nil ? Localization.text("a number from 1 to 999") : nil
        case "pages":
            return PrintActivity.allPages(text) || PrintRequest.isPageRange(text) ? nil : Localization.text("pages such as 1-3,7 or 5-, or all")
        default: return nil
        }
    }

    public func warnings(before action: FormAction, values: [String: String]) -> [String] { [] }

    /// Whether the form's pages mean every page: `all`, or nothing typed.
    static func allPages(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty || trimmed.lowercased() == "all" || trimmed == Localization.text("all")
    }

    /// The request the form's values make (the command line's when there is no form).
    func request(from values: [String: String]) throws(ActivityError) -> PrintRequest {
        guard !values.isEmpty else { return request }
        var made = request
        made.printer = values["printer"]
        guard let copies = PrintRequest.copies(values["copies"] ?? "") else {
            throw ActivityError(code: ActivityError.Code.invalidInput, message: "copies: " + PrintRequest.copiesRule)
        }
        made.copies = copies
        let pages = (values["pages"] ?? "").trimmingWhitespace()
        if PrintActivity.allPages(pages) {
            made.pages = nil
        } else {
            guard PrintRequest.isPageRange(pages) else {
                throw ActivityError(code: ActivityError.Code.invalidInput, message: "pages: \(PrintRequest.pagesRule), or all")
            }
            made.pages = pages
        }
        let side = PrintActivity.sidesChoices.firstIndex(of: values["sides"] ?? "") ?? 0
        made.sides = side == 0 ? nil : PrintRequest.Sides.allCases[side - 1]
        made.fitToPage = values["scaling"] == PrintActivity.scalingChoices[1]
        return made
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        let cups = CUPS(environment: environment)
        let request: PrintRequest
        do { request = try self.request(from: session.formValues) } catch {
            session.fail(error)
            return
        }
        guard let printer = request.printer ?? destinations().preferred else {
            session.fail(ActivityError(code: ActivityError.Code.printFailed, message: "no printer chosen, and CUPS has no default: give --printer NAME"))
            return
        }
        var files: [String] = []
        for file in session.items.compactMap(\.fileItem) {
            guard let path = file.path?.path ?? MailActivity.materialize(file) else {
                session.fail(ActivityError(code: ActivityError.Code.printFailed, message: "cannot read \(file.name)"))
                return
            }
            files.append(path)
        }
        let title = session.subject ?? session.items.compactMap(\.fileItem).first?.name ?? "share"
        // libcups waits on the server: off the main actor, so the screen stays responsive.
        let (job, outcome) = await Task.detached {
            await PrintActivity.print(files, request: request, printer: printer, title: title, cups: cups)
        }.value
        switch outcome {
        case .success(let id): session.finish(.performed, returnedItems: [.text(id)], summary: Localization.text("Printing as job %@", id))
        case .failure(let error) where error.code == ActivityError.Code.queued:
            // Still in CUPS' queue: the history can cancel it.
            session.finish(.queued, returnedItems: job.map { [.text($0)] } ?? [], error: error,
                           undo: job.map { [.cancelPrintJob(id: $0, printer: printer, server: environment["CUPS_SERVER"])] } ?? [])
        case .failure(let error) where error.code == ActivityError.Code.cancelled:
            session.finish(.cancelled, error: error)
        case .failure(let error): session.fail(error)
        }
    }

    /// Submits the job and follows it: its id once submitted, and the id
    /// again as the success when it completed.
    nonisolated static func print(_ files: [String], request: PrintRequest, printer: String, title: String,
                                  cups: CUPS) async -> (id: String?, outcome: Result<String, ActivityError>) {
        let id: String
        do { id = try cups.submit(files, request: request, printer: printer, title: title) } catch {
            return (nil, .failure(ActivityError(code: ActivityError.Code.printFailed, message: "lp: \(error.description)")))
        }
        return (id, await follow(id, printer: printer, cups: cups))
    }

    /// Follows job `id` until it completes, fails, or the follow time passes.
    nonisolated static func follow(_ id: String, printer: String, cups: CUPS) async -> Result<String, ActivityError> {
        let deadline = ContinuousClock.now + .seconds(followSeconds)
        while true {
            let state: CUPS.JobState
            do { state = try cups.job(id, printer: printer) } catch {
                return .failure(ActivityError(code: ActivityError.Code.queued,
                                              message: "job \(id) was sent, but CUPS could not be asked about it: \(error)"))
            }
            switch state {
            case .completed, .unknown:
                // A job the scheduler no longer lists was purged after it finished (PreserveJobHistory off).
                return .success(id)
            case .cancelled:
                return .failure(ActivityError(code: ActivityError.Code.cancelled, message: "job \(id) was cancelled"
                    + (cups.words(about: id).map { " (\($0))" } ?? "")))
            case .aborted, .stopped:
                // A stopped job stays stopped until someone acts: cancelled, so that a failure never prints later.
                let words = cups.words(about: id) ?? (state == .aborted ? "aborted" : "stopped")
                let cancelled = state == .aborted || (try? cups.cancel(id, printer: printer)) != nil
                return .failure(ActivityError(code: ActivityError.Code.printFailed,
                    message: "CUPS \(state == .aborted ? "aborted" : "stopped") job \(id): \(words)"
                        + (state == .stopped && !cancelled ? " (`cancel \(id)` removes it)" : "")))
            case .held:
                return .failure(ActivityError(code: ActivityError.Code.queued,
                    message: "job \(id) is held in \(printer)'s queue" + (cups.words(about: id).map { " (\($0))" } ?? "")))
            case .pending, .processing:
                // A pending job on a stopped printer waits for a person: the printer's message says why.
                if state == .pending, let why = (try? cups.stopped(printer)) ?? nil {
                    let cancelled = (try? cups.cancel(id, printer: printer)) != nil
                    return .failure(ActivityError(code: ActivityError.Code.printerStopped,
                        message: "printer \(printer) is stopped: \(why); "
                            + (cancelled ? "job \(id) was cancelled, nothing will print" : "job \(id) waits in its queue (`cancel \(id)` removes it)")))
                }
            }
            if ContinuousClock.now >= deadline {
                return .failure(ActivityError(code: ActivityError.Code.queued,
                    message: "job \(id) is still printing after \(Int(followSeconds)) s; CUPS goes on with it (`lpstat -o \(printer)`)"))
            }
            try? await Task.sleep(for: .milliseconds(pollMilliseconds))
        }
    }
}
