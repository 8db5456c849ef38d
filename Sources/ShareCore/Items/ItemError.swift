import ShareSupport

/// Why an argument could not become an item. Every case reads as an
/// actionable message; the command line exits 2 with it.
public enum ItemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A word that is neither an existing path nor a URL.
    case noSuchWord(String)
    /// `--file` or a `file:` URL names nothing.
    case noSuchFile(String)
    /// A symbolic link whose target is missing.
    case brokenLink(String)
    /// A directory was given.
    case isDirectory(String)
    /// A socket, FIFO or device was given.
    case notRegularFile(String, what: String)
    /// The file exists but cannot be opened for reading.
    case unreadable(String, reason: String)
    /// `--url` or a `file:` URL that is not usable.
    case badURL(String, reason: String)
    /// A file that must be text is not UTF-8 text.
    case notText(String)
    /// Standard input held nothing.
    case emptyInput
    /// `-` was given more than once.
    case stdinTwice
    /// libmagic could not tell the content type.
    case detectionFailed(String, String)

    public var description: String {
        let cut = ItemError.shown
        return switch self {
        case .noSuchWord(let path): "no such file: \(cut(path)) (use --text for text)"
        case .noSuchFile(let path): "no such file: \(cut(path))"
        case .brokenLink(let path): "\(cut(path)) is a symbolic link to a file that does not exist"
        case .isDirectory(let path): "\(cut(path)) is a directory: share files, not folders (an archive of it works)"
        case .notRegularFile(let path, let what): "\(cut(path)) is \(what), not a regular file"
        case .unreadable(let path, let reason): "cannot read \(cut(path)): \(reason)"
        case .badURL(let text, let reason): "not a usable URL: \(cut(text)) (\(reason))"
        case .notText(let path): "\(cut(path)) is not UTF-8 text"
        case .emptyInput: "standard input is empty: nothing to share"
        case .stdinTwice: "'-' (standard input) can be given only once"
        case .detectionFailed(let what, let reason): "cannot tell the content type of \(cut(what)): \(reason)"
        }
    }

    /// ``description`` in the reader's language, for the command line's
    /// message (``description`` stays English: an activity may put it in a
    /// result's error, which `--json` prints).
    public var localizedMessage: String {
        let cut = ItemError.shown
        return switch self {
        case .noSuchWord(let path): Localization.text("no such file: %@ (use --text for text)", cut(path))
        case .noSuchFile(let path): Localization.text("no such file: %@", cut(path))
        case .brokenLink(let path): Localization.text("%@ is a symbolic link to a file that does not exist", cut(path))
        case .isDirectory(let path): Localization.text("%@ is a directory: share files, not folders (an archive of it works)", cut(path))
        case .notRegularFile(let path, let what): Localization.text("%@ is %@, not a regular file", cut(path), Localization.text(what))
        case .unreadable(let path, let reason): Localization.text("cannot read %@: %@", cut(path), reason)
        case .badURL(let text, let reason): Localization.text("not a usable URL: %@ (%@)", cut(text), Localization.text(reason))
        case .notText(let path): Localization.text("%@ is not UTF-8 text", cut(path))
        case .emptyInput: Localization.text("standard input is empty: nothing to share")
        case .stdinTwice: Localization.text("'-' (standard input) can be given only once")
        case .detectionFailed(let what, let reason): Localization.text("cannot tell the content type of %@: %@", cut(what), reason)
        }
    }

    /// What a message quotes of the input: at most 120 characters, the rest
    /// counted ("…(4880 more characters)"), so a pasted megabyte never fills a screen.
    public static func shown(_ text: String) -> String {
        let limit = 120
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…(\(text.count - limit) more characters)"
    }
}
