import ShareCore

/// A link the person finishes a share at, shown when no browser here can
/// open it (over SSH, no display): the link as text and as a QR code to
/// scan with a phone, with Copy link.
public struct LinkState: Sendable, Equatable {
    /// The heading (`Post to X`).
    public var title: String
    /// The link.
    public var url: String
    /// Why the link is shown here (no browser could open it).
    public var reason: String
    /// The link's QR code, or why there is none.
    public var code: Result<QRCode, QRCode.Failure>
    /// One line of news (`Copied the link`), and whether it is an error.
    public var status: String?
    public var statusIsError = false
    public var width: Int
    public var height: Int
    public var colors: Bool

    /// The screen for `url`, its QR code made now.
    public init(title: String, url: String, reason: String, width: Int, height: Int, colors: Bool = true) {
        self.title = title
        self.url = url
        self.reason = reason
        code = Result { () throws(QRCode.Failure) in try QRCode(encoding: url) }
        self.width = width
        self.height = height
        self.colors = colors
    }
}

/// What the link screen asks the run loop to do.
public enum LinkEffect: Sendable, Equatable {
    /// Put the link on the clipboard.
    case copy(String)
    /// The person is done with the link.
    case done
}

/// What the link screen hears.
public enum LinkMessage: Sendable, Equatable {
    /// A key or a resize.
    case input(InputEvent)
    /// Something to tell the person; `isError` shows it as a problem.
    case status(String, isError: Bool)
}

/// The link screen's update: pure.
public enum LinkUpdate {
    /// Applies a message.
    public static func update(_ state: inout LinkState, _ message: LinkMessage) -> [LinkEffect] {
        switch message {
        case .status(let text, let isError):
            state.status = text
            state.statusIsError = isError
        case .input(.resize(let width, let height)):
            state.width = width
            state.height = height
        case .input(let event):
            switch KeyMap.link.action(for: event) {
            case .copy: return [.copy(state.url)]
            case .done: return [.done]
            case .stop, nil: break
            }
        }
        return []
    }
}
