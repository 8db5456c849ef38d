import Foundation
import ShareSupport
import Testing
@testable import ShareCore

@Suite struct LocalizationTests {
    // MARK: - Placeholders

    @Test func placeholdersTakeTheArgumentsInOrderOrByPosition() {
        #expect(Localization.fill("Remove %@?", ["a.pdf"]) == "Remove a.pdf?")
        #expect(Localization.fill("%@ anyway?  y %@", ["Send", "send"]) == "Send anyway?  y send")
        #expect(Localization.fill("%2$@ — %1$@", ["one", "two"]) == "two — one")
        #expect(Localization.fill("100%% of %@", ["it"]) == "100% of it")
        // Arguments are put in as they are: a % in them is not read again.
        #expect(Localization.fill("%@ and %@", ["50%@", "x"]) == "50%@ and x")
        // A stray percent stays; a placeholder with no argument becomes nothing.
        #expect(Localization.fill("5% %d %@ %3$@", ["a"]) == "5% %d a ")
    }

    @Test func withoutACatalogTheEnglishIsShown() {
        // The test process keeps the C locale: every message reads as written.
        #expect(Localization.text("Mail") == "Mail")
        #expect(Localization.text("Remove %@?", "a.pdf") == "Remove a.pdf?")
        #expect(Localization.plural("%@ image", "%@ images", count: 1, "1") == "1 image")
        #expect(Localization.plural("%@ image", "%@ images", count: 3, "3") == "3 images")
        #expect(Localization.plural("%@ image", "%@ images", count: 0, "0") == "0 images")
    }

    // MARK: - The catalogs

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One message of a catalog: its English and its translations (one, or one per plural form).
    struct Entry: Equatable {
        var id: String
        var plural: String?
        var translations: [String]
    }

    /// Reads a `.po` file: msgid, msgid_plural, msgstr and msgstr[N], with continued strings.
    static func entries(of text: String) throws -> [Entry] {
        var entries: [Entry] = []
        var current: (keyword: String, value: String)?
        var fields: [(keyword: String, value: String)] = []
        // A .po string is a C string literal; with the escapes the catalogs
        // use (\n, \t, \" and \\) it reads as a JSON string, and any other
        // escape is an error rather than a guess.
        func unquote(_ line: Substring) throws -> String {
            try #require(line.hasPrefix("\"") && line.hasSuffix("\"") && line.count >= 2, "not a quoted string: \(line)")
            return try JSONDecoder().decode(String.self, from: Data(line.utf8))
        }
        func flush() {
            if let field = current { fields.append(field) }
            current = nil
        }
        func finishEntry() throws {
            flush()
            guard !fields.isEmpty else { return }
            let id = try #require(fields.first { $0.keyword == "msgid" }?.value, "an entry without msgid: \(fields)")
            let plural = fields.first { $0.keyword == "msgid_plural" }?.value
            entries.append(Entry(id: id, plural: plural, translations: fields.filter { $0.keyword.hasPrefix("msgstr") }.map(\.value)))
            fields = []
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.drop { $0 == " " }
            if line.isEmpty || line.hasPrefix("#") {
                if line.isEmpty { try finishEntry() }
                continue
            }
            if line.hasPrefix("\"") {
                let more = try unquote(line)
                try #require(current != nil, "a continued string with nothing before it")
                current?.value += more
                continue
            }
            let keyword = String(line.prefix { $0 != " " })
            if keyword == "msgid" { try finishEntry() }
            flush()
            current = (keyword, try unquote(line.dropFirst(keyword.count + 1)))
        }
        try finishEntry()
        return entries
    }

    /// Every message the sources hand to Localization: the literal first
    /// arguments of `Localization.text` and `Localization.marked` and both
    /// of `Localization.plural`; the options' help lines and their groups'
    /// titles (`help: "…"`, `Group("…")`: `--help` looks them up as
    /// declared); and the system activities' titles (translated as data).
    static func messagesInSources() throws -> Set<String> {
        var messages = Set(SupportTable.rows.map(\.title))
        let sources = root.appendingPathComponent("Sources")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        let literal = #/Localization\.(text|plural|marked)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?/#
        // (`case .help: "--help"` is not a help line; `OptionSpec.Group(` is one word to `\b`.)
        let declared = #/(?:[\s,(]help:\s*|[\s.=(]Group\(\s*)"((?:[^"\\]|\\.)*)"/#
        let unescaped = { (text: Substring) in text.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\") }
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: literal) {
                messages.insert(unescaped(match.output.2))
                if match.output.1 == "plural", let other = match.output.3 { messages.insert(unescaped(other)) }
            }
            // A help made with interpolation cannot be a catalog's message (a CLI test checks every help is one).
            for match in text.matches(of: declared) where !match.output.1.contains("\\(") {
                messages.insert(unescaped(match.output.1))
            }
        }
        return messages
    }

    /// The placeholders a message takes, as the argument positions they read.
    static func arguments(_ message: String) -> [Int] {
        var positions: [Int] = []
        var next = 1
        for match in message.matches(of: #/%(?:(\d+)\$)?@/#) {
            if let position = match.output.1.flatMap({ Int($0) }) { positions.append(position) } else { positions.append(next); next += 1 }
        }
        return positions.sorted()
    }

    static func catalogs() throws -> [URL] {
        let folder = root.appendingPathComponent("po")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".po") }.sorted()
        return names.map { folder.appendingPathComponent($0) }
    }

    @Test func aKoreanCatalogShips() throws {
        #expect(try Self.catalogs().map(\.lastPathComponent).contains("ko.po"))
    }

    @Test(arguments: try catalogs())
    func everyMessageIsTranslatedAndNothingStale(catalog: URL) throws {
        let entries = try Self.entries(of: String(contentsOf: catalog, encoding: .utf8)).filter { !$0.id.isEmpty }
        let messages = try Self.messagesInSources()
        let ids = entries.flatMap { [$0.id] + ($0.plural.map { [$0] } ?? []) }
        #expect(Set(ids).count == ids.count, "a message is in \(catalog.lastPathComponent) twice")
        let missing = messages.subtracting(ids).sorted()
        #expect(missing.isEmpty, "not in \(catalog.lastPathComponent): \(missing)")
        let stale = Set(ids).subtracting(messages).sorted()
        #expect(stale.isEmpty, "in \(catalog.lastPathComponent) but no longer in the sources: \(stale)")
        for entry in entries {
            #expect(!entry.translations.isEmpty && entry.translations.allSatisfy { !$0.isEmpty }, "\(entry.id) is not translated")
            // Each translation takes the same words as the English, in any order.
            for translation in entry.translations {
                #expect(Self.arguments(translation) == Self.arguments(entry.id),
                        "\(entry.id) → \(translation): the placeholders differ")
            }
        }
    }

    @Test(arguments: try catalogs())
    func msgfmtAcceptsTheCatalog(catalog: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        process.arguments = ["--check", "--statistics", "-o", "/dev/null", catalog.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "msgfmt: \(report)")
        #expect(!report.contains("warning") && !report.contains("untranslated") && !report.contains("fuzzy"), "msgfmt: \(report)")
    }
}
