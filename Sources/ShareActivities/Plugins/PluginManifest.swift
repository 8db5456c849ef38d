import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore

/// A plugin's `*.activity` file (SPEC §6): Desktop Entry syntax, one
/// `[Activity]` group. Reading one never throws past the picker: a broken
/// file becomes a ``PluginProblem`` that `--explain` reports.
public struct PluginManifest: Sendable, Equatable {
    /// The file it was read from.
    public var path: String
    public var type: ActivityType
    /// `Name`, or `Name[xx]` for the language of `LANG`.
    public var name: String
    public var category: ActivityCategory
    /// `Icon`: a glyph or short text art (`\n` between lines), or a PNG path.
    public var icon: String?
    /// `Accepts`: the kinds taken (all when absent).
    public var accepts: Set<ItemKind>
    /// `MimeType`: globs such as `image/*`, matched against detected types.
    public var mimeTypes: [String]
    public var minItems: Int
    public var maxItems: Int?
    /// `Exec`, split into words (Desktop Entry quoting), field codes unexpanded.
    public var exec: [String]
    /// `Input=json`: the items as JSON on standard input.
    public var jsonInput: Bool
    /// `Fields`: a form shown before Exec runs (`subject`, `body`, …).
    public var fields: [String]
    /// `Timeout` in seconds (default 60).
    public var timeout: Double

    static let knownKeys: Set<String> = ["Type", "Name", "Category", "Icon", "Accepts", "MimeType", "MinItems", "MaxItems",
                                         "Exec", "Input", "Fields", "Timeout", "Comment"]

    /// Reads a manifest; `language` is the `LANG` language (`ko` from `ko_KR.UTF-8`).
    public init(text: String, path: String, language: String?, findExecutable: (String) -> String?) throws(PluginProblem) {
        func problem(_ message: String) -> PluginProblem { PluginProblem(path: path, message: message) }
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch { throw problem("\(error.message) (line \(error.line))") }
        guard let section = file.section("Activity") else { throw problem("there is no [Activity] group") }
        var values: [String: String] = [:]
        var localizedNames: [String: String] = [:]
        for entry in section.entries {
            if entry.key.hasPrefix("Name["), entry.key.hasSuffix("]") {
                localizedNames[String(entry.key.dropFirst(5).dropLast())] = entry.value
                continue
            }
            guard PluginManifest.knownKeys.contains(entry.key) else {
                throw problem("line \(entry.line): unknown key '\(entry.key)'")
            }
            values[entry.key] = entry.value
        }
        self.path = path
        guard let typeText = values["Type"], !typeText.isEmpty else { throw problem("Type is missing") }
        do { type = try ActivityType(parsing: typeText) } catch { throw problem("Type: \(error)") }
        guard !type.isSystem else { throw problem("Type \(typeText) is a system activity; use a reverse-DNS name") }
        guard let baseName = values["Name"], !baseName.isEmpty else { throw problem("Name is missing") }
        name = language.flatMap { localizedNames[$0] } ?? baseName
        switch values["Category"]?.lowercased() ?? "action" {
        case "share": category = .share
        case "action": category = .action
        case let other: throw problem("Category is share or action, not '\(other)'")
        }
        icon = values["Icon"].map { $0.replacing("\\n", with: "\n") }
        let kindWords = PluginManifest.list(values["Accepts"])
        if kindWords.isEmpty {
            accepts = Set(ItemKind.allCases)
        } else {
            var kinds = Set<ItemKind>()
            for word in kindWords {
                guard let kind = ItemKind(rawValue: word.lowercased()) else {
                    throw problem("Accepts: '\(word)' is not one of string, url, image, file")
                }
                kinds.insert(kind)
            }
            accepts = kinds
        }
        mimeTypes = PluginManifest.list(values["MimeType"])
        minItems = try PluginManifest.number(values["MinItems"], "MinItems", path) ?? 1
        maxItems = try PluginManifest.number(values["MaxItems"], "MaxItems", path)
        if let maxItems, maxItems < minItems { throw problem("MaxItems is below MinItems") }
        guard let execLine = values["Exec"], !execLine.isEmpty else { throw problem("Exec is missing") }
        exec = try ExecLine.split(execLine, path: path)
        guard let program = exec.first, findExecutable(program) != nil else {
            throw problem("Exec: \(exec.first ?? "") is not an executable on PATH")
        }
        switch values["Input"]?.lowercased() ?? "none" {
        case "none": jsonInput = false
        case "json": jsonInput = true
        case let other: throw problem("Input is none or json, not '\(other)'")
        }
        fields = PluginManifest.list(values["Fields"])
        for field in fields where !field.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            throw problem("Fields: '\(field)' is not a field name")
        }
        if let text = values["Timeout"] {
            guard let seconds = Double(text), seconds > 0 else { throw problem("Timeout is a number of seconds, not '\(text)'") }
            timeout = seconds
        } else {
            timeout = 60
        }
    }

    /// A `;`-separated Desktop Entry list.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ";").map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
    }

    static func number(_ text: String?, _ key: String, _ path: String) throws(PluginProblem) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 0 else { throw PluginProblem(path: path, message: "\(key) is a whole number, not '\(text)'") }
        return value
    }

    /// Whether `glob` (`image/*`, `*/*`, `application/pdf`) matches `type`.
    static func matches(_ glob: String, _ type: String) -> Bool {
        let pattern = glob.lowercased()
        let value = type.lowercased()
        if pattern == "*" || pattern == "*/*" { return true }
        if pattern.hasSuffix("/*") { return value.hasPrefix(String(pattern.dropLast())) }
        return pattern == value
    }
}

/// A manifest that cannot be used, and why: `--explain` shows it; the picker skips it.
public struct PluginProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// Splits an `Exec` line into words the Desktop Entry way: the value's
/// escapes first (`\s` `\n` `\t` `\r` `\\`), then spaces separate, double
/// quotes group, and inside quotes a backslash escapes `"`, `` ` ``, `$` and
/// `\`. Nothing is ever handed to a shell.
enum ExecLine {
    static func split(_ rawLine: String, path: String) throws(PluginProblem) -> [String] {
        var line = ""
        var raw = rawLine.makeIterator()
        while let character = raw.next() {
            guard character == "\\" else { line.append(character); continue }
            switch raw.next() {
            case "s": line.append(" ")
            case "n": line.append("\n")
            case "t": line.append("\t")
            case "r": line.append("\r")
            case "\\": line += "\\\\"
            case let other?: line += "\\" + String(other)
            case nil: line.append("\\")
            }
        }
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if quoted {
                if character == "\\" {
                    guard let next = iterator.next() else { break }
                    if !"\"`$\\".contains(next) { current.append("\\") }
                    current.append(next)
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quoted { throw PluginProblem(path: path, message: "Exec: a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
