import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// A plugin's `*.activity` file (SPEC §6): Desktop Entry syntax, one
/// `[Activity]` group. Reading one never throws past the picker: a broken
/// file becomes a ``PluginProblem`` that `--explain` reports.
public struct PluginManifest: Sendable, Equatable {
    /// The file it was read from.
    public var path: String
    public var type: ActivityType
    /// `Name`: the title in every language (`--list`, `--json`).
    public var name: String
    /// `Name[xx]` for the language of `LANG`, or `Name`: what people read.
    public var localizedName: String
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
    /// `MaxOutput`: the most the program may print on standard output, in
    /// bytes (default 16 MiB); more stops it and fails the run.
    public var maxOutput: Int

    /// The longest `Name` (a title under a tile, not a text).
    public static let longestName = 200

    /// Reads a manifest; `language` is the `LANG` language (`ko` from `ko_KR.UTF-8`).
    public init(text: String, path: String, language: String?, findExecutable: (String) -> String?) throws(PluginProblem) {
        func problem(_ message: String) -> PluginProblem { PluginProblem(path: path, message: message) }
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch { throw problem("\(error.message) (line \(error.line))") }
        guard let section = file.section("Activity") else { throw problem("there is no [Activity] group") }
        var values = Values()
        var localizedNames: [String: String] = [:]
        for entry in section.entries {
            switch entry.key {
            case "Type": values.type = entry.value
            case "Name": values.name = entry.value
            case "Category": values.category = entry.value
            case "Icon": values.icon = entry.value
            case "Accepts": values.accepts = entry.value
            case "MimeType": values.mimeType = entry.value
            case "MinItems": values.minItems = entry.value
            case "MaxItems": values.maxItems = entry.value
            case "Exec": values.exec = entry.value
            case "Input": values.input = entry.value
            case "Fields": values.fields = entry.value
            case "Timeout": values.timeout = entry.value
            case "MaxOutput": values.maxOutput = entry.value
            case "Comment": break
            case let key where key.hasPrefix("Name[") && key.hasSuffix("]"):
                localizedNames[String(key.dropFirst(5).dropLast())] = entry.value
            case let key:
                throw problem("line \(entry.line): unknown key '\(key)'")
            }
        }
        self.path = path
        guard let typeText = values.type, !typeText.isEmpty else { throw problem("Type is missing") }
        do { type = try ActivityType(parsing: typeText) } catch { throw problem("Type: \(error)") }
        guard !type.isSystem else { throw problem("Type \(typeText) is a system activity; use a reverse-DNS name") }
        guard let baseName = values.name, !baseName.isEmpty else { throw problem("Name is missing") }
        name = baseName
        localizedName = language.flatMap { localizedNames[$0] } ?? baseName
        for (key, text) in [("Name", baseName)] + localizedNames.map({ ("Name[\($0.key)]", $0.value) }) where text.count > PluginManifest.longestName {
            throw problem("\(key) is \(text.count) characters long; a name is at most \(PluginManifest.longestName)")
        }
        switch values.category?.lowercased() ?? "action" {
        case "share": category = .share
        case "action": category = .action
        case let other: throw problem("Category is share or action, not '\(other)'")
        }
        icon = values.icon.map { $0.replacing("\\n", with: "\n") }
        let kindWords = PluginManifest.list(values.accepts)
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
        mimeTypes = PluginManifest.list(values.mimeType)
        minItems = try PluginManifest.number(values.minItems, "MinItems", path) ?? 1
        maxItems = try PluginManifest.number(values.maxItems, "MaxItems", path)
        if let maxItems, maxItems < minItems { throw problem("MaxItems is below MinItems") }
        guard let execLine = values.exec, !execLine.isEmpty else { throw problem("Exec is missing") }
        exec = try ExecLine.split(execLine, path: path)
        guard let program = exec.first, findExecutable(program) != nil else {
            throw problem("Exec: \(exec.first ?? "") is not an executable on PATH")
        }
        switch values.input?.lowercased() ?? "none" {
        case "none": jsonInput = false
        case "json": jsonInput = true
        case let other: throw problem("Input is none or json, not '\(other)'")
        }
        fields = PluginManifest.list(values.fields)
        for field in fields where !field.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            throw problem("Fields: '\(field)' is not a field name")
        }
        if let text = values.timeout {
            guard let seconds = Double(text), seconds > 0 else { throw problem("Timeout is a number of seconds, not '\(text)'") }
            timeout = seconds
        } else {
            timeout = 60
        }
        if let text = values.maxOutput {
            guard let bytes = Int(text), bytes > 0 else { throw problem("MaxOutput is a number of bytes, not '\(text)'") }
            maxOutput = bytes
        } else {
            maxOutput = 16 << 20
        }
    }

    /// The values of the known keys, as written.
    private struct Values {
        var type, name, category, icon, accepts, mimeType, minItems, maxItems, exec, input, fields, timeout, maxOutput: String?
    }

    /// A `;`-separated Desktop Entry list.
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.utf8.split(separator: UInt8(ascii: ";")).compactMap { bytes in
            let word = Substring(bytes).trimmingWhitespace(includingNewlines: true)
            return word.isEmpty ? nil : word
        }
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
        // On the UTF-8 bytes: every byte that means something is ASCII, and the
        // bytes of other characters are copied through untouched.
        let backslash = UInt8(ascii: "\\"), quote = UInt8(ascii: "\"")
        var line: [UInt8] = []
        line.reserveCapacity(rawLine.utf8.count)
        var raw = rawLine.utf8.makeIterator()
        while let byte = raw.next() {
            guard byte == backslash else { line.append(byte); continue }
            switch raw.next() {
            case UInt8(ascii: "s"): line.append(UInt8(ascii: " "))
            case UInt8(ascii: "n"): line.append(0x0A)
            case UInt8(ascii: "t"): line.append(0x09)
            case UInt8(ascii: "r"): line.append(0x0D)
            case backslash: line += [backslash, backslash]
            case let other?: line += [backslash, other]
            case nil: line.append(backslash)
            }
        }
        var words: [String] = []
        var current: [UInt8] = []
        var inWord = false
        var quoted = false
        var index = 0
        while index < line.count {
            let byte = line[index]
            index += 1
            if quoted {
                if byte == backslash {
                    guard index < line.count else { break }
                    let next = line[index]
                    index += 1
                    if next != quote && next != UInt8(ascii: "`") && next != UInt8(ascii: "$") && next != backslash {
                        current.append(backslash)
                    }
                    current.append(next)
                } else if byte == quote {
                    quoted = false
                } else {
                    current.append(byte)
                }
            } else if byte == quote {
                quoted = true
                inWord = true
            } else if byte == UInt8(ascii: " ") || byte == 0x09 {
                if inWord { words.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true); inWord = false }
            } else {
                current.append(byte)
                inWord = true
            }
        }
        if quoted { throw PluginProblem(path: path, message: "Exec: a quote is not closed") }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}
