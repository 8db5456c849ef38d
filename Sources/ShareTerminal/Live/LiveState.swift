import ShareCore

/// The screen of an activity that runs a while (Nearby): its status as
/// the activity last showed it, each offer's QR code made once, and
/// whether the person asked it to stop.
public struct LiveState: Sendable, Equatable {
    public private(set) var status: LiveStatus
    /// The QR codes of the offers, by what they hold, each in its sizes,
    /// largest first (made once, not at every progress report).
    public private(set) var codes: [String: Result<[QRCode], QRCode.Failure>] = [:]
    /// One line of news from the screen itself (`Copied the link`), and whether it is an error.
    public var note: String?
    public var noteIsError = false
    /// The person asked to stop; the activity is ending.
    public private(set) var stopping = false
    /// What is typed at the status's prompt so far.
    public var answer = ""
    public var width: Int
    public var height: Int
    public var colors: Bool

    public init(status: LiveStatus, width: Int, height: Int, colors: Bool = true) {
        self.status = status
        self.width = width
        self.height = height
        self.colors = colors
        makeCodes()
    }

    /// Takes a new status from the activity.
    mutating func show(_ new: LiveStatus) {
        if new.prompt != status.prompt { answer = "" }
        status = new
        makeCodes()
    }

    private mutating func makeCodes() {
        for case let payload? in status.offers.map(\.code) where codes[payload] == nil {
            codes[payload] = Result { () throws(QRCode.Failure) in try QRCode.sizes(encoding: payload) }
        }
    }

    /// The first offer that is a link: what `c` copies.
    var link: String? { status.offers.first { $0.isLink }?.text }

    mutating func markStopping() { stopping = true }
}

/// What the live screen asks the run loop to do.
public enum LiveEffect: Sendable, Equatable {
    /// Tell the activity the person wants it to stop.
    case stop
    /// Put this on the clipboard.
    case copy(String)
    /// Hand the activity what the person picked or answered.
    case input(LiveInput)
}

/// What the live screen hears.
public enum LiveMessage: Sendable, Equatable {
    case input(InputEvent)
    /// The activity's new status.
    case status(LiveStatus)
    /// News from the screen itself; `isError` shows it as a problem.
    case note(String, isError: Bool)
}

/// The live screen's update: pure.
public enum LiveUpdate {
    public static func update(_ state: inout LiveState, _ message: LiveMessage) -> [LiveEffect] {
        switch message {
        case .status(let status):
            state.show(status)
        case .note(let text, let isError):
            state.note = text
            state.noteIsError = isError
        case .input(.resize(let width, let height)):
            state.width = width
            state.height = height
        case .input(let event):
            if state.status.prompt != nil && !state.stopping {
                // The prompt takes what is typed; Esc still stops.
                switch event {
                case .character(let character) where state.answer.count < 64:
                    state.answer.append(character)
                    return []
                case .backspace:
                    if !state.answer.isEmpty { state.answer.removeLast() }
                    return []
                case .enter:
                    guard !state.answer.isEmpty else { return [] }
                    let answer = state.answer
                    state.answer = ""
                    return [.input(.answer(answer))]
                default: break
                }
            } else if case .character(let key) = event, !state.stopping, state.status.choices.contains(where: { $0.key == key }) {
                return [.input(.choose(key))]
            }
            switch KeyMap.live.action(for: event) {
            case .copy:
                if let link = state.link { return [.copy(link)] }
            case .stop:
                guard !state.stopping else { return [] }
                state.markStopping()
                return [.stop]
            case .done, nil: break
            }
        }
        return []
    }
}
