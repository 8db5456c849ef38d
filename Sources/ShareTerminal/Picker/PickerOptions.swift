import ShareCore
import ShareSupport

/// The Options line of the picker's preview header and its chooser (`o`):
/// what the options before sharing will do to the pictures shared, said
/// for the selected activity, and a small list that changes them, with
/// the same choices as `--no-location`, `--no-metadata`, `--resize`,
/// `--as-link` and `[options] location`.
public struct PickerOptions: Sendable, Equatable {
    /// One line of the chooser.
    public enum Row: Sendable, Equatable {
        /// What becomes of the location.
        case location(LocationChoice)
        /// All metadata removed (on or off).
        case metadata
        /// The longest side, from ``PickerOptions/sizes`` (Enter steps through them).
        case resize
        /// The items as a link (on or off).
        case asLink
    }

    /// The options as chosen so far.
    public var options: SharingOptions
    /// How many pictures are shared.
    public var pictures: Int
    /// Whether `--as-link` can be offered (a Link place is set up).
    public var offersLink: Bool
    /// Whether the chooser is open.
    public var isOpen = false
    /// The chooser's highlighted row.
    public var cursor = 0

    /// The sizes the chooser steps through: off, then these longest sides.
    public static let sizes: [Int?] = [nil, 2048, 1024, 640]

    /// The Options line for `pictures` pictures shared with `options`.
    public init(options: SharingOptions, pictures: Int, offersLink: Bool) {
        self.options = options
        self.pictures = pictures
        self.offersLink = offersLink
    }

    /// The chooser's rows, in order.
    public var rows: [Row] {
        LocationChoice.allCases.map(Row.location) + [.metadata, .resize] + (offersLink ? [.asLink] : [])
    }

    /// What the header says will happen when `type` is picked:
    /// "location removed from 2 photos · resized to 1024 pixels".
    public func summary(for type: ActivityType?) -> String {
        var parts: [String] = []
        let count = String(pictures)
        switch type.flatMap(options.removal(for:)) ?? (options.removesMetadata ? .all : nil) {
        case .all?:
            parts.append(Localization.plural("all metadata removed from %@ photo", "all metadata removed from %@ photos", count: pictures, count))
        case .location?:
            parts.append(Localization.plural("location removed from %@ photo", "location removed from %@ photos", count: pictures, count))
        case nil:
            parts.append(Localization.text("location kept"))
        }
        if let side = options.longestSide { parts.append(Localization.text("resized to %@ pixels", String(side))) }
        if options.asLink { parts.append(Localization.text("sent as a link")) }
        return parts.joined(separator: " · ")
    }

    /// A chooser row's words: a mark for what is chosen, then the choice.
    public func label(of row: Row) -> String {
        switch row {
        case .location(let choice):
            let mark = options.location == choice && !options.removesMetadata ? "(•) " : "( ) "
            let words = switch choice {
            case .auto: Localization.text("Location removed for public destinations")
            case .keep: Localization.text("Location always kept")
            case .strip: Localization.text("Location always removed")
            }
            return mark + words
        case .metadata:
            return (options.removesMetadata ? "[x] " : "[ ] ") + Localization.text("Remove all metadata")
        case .resize:
            let size = options.longestSide.map { Localization.text("%@ pixels", String($0)) } ?? Localization.text("off")
            return "    " + Localization.text("Resize: %@", size)
        case .asLink:
            return (options.asLink ? "[x] " : "[ ] ") + Localization.text("Send as a link")
        }
    }

    /// Chooses the highlighted row: a location, a switch turned, the next size.
    public mutating func chooseHighlighted() {
        guard rows.indices.contains(cursor) else { return }
        switch rows[cursor] {
        case .location(let choice):
            options.location = choice
            options.removesMetadata = false
        case .metadata:
            options.removesMetadata.toggle()
        case .resize:
            let index = Self.sizes.firstIndex(of: options.longestSide) ?? 0
            options.longestSide = Self.sizes[(index + 1) % Self.sizes.count]
        case .asLink:
            options.asLink.toggle()
        }
    }
}
