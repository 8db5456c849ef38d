import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Mail's big attachments sent as links, as the phone's Mail Drop does:
/// past the server's `SIZE` (or `[mail] link-over`) the form says so
/// before Send and Alt-L uploads the attachments through Link's place;
/// the body then lists each file's name, size, SHA-256 and link, and the
/// message carries no attachment part. `--links` does it headless.
struct MailLinks: Sendable {
    /// Link's places.
    var access = LinkAccess()
    /// `[mail] link-over`: the size past which links are offered, instead of the server's `SIZE`.
    var over: Int?

    /// The form's toggle key: Alt-L.
    static let key = "M-l"

    /// Links for `context`'s `[mail]` `section` and Link's sections.
    init(context: ActivityContext, section: ConfigSection, placeName: String?) throws(ConfigurationError) {
        over = try section.bytes("link-over")
        access = LinkAccess(context: context, placeName: placeName)
    }

    init() {}

    /// Whether a place is there to take the attachments.
    var canSend: Bool { access.canSend }

    /// About how many bytes a message with `attachments` and `body` takes
    /// on the wire: base64 makes 3 bytes 4 and breaks lines, and the headers
    /// and part boundaries add a little.
    static func estimatedSize(attachments: [Int64], body: String) -> Int64 {
        let encoded = attachments.reduce(Int64(0)) { total, size in total + (size + 2) / 3 * 4 * 78 / 76 + 400 }
        return encoded + Int64(body.utf8.count) * 2 + 2_000
    }

    /// The body with the links written in: before the signature (`-- `),
    /// a list of each file's name, size, SHA-256 and link; in HTML, a list
    /// at the end.
    static func body(_ body: String, format: MailBodyFormat, files: [LinkedFile], place: String) -> String {
        switch format {
        case .html:
            let rows = files.map { file in
                "<li>\(MarkupEscaping.html(file.name)) (\(ByteCount.words(Int64(file.size))), SHA-256 <code>\(file.sha256)</code>)<br>"
                    + "<a href=\"\(MarkupEscaping.html(file.link.absoluteString))\">\(MarkupEscaping.html(file.link.absoluteString))</a></li>"
            }
            let list = "<p>" + MarkupEscaping.html(heading(files.count, place: place)) + "</p>\n<ul>\n" + rows.joined(separator: "\n") + "\n</ul>\n"
            if let end = body.ranges(of: "</body>").last ?? body.ranges(of: "</BODY>").last {
                return String(body[..<end.lowerBound]) + list + String(body[end.lowerBound...])
            }
            return body + (body.hasSuffix("\n") || body.isEmpty ? "" : "\n") + list
        case .plain, .markdown:
            let rows = files.map { file in
                "- \(file.name), \(ByteCount.words(Int64(file.size))), SHA-256 \(file.sha256)\n  \(file.link.absoluteString)"
            }
            let list = heading(files.count, place: place) + "\n\n" + rows.joined(separator: "\n") + "\n"
            // Before the signature, which stays last.
            let (text, signature) = split(body)
            var trimmed = Substring(text)
            while trimmed.last?.isNewline == true { trimmed = trimmed.dropLast() }
            return (trimmed.isEmpty ? "" : trimmed + "\n\n") + list + (signature.map { "\n" + $0 } ?? "")
        }
    }

    /// The line before the list.
    static func heading(_ count: Int, place: String) -> String {
        count == 1 ? Localization.text("This file is sent as a link (through %@):", place)
            : Localization.text("These files are sent as links (through %@):", place)
    }

    /// The body before its signature, and the signature from its `-- ` line, if any.
    static func split(_ body: String) -> (text: String, signature: String?) {
        if body.hasPrefix("-- \n") { return ("", body) }
        guard let marker = body.ranges(of: "\n-- \n").last else { return (body, nil) }
        return (String(body[..<marker.lowerBound]), String(body[body.index(after: marker.lowerBound)...]))
    }
}
