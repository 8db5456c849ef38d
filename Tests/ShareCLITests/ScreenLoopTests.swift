import Foundation
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal
import ShareTerminalTesting
import Synchronization
import Testing
@testable import ShareCLI

/// The screen loop driving the compose screen and the picker on an
/// in-memory terminal: autosave timing in the terminal's clock, a hang-up,
/// "Sending…", a refused send that keeps the screen open, and a resize,
/// without tmux and without sleeping.
@MainActor
struct ScreenLoopTests {
    /// A form activity that records its autosaves, in the terminal's clock.
    final class NoteActivity: Activity, FormAutosaving {
        var activityType: ActivityType { ActivityType(rawValue: "com.example.note") }
        var activityTitle: String { "Note" }
        let clock: () -> Int
        private(set) var autosaves: [(at: Int, values: [String: String])] = []
        private(set) var discarded = 0
        /// The values the last job saved, handed from the job to `autosaved(at:)`.
        final class Saved: Sendable { let values = Mutex<[String: String]>([:]) }
        private let saved = Saved()

        init(clock: @escaping () -> Int) { self.clock = clock }

        func autosaveJob() -> AutosaveJob {
            let saved = saved
            return { values in
                saved.values.withLock { $0 = values }
                return "/drafts/note"
            }
        }

        func autosaved(at place: String) { autosaves.append((clock(), saved.values.withLock { $0 })) }

        func discardAutosave() { discarded += 1 }
        func perform(_ session: ActivitySession) async { session.finish(.performed) }
    }

    static let form = ActivityForm(title: "New Note", fields: [
        FormField(id: "to", label: "To", kind: .addressList),
        FormField(id: "subject", label: "Subject", kind: .text, initialValue: "Minutes"),
        FormField(id: "body", label: "", kind: .multilineText),
    ], actions: [FormAction(id: "send", label: "Send", progress: "Sending…")])

    /// A state folder of its own, removed at the end.
    final class World {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("share-loop-\(UUID().uuidString.prefix(8))")
        var environment: [String: String] { ["HOME": root.path, "XDG_STATE_HOME": root.appendingPathComponent("state").path] }
        lazy var stateFile = ComposeStateFile(locations: Locations(environment: environment))
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// Presents `form` for `activity` on `terminal`, with `submit` answering submissions.
    static func present(on terminal: InMemoryTerminal, activity: NoteActivity, world: World,
                        submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission = { _ in .retry("unused") })
    async -> ActivityResult {
        let presenter = ScreenPresenter(colors: true, addressBook: AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: nil),
                                         detector: MagicContentTypeDetector(), environment: world.environment,
                                         stateFile: world.stateFile, terminal: { terminal }, usesThreads: false)
        return await presenter.present(form, for: activity, submit: submit)
    }

    static func type(_ text: String) -> [InMemoryTerminal.Step] { text.map { .input(.character($0)) } }

    @Test func autosaveRunsHalfASecondAfterTheFirstChangeNotAfterEveryKey() async {
        let world = World()
        var terminal: InMemoryTerminal!
        terminal = InMemoryTerminal(script: [.input(.character("a")), .wait(milliseconds: 200), .input(.character("b")),
                                             .wait(milliseconds: 200), .input(.character("c")), .wait(milliseconds: 1000),
                                             .input(.character("d")), .wait(milliseconds: 700),
                                             .input(.escape), .input(.character("d"))])
        let activity = NoteActivity { terminal.milliseconds }
        let result = await Self.present(on: terminal, activity: activity, world: world)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(activity.autosaves.map(\.at) == [500, 1900], "keys at 0, 200, 400 save once at 500; a key at 1400 saves at 1900")
        #expect(activity.autosaves.map { $0.values["to"] } == ["abc", "abcd"])
        #expect(result.outcome == .cancelled && result.error == nil)
        #expect(activity.discarded == 1, "discarding the message discards its autosave")
        #expect(terminal.ended)
    }

    /// Keys that arrive together (a paste) are all taken before the next
    /// frame; keys that arrive one by one are each drawn.
    @Test func aPasteIsDrawnOnceWhenItIsAllIn() async {
        func frames(_ keys: [InMemoryTerminal.Step]) async -> [String] {
            let world = World()
            var terminal: InMemoryTerminal!
            terminal = InMemoryTerminal(script: keys + [.until("the text is shown") { $0.lines.joined().contains("hello") },
                                                        .input(.escape), .input(.character("d"))])
            let activity = NoteActivity { terminal.milliseconds }
            _ = await Self.present(on: terminal, activity: activity, world: world)
            #expect(terminal.problems.isEmpty, "\(terminal.problems)")
            return terminal.frames.map { $0.lines.joined(separator: "\n") }
        }
        let pasted = await frames([.typedAhead("hello".map { .character($0) })])
        #expect(pasted.contains { $0.contains("hello") })
        #expect(!pasted.contains { $0.contains("hel") && !$0.contains("hello") }, "no frame shows part of the paste")
        let typed = await frames(Self.type("hello"))
        #expect(typed.contains { $0.contains("hel") && !$0.contains("hello") }, "each key typed alone is drawn")
        // Input that makes no event at the end of a paste (a mouse button's release) still lets
        // the paste be drawn, in a form with no timer running (no autosave) to end the wait.
        let world = World()
        let released = InMemoryTerminal(script: [.typedAhead("hello".map { .character($0) } + [nil]),
                                                 .until("the paste is shown") { $0.lines.joined().contains("hello") },
                                                 .input(.escape), .input(.character("d"))])
        let presenter = ScreenPresenter(colors: true, addressBook: AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: nil),
                                         detector: MagicContentTypeDetector(), environment: world.environment,
                                         stateFile: world.stateFile, terminal: { released }, usesThreads: false)
        _ = await presenter.present(Self.form, for: PlainActivity(), submit: { _ in .retry("unused") })
        #expect(released.problems.isEmpty, "\(released.problems)")
    }

    @Test func aHangUpSavesWhatWasTypedAtOnce() async throws {
        let world = World()
        var terminal: InMemoryTerminal!
        terminal = InMemoryTerminal(script: Self.type("kim@") + [.wait(milliseconds: 100), .hangUp])
        let activity = NoteActivity { terminal.milliseconds }
        let result = await Self.present(on: terminal, activity: activity, world: world)
        #expect(activity.autosaves.map(\.at) == [100], "saved when the terminal went, not half a second later")
        #expect(activity.autosaves.first?.values["to"] == "kim@")
        #expect(result.outcome == .cancelled)
        #expect(result.error?.code == "terminal-closed")
        let saved = try #require(world.stateFile.latest(), "compose.json keeps the values for --resume")
        #expect(saved.values["to"] == "kim@" && saved.draft == "/drafts/note")
    }

    /// A form activity that does not autosave (a post, a print).
    final class PlainActivity: Activity {
        var activityType: ActivityType { ActivityType(rawValue: "com.example.plain") }
        var activityTitle: String { "Plain" }
        func perform(_ session: ActivitySession) async { session.finish(.performed) }
    }

    @Test func aFormThatDoesNotAutosaveLeavesMailsUnfinishedMessageAlone() async throws {
        let world = World()
        world.stateFile.write(activity: .mail, values: ["to": "lee@example.com"], draft: "/drafts/mail")
        let presenter = { (terminal: InMemoryTerminal) in
            ScreenPresenter(colors: true, addressBook: AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: nil),
                             detector: MagicContentTypeDetector(), environment: world.environment,
                             stateFile: world.stateFile, terminal: { terminal }, usesThreads: false)
        }
        // Typing, a second's wait, and a hang-up: nothing written, and nothing said about --resume.
        let hungUp = InMemoryTerminal(script: Self.type("kim@") + [.wait(milliseconds: 1000), .hangUp])
        let closed = await presenter(hungUp).present(Self.form, for: PlainActivity(), submit: { _ in .retry("unused") })
        #expect(closed.error?.code == "terminal-closed")
        #expect(closed.error?.message == "the terminal went away")
        // A finished form and a discarded one.
        let sent = InMemoryTerminal(script: Self.type("x") + [.input(.control("x")), .idle])
        let finished = await presenter(sent).present(Self.form, for: PlainActivity()) { _ in
            .finished(ActivityResult(activityType: ActivityType(rawValue: "com.example.plain"), outcome: .performed))
        }
        #expect(finished.outcome == .performed)
        let escaped = InMemoryTerminal(script: Self.type("y") + [.input(.escape), .input(.character("d"))])
        #expect(await presenter(escaped).present(Self.form, for: PlainActivity(), submit: { _ in .retry("unused") }).outcome == .cancelled)
        let saved = try #require(world.stateFile.latest(), "Mail's unfinished message is still there for --resume")
        #expect(saved.activity == ActivityType.mail.rawValue && saved.values == ["to": "lee@example.com"] && saved.draft == "/drafts/mail")
    }

    @Test func aRefusedSendShowsSendingThenKeepsTheScreenOpenWithTheReason() async {
        let world = World()
        var submissions: [SubmittedForm] = []
        let refusal = "550 5.1.1 mailbox unavailable"
        let terminal = InMemoryTerminal(script: Self.type("kim@example.com") + [
            .input(.control("x")),
            .until("the refusal on screen") { $0.lines.contains { $0.contains(refusal) } },
            .input(.tab), .input(.character("!")),
            .input(.control("x")), .idle,
        ])
        let activity = NoteActivity { terminal.milliseconds }
        let result = await Self.present(on: terminal, activity: activity, world: world) { submitted in
            submissions.append(submitted)
            await Task.yield()
            return submissions.count == 1 ? .retry(refusal)
                : .finished(ActivityResult(activityType: ActivityType(rawValue: "com.example.note"), outcome: .sent))
        }
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(terminal.showed("Sending…"), "the screen says it is sending while the send runs")
        #expect(submissions.count == 2)
        #expect(submissions.last?.values["subject"] == "Minutes!", "the screen stayed open and took more typing after the refusal")
        #expect(submissions.map(\.action) == ["send", "send"])
        #expect(result.outcome == .sent)
        #expect(world.stateFile.latest() == nil, "a finished send leaves nothing to resume")
    }

    @Test func aResizeRedrawsAtTheNewSize() async {
        let world = World()
        let terminal = InMemoryTerminal(width: 80, height: 24, script: [.input(.resize(width: 60, height: 18)), .input(.escape)])
        let activity = NoteActivity { terminal.milliseconds }
        let result = await Self.present(on: terminal, activity: activity, world: world)
        #expect(terminal.frames.first.map { [$0.width, $0.height] } == [80, 24])
        #expect(terminal.frames.last.map { [$0.width, $0.height] } == [60, 18])
        #expect(terminal.lastFrame?.lines.first?.contains("New Note") == true)
        #expect(result.outcome == .cancelled)
    }

    @Test func thePickerPicksThroughTheSameLoop() {
        let sheet = ShareSheet(activityItems: [.item(.text("PIN 4821"))], applicationActivities: [NoteActivity { 0 }],
                               systemActivities: [])
        let terminal = InMemoryTerminal(width: 70, height: 20, script: [.input(.resize(width: 64, height: 18)), .input(.enter)])
        let picked = PickerSession.run(on: terminal, sheet: sheet, activities: sheet.eligibleActivities(),
                                       items: [.text("PIN 4821")], title: nil)
        #expect(picked?.type == ActivityType(rawValue: "com.example.note"))
        #expect(terminal.frames.first?.lines.joined().contains("Note") == true)
        #expect(terminal.frames.last.map { [$0.width, $0.height] } == [64, 18])
    }

    @Test func pinningFromThePickerMovesTheTileFirstAndSaysSo() {
        final class Plain: Activity {
            let activityType: ActivityType
            let activityTitle: String
            init(_ name: String, _ title: String) {
                activityType = ActivityType(rawValue: "com.example." + name)
                activityTitle = title
            }
            func canPerform(with items: [ShareItem]) -> Bool { true }
            func perform(_ session: ActivitySession) async { session.finish(completed: true) }
        }
        let sheet = ShareSheet(activityItems: [.item(.text("PIN 4821"))],
                               applicationActivities: [Plain("alpha", "Alpha"), Plain("bravo", "Bravo")], systemActivities: [])
        var toggled: [ActivityType] = []
        let togglePin = { (type: ActivityType) -> String in
            toggled.append(type)
            sheet.apply(ActivityFilter(pinned: [type]))
            return "Pinned \(type.rawValue)"
        }
        let terminal = InMemoryTerminal(width: 80, height: 24, script: [.input(.right), .input(.character("p")), .input(.escape)])
        let picked = PickerSession.run(on: terminal, sheet: sheet, activities: sheet.eligibleActivities(),
                                       items: [.text("PIN 4821")], title: nil, togglePin: togglePin)
        #expect(picked == nil)
        #expect(toggled == [ActivityType(rawValue: "com.example.bravo")])
        let after = terminal.frames.last?.lines ?? []
        #expect(after.last?.contains("Pinned com.example.bravo") == true, "\(after.joined(separator: "\n"))")
        let titles = after.joined(separator: "\n")
        let bravo = titles.range(of: "Bravo"), alpha = titles.range(of: "Alpha")
        #expect(bravo != nil && alpha != nil && bravo!.lowerBound < alpha!.lowerBound, "Bravo comes first once pinned:\n\(titles)")
    }

    @Test func aClosedTerminalDismissesThePicker() {
        let sheet = ShareSheet(activityItems: [.item(.text("PIN 4821"))], applicationActivities: [NoteActivity { 0 }],
                               systemActivities: [])
        let terminal = InMemoryTerminal(script: [.input(.right), .hangUp])
        let picked = PickerSession.run(on: terminal, sheet: sheet, activities: sheet.eligibleActivities(),
                                       items: [.text("PIN 4821")], title: nil)
        #expect(picked == nil)
    }

    /// An activity that must ask something slow whether it can run; the
    /// question blocks until the test lets it answer.
    final class SlowActivity: AvailabilityChecking {
        var activityType: ActivityType { ActivityType(rawValue: "com.example.slow") }
        var activityTitle: String { "Slow" }
        let answer: Availability
        let gate: Gate
        private(set) var settled: Availability?
        private(set) var askedOnMainThread = 0

        init(answer: Availability, gate: Gate) {
            self.answer = answer
            self.gate = gate
        }

        var availability: Availability {
            askedOnMainThread += 1
            return settled ?? answer
        }
        var settledAvailability: Availability? { settled }
        func availabilityCheck() -> @Sendable () -> Availability {
            let answer = self.answer
            let gate = self.gate
            return { gate.wait(); return answer }
        }
        func settle(_ availability: Availability) { settled = availability }
        func perform(_ session: ActivitySession) async { session.finish(.performed) }
    }

    /// A one-shot gate between threads: `wait` blocks until `open`.
    final class Gate: @unchecked Sendable {
        private var descriptors: [Int32] = [-1, -1]
        init() { _ = pipe(&descriptors) }
        deinit { for descriptor in descriptors { close(descriptor) } }
        func open() { var byte: UInt8 = 1; _ = write(descriptors[1], &byte, 1) }
        func wait() { var byte: UInt8 = 0; _ = read(descriptors[0], &byte, 1) }
    }

    @Test func aTileThatMustAskIsAddedWhenItsAnswerComesWithoutDelayingThePaint() {
        let gate = Gate()
        let slow = SlowActivity(answer: .available, gate: gate)
        let sheet = ShareSheet(activityItems: [.item(.text("PIN 4821"))], applicationActivities: [slow, NoteActivity { 0 }],
                               systemActivities: [])
        let (eligible, pending) = sheet.eligibleActivitiesNotWaiting()
        #expect(eligible.map(\.activityTitle) == ["Note"])
        #expect(pending.map(\.activityTitle) == ["Slow"])
        #expect(slow.askedOnMainThread == 0, "nothing slow is asked before the first paint")
        let terminal = InMemoryTerminal(width: 70, height: 20, script: [
            .until("the first paint, without Slow") { frame in
                // The question is answered only once the picker has painted without it.
                let painted = frame.lines.joined().contains("Note") && !frame.lines.joined().contains("Slow")
                if painted { gate.open() }
                return painted
            },
            .until("the Slow tile") { $0.lines.joined().contains("Slow") },
            .input(.enter),
        ])
        let picked = PickerSession.run(on: terminal, sheet: sheet, activities: eligible, pending: pending,
                                       items: [.text("PIN 4821")], title: nil)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(slow.settled == .available)
        // The Slow tile comes first (it is first in the order), but the selection stays on Note.
        #expect(picked?.type == ActivityType(rawValue: "com.example.note"))
        #expect(slow.askedOnMainThread <= 1, "settled: never asked twice")
    }

    @Test func aTileThatTurnsOutUnavailableNeverShows() {
        let gate = Gate()
        gate.open()
        let slow = SlowActivity(answer: .unavailable("no printer"), gate: gate)
        let sheet = ShareSheet(activityItems: [.item(.text("PIN 4821"))], applicationActivities: [NoteActivity { 0 }, slow],
                               systemActivities: [])
        let (eligible, pending) = sheet.eligibleActivitiesNotWaiting()
        let terminal = InMemoryTerminal(width: 70, height: 20, script: [.until("Note") { $0.lines.joined().contains("Note") },
                                                                        .until("the answer") { _ in slow.settled != nil },
                                                                        .input(.escape)])
        _ = PickerSession.run(on: terminal, sheet: sheet, activities: eligible, pending: pending, items: [.text("PIN 4821")], title: nil)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(slow.settled == .unavailable("no printer"))
        #expect(!terminal.showed("Slow"))
        #expect(sheet.evaluate(slow).detail == "no printer", "the answer is kept for --explain")
    }

    // MARK: - Address completion off the keystrokes' way

    /// A vdir of `count` vCards, the last one Jiwoo's.
    static func contacts(_ count: Int, in world: World) throws -> String {
        let folder = world.root.appendingPathComponent("contacts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for n in 0..<count {
            let (name, email) = n == count - 1 ? ("Jiwoo Unique", "jiwoo.unique@example.com") : ("김민수 \(n)", "minsu.\(n)@example.kr")
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c\(n)\r\nFN:\(name)\r\nEMAIL:\(email)\r\nEMAIL:other.\(n)@example.org\r\nEND:VCARD\r\n"
            try card.write(to: folder.appendingPathComponent("c\(n).vcf"), atomically: false, encoding: .utf8)
        }
        return folder.path
    }

    static func presentWithThreads(on terminal: InMemoryTerminal, book: AddressBook, world: World) async -> ActivityResult {
        let presenter = ScreenPresenter(colors: true, addressBook: book, detector: MagicContentTypeDetector(),
                                         environment: world.environment, stateFile: world.stateFile, terminal: { terminal })
        let activity = NoteActivity { terminal.milliseconds }
        return await presenter.present(form, for: activity) { _ in .retry("unused") }
    }

    /// With the vCards read on a thread of their own, suggestions for what
    /// was typed come once they are read, with no further key, and follow
    /// the typing from then on (bench/compose shows the first frame is not
    /// held up by the reading).
    @Test func suggestionsComeFromVCardsReadOffTheScreensThread() async throws {
        let world = World()
        let book = AddressBook(vcardDirectory: try Self.contacts(200, in: world), aliasFile: nil, queryCommand: nil)
        let terminal = InMemoryTerminal(script: Self.type("ji") + [
            .until("Jiwoo suggested") { $0.lines.contains { $0.contains("jiwoo.unique@example.com") } },
            .input(.character("w")), .input(.character("x")),
            .until("nothing suggested for jiwx") { !$0.lines.contains { $0.contains("jiwoo.unique@") } },
            .input(.backspace),
            .until("Jiwoo suggested again") { $0.lines.contains { $0.contains("Jiwoo Unique <jiwoo.unique@example.com>") } },
            // Esc hides the suggestions, the second asks, d discards.
            .input(.escape), .input(.escape), .input(.character("d")),
        ])
        let result = await Self.presentWithThreads(on: terminal, book: book, world: world)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(book.isLoaded)
        #expect(result.outcome == .cancelled)
    }

    /// A slow `query-command` never holds up typing: keys are taken and
    /// drawn while it runs, and its answer shows when it comes, for the
    /// text typed by then.
    @Test func aSlowQueryCommandNeverHoldsUpTyping() async throws {
        let world = World()
        try FileManager.default.createDirectory(at: world.root, withIntermediateDirectories: true)
        let gate = world.root.appendingPathComponent("gate").path
        #expect(mkfifo(gate, 0o600) == 0)
        // Held open both ways (O_RDWR never blocks on a FIFO; not inherited by the query): the query's
        // read waits for the line the test writes, whether it starts reading before or after.
        let writer = open(gate, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        defer { if writer >= 0 { close(writer) } }
        var opened = false
        let script = world.root.appendingPathComponent("query")
        // The first query waits for a line on the gate (and removes it); every query answers Jiwoo.
        try "#!/bin/sh\nif [ -p \"\(gate)\" ]; then read line < \"\(gate)\"; rm -f \"\(gate)\"; fi\nprintf 'jiwoo.unique@example.com\\tJiwoo Unique\\n'\n"
            .write(to: script, atomically: false, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        let book = AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: script.path + " %s")
        let terminal = InMemoryTerminal(script: Self.type("jiwoo") + [
            .until("the typing on screen while the query waits") { frame in
                guard frame.lines.contains(where: { $0.contains("jiwoo") }) else { return false }
                // Every key was drawn with the first query still waiting; now let the queries answer.
                #expect(!frame.lines.contains { $0.contains("jiwoo.unique@") })
                if !opened {
                    opened = true
                    // The first query (for "ji") gets its line: now.
                    #expect(write(writer, "go\n", 3) == 3)
                }
                return true
            },
            .until("the query's answer") { $0.lines.contains { $0.contains("Jiwoo Unique <jiwoo.unique@example.com>") } },
            .input(.escape), .input(.escape), .input(.character("d")),
        ])
        let result = await Self.presentWithThreads(on: terminal, book: book, world: world)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(result.outcome == .cancelled)
    }

    // MARK: - Item providers at work

    static func presenter(on terminal: InMemoryTerminal, world: World) -> ScreenPresenter {
        ScreenPresenter(colors: true, addressBook: AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: nil),
                         detector: MagicContentTypeDetector(), environment: world.environment, stateFile: world.stateFile,
                         terminal: { terminal }, usesThreads: false)
    }

    /// A provider that reports half its work, then finishes (or, with
    /// `untilCancelled`, works on until it is cancelled).
    static func provider(untilCancelled: Bool) -> ItemProvider {
        ItemProvider(placeholder: .text("report")) { context in
            context.reportProgress(0.5)
            while untilCancelled {
                try context.checkCancellation()
                try await Task.sleep(for: .milliseconds(2))
            }
            return .text("the report")
        }
    }

    @Test func providersShowTheirProgressUntilTheItemsAreReady() async throws {
        let world = World()
        let terminal = InMemoryTerminal(script: [.idle])
        let provider = Self.provider(untilCancelled: false)
        let items = try await Self.presenter(on: terminal, world: world).prepare(NoteActivity { 0 }, providers: [provider]) {
            [try await provider.item(for: ActivityType(rawValue: "com.example.note"))]
        }
        #expect(items == [.text("the report")])
        #expect(terminal.showed("Preparing the items for Note"))
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        #expect(terminal.ended)
    }

    @Test func escCancelsTheProviders() async throws {
        let world = World()
        let terminal = InMemoryTerminal(script: [.until("half the work") { $0.lines.contains { $0.contains("50%") } },
                                                 .input(.escape), .idle])
        let provider = Self.provider(untilCancelled: true)
        await #expect(throws: ItemProviderError.cancelled) {
            _ = try await Self.presenter(on: terminal, world: world).prepare(NoteActivity { 0 }, providers: [provider]) {
                [try await provider.item(for: ActivityType(rawValue: "com.example.note"))]
            }
        }
        #expect(provider.isCancelled)
        #expect(terminal.showed("Cancelling…"))
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
    }
}
