import FoundationEssentials
import ShareCore
import ShareSupport

/// What Nearby serves for a share, by path under the link's token: the
/// link itself (`""`: the one file, or a page), each file of several
/// (`"1"`, `"2"` …) and all of them as one zip (`"all.zip"`).
struct NearbyContent: Sendable {
    /// A file to hand out: from disk, or bytes share holds (standard input).
    struct File: Sendable, Equatable {
        enum Source: Sendable, Equatable {
            case path(String)
            case bytes([UInt8])
        }
        var name: String
        var type: String
        var size: Int64
        var source: Source
    }

    enum Resource: Sendable, Equatable {
        /// An HTML page (the text, or the list of items).
        case page([UInt8])
        case file(File)
        /// The files as one zip, streamed as it is made.
        case zip([File])
    }

    var resources: [String: Resource]
    /// The paths whose complete download finishes the share: the one file,
    /// any file or the zip of several, the page when there is no file.
    var finishing: Set<String>

    /// What the `items` make.
    init(items: [ShareItem], title: String) {
        var files: [File] = []
        var texts: [String] = []
        var links: [String] = []
        for item in items {
            switch item {
            case .text(let text): texts.append(text)
            case .url(let url): links.append(url.absoluteString)
            case .image(let file), .file(let file):
                let source: File.Source = switch file.storage {
                case .path(let url): .path(url.path)
                case .data(let data): .bytes(Array(data))
                }
                files.append(File(name: file.name, type: file.contentType, size: file.size, source: source))
            }
        }
        if files.count == 1 && texts.isEmpty && links.isEmpty {
            resources = ["": .file(files[0])]
            finishing = [""]
            return
        }
        var resources: [String: Resource] = [:]
        for (index, file) in files.enumerated() { resources[String(index + 1)] = .file(file) }
        if files.count > 1 { resources["all.zip"] = .zip(files) }
        resources[""] = .page(Array(NearbyPage.html(title: title, texts: texts, links: links, files: files).utf8))
        self.resources = resources
        finishing = files.isEmpty ? [""] : Set(resources.keys.filter { !$0.isEmpty })
    }
}

/// The page a phone sees for text, links and several files: escaped,
/// UTF-8, readable on a small screen, a copy button for each text, links
/// to follow, files to download with their sizes.
enum NearbyPage {
    static func html(title: String, texts: [String], links: [String], files: [NearbyContent.File]) -> String {
        var body = ""
        for (index, text) in texts.enumerated() {
            body += """
                <section><pre id="t\(index)">\(linked(text))</pre>\
                <button data-copy="t\(index)">Copy</button></section>

                """
        }
        for link in links {
            // Only addresses a phone opens as such are links; anything else (javascript:, data:) is text.
            body += isFollowable(link) ? "<section><a class=\"link\" href=\"\(MarkupEscaping.html(link))\">\(MarkupEscaping.html(link))</a></section>\n"
                : "<section><pre>\(MarkupEscaping.html(link))</pre></section>\n"
        }
        if !files.isEmpty {
            body += "<ul>\n"
            for (index, file) in files.enumerated() {
                body += "<li><a href=\"\(index + 1)\" download>\(MarkupEscaping.html(file.name))</a> <small>\(MarkupEscaping.html(ByteCount.words(file.size)))</small></li>\n"
            }
            body += "</ul>\n"
            if files.count > 1 {
                let total = files.reduce(Int64(0)) { $0 + $1.size }
                body += "<p><a class=\"all\" href=\"all.zip\" download>Download all (zip, \(MarkupEscaping.html(ByteCount.words(total))))</a></p>\n"
            }
        }
        return """
            <!doctype html>
            <html><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(MarkupEscaping.html(title))</title>
            <style>
            body{font:17px/1.45 system-ui,sans-serif;margin:1.2em;max-width:40em}
            pre{white-space:pre-wrap;word-wrap:break-word;font:inherit;background:#f3f3f3;padding:.8em;border-radius:.4em}
            section{margin:0 0 1.2em}button{font:inherit;padding:.4em 1.2em}a{word-break:break-all}
            li{margin:.5em 0}.all{font-weight:bold}
            </style>
            <script>\(script)</script></head>
            <body><h1>\(MarkupEscaping.html(title))</h1>
            \(body)</body></html>

            """
    }

    /// The page's one script: each Copy button copies its text (through
    /// the clipboard API on a secure page, else a selection).
    static let script = """
        document.addEventListener('DOMContentLoaded', function () {
          document.querySelectorAll('button[data-copy]').forEach(function (button) {
            button.addEventListener('click', function () {
              var text = document.getElementById(button.dataset.copy).innerText;
              function done() { button.textContent = 'Copied'; }
              if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done); return; }
              var area = document.createElement('textarea');
              area.value = text; document.body.appendChild(area); area.select();
              try { document.execCommand('copy'); done(); } finally { document.body.removeChild(area); }
            });
          });
        });
        """

    /// The script's hash for the page's Content-Security-Policy (`sha256-…`, base64).
    static let scriptHash: String = {
        let hex = Array(SHA256.hex(Array(script.utf8)).utf8)
        let digest = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        return "sha256-" + Data(digest).base64EncodedString()
    }()

    /// Whether `link` is a page to open (http, https); a `mailto:` or
    /// `tel:` is an address, shown to copy.
    static func isFollowable(_ link: String) -> Bool {
        URL(string: link)?.isWebAddress ?? false
    }

    /// `text` escaped, with each http(s) link in it made a link.
    static func linked(_ text: String) -> String {
        var result = ""
        PostLength.forEachToken(text) { piece, isLink in
            result += isLink ? "<a href=\"\(MarkupEscaping.html(String(piece)))\">\(MarkupEscaping.html(String(piece)))</a>" : MarkupEscaping.html(String(piece))
        }
        return result
    }
}
