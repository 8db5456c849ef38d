/// Builds one header field, folding between tokens to stay within 78
/// columns where the tokens allow (a single token longer than that stays
/// whole; every token is far below 998).
struct HeaderLine {
    private(set) var text: String
    private var column: Int
    private var hasToken = false

    /// Starts `Name:`.
    init(_ name: String) {
        text = name + ":"
        column = text.utf8.count
    }

    /// Appends `token` after `glue` (such as `" "` or `", "`); folds
    /// before the token when it would pass 78 columns.
    mutating func append(_ token: String, glue: String = " ") {
        let glue = hasToken ? glue : " "
        let width = glue.utf8.count + token.utf8.count
        if hasToken && column + width > HeaderEncoding.softLimit {
            let kept = glue.hasSuffix(" ") ? String(glue.dropLast()) : glue
            text += kept + "\r\n " + token
            column = 1 + token.utf8.count
        } else {
            text += glue + token
            column += width
        }
        hasToken = true
    }

    /// The field with its final CRLF.
    var line: String { text + "\r\n" }
}
