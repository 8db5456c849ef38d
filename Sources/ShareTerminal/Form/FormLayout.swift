/// Where the form's parts go on screen, from the state alone; shared by the
/// view (to draw) and the update (to keep the body's cursor in view).
public struct FormLayout: Sendable, Equatable {
    /// The one-line fields, in order, one screen line each from line 1.
    public let headerFields: [Int]
    /// The body's first line and the line after its last.
    public let bodyTop: Int
    public let bodyBottom: Int
    /// Lines for the attachment list (its heading and up to four rows).
    public let attachmentLines: Int
    /// Whether the attachment list shows only its heading (little room).
    public let attachmentsCompact: Bool
    /// Whether the terminal is too small to compose at all.
    public let tooSmall: Bool
    /// Columns for the body's text.
    public var bodyWidth: Int

    /// Lays out `state`.
    public init(_ state: borrowing FormState) {
        // Each field's kind read in place: a field's state is never copied for it (a keystroke lays the form out twice).
        var headerFields: [Int] = []
        var attachments: Int?
        for index in state.fields.indices {
            switch state.fields[index].field.kind {
            case .multilineText: break
            case .attachmentList: if attachments == nil { attachments = state.fields[index].attachments.count }
            default: headerFields.append(index)
            }
        }
        self.headerFields = headerFields
        bodyTop = 1 + headerFields.count + 1  // title, fields, separator
        let reserved = 2  // status and help bar
        var lines = attachments.map { 1 + min(4, max(1, $0)) } ?? 0
        var compact = false
        if attachments != nil, state.height - reserved - lines - bodyTop < 3 {
            lines = 1
            compact = true
        }
        attachmentLines = lines
        attachmentsCompact = compact
        bodyBottom = state.height - reserved - lines
        tooSmall = state.width < 30 || bodyBottom - bodyTop < 1
        bodyWidth = max(1, state.width - 2)
    }

    /// Lines the body can show.
    public var bodyHeight: Int { max(0, bodyBottom - bodyTop) }
}
