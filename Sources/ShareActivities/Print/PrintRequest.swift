/// What Print is asked for: by the command line (`--printer`, `--copies`,
/// `--pages`, `--sides`), or by its form.
public struct PrintRequest: Sendable, Equatable {
    /// Both sides of the paper, or one.
    public enum Sides: String, Sendable, CaseIterable {
        /// One side (`sides=one-sided`).
        case one
        /// Both sides, turned on the long edge (`sides=two-sided-long-edge`).
        case two
        /// Both sides, turned on the short edge (`sides=two-sided-short-edge`), for landscape pages.
        case twoShortEdge = "two-short-edge"

        /// The value of CUPS' `sides` option.
        public var cupsValue: String {
            switch self {
            case .one: "one-sided"
            case .two: "two-sided-long-edge"
            case .twoShortEdge: "two-sided-short-edge"
            }
        }
    }

    /// The destination (`lpstat -e` lists them); `nil` for the default.
    public var printer: String?
    /// How many copies, 1…999.
    public var copies = 1
    /// The pages (`1-3,7`); `nil` for all of them.
    public var pages: String?
    /// One side or two; `nil` for the printer's own default.
    public var sides: Sides?
    /// Whether each page is scaled to fit the paper (`fit-to-page`).
    public var fitToPage = false

    public init() {}

    /// What copies may be, in words.
    public static let copiesRule = "a number from 1 to 999"
    /// What pages may be, in words.
    public static let pagesRule = "pages such as 1-3,7 or 5-"

    /// The number of copies in `text`, when it is one from 1 to 999.
    public static func copies(_ text: String) -> Int? {
        Int(text.trimmingWhitespace()).flatMap { (1...999).contains($0) ? $0 : nil }
    }

    /// Whether `text` is a page list CUPS takes: numbers and ranges
    /// (`1-3`, `5-`) separated by commas, each page 1 or more, ranges upward.
    public static func isPageRange(_ text: String) -> Bool {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty else { return false }
        for part in parts {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = bounds.first, let low = page(first) else { return false }
            if bounds.count == 2 {
                if bounds[1].isEmpty { continue }
                guard let high = page(bounds[1]), high >= low else { return false }
            }
        }
        return true
    }

    private static func page(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text), number >= 1 else {
            return nil
        }
        return number
    }

    /// The job's options as `lp -o` takes them (`copies=2 page-ranges=1-3 sides=one-sided fit-to-page`).
    public var cupsOptions: String {
        var options = ["copies=\(copies)"]
        if let pages { options.append("page-ranges=\(pages)") }
        if let sides { options.append("sides=\(sides.cupsValue)") }
        if fitToPage { options.append("fit-to-page") }
        return options.joined(separator: " ")
    }
}
