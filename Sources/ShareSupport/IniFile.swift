/// A parsed INI / Desktop Entry file: `[section]` headers and `key = value`
/// lines, each remembered with its line number for error messages.
///
/// Whole-line comments start with `#` or `;`. Keys may carry a locale
/// suffix (`Name[ko]`). A key outside any section, a malformed line, or a
/// key given twice in one section is an error naming the line.
public struct IniFile: Sendable, Equatable {
    /// One `key = value` line.
    public struct Entry: Sendable, Equatable {
        /// The key, as written (`password-command`, `Name[ko]`).
        public var key: String
        /// The value, with surrounding spaces removed.
        public var value: String
        /// The 1-based line number.
        public var line: Int
    }

    /// One `[name]` section and its entries, in file order.
    public struct Section: Sendable, Equatable {
        /// The name between the brackets.
        public var name: String
        /// The 1-based line number of the header.
        public var line: Int
        /// The entries, in file order.
        public var entries: [Entry]

        /// The entry for `key`, if present.
        public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }
    }

    /// The file's name, used in messages.
    public var path: String
    /// The sections, in file order.
    public var sections: [Section]

    /// The first section called `name`.
    public func section(_ name: String) -> Section? { sections.first { $0.name == name } }

    /// Parses `text`, naming `path` in errors.
    public init(parsing text: String, path: String) throws(IniError) {
        self.path = path
        sections = []
        // Read on the UTF-8 bytes: every character that means something here
        // is ASCII, so a cut next to one never splits a UTF-8 sequence, and no
        // grapheme breaking is done (a thousand plugin manifests are read
        // before the picker's first paint).
        let bytes = Array(text.utf8)
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        // Without leading and trailing spaces, tabs and carriage returns.
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
            var start = range.lowerBound
            var end = range.upperBound
            while start < end && isSpace(bytes[start]) { start += 1 }
            while end > start && isSpace(bytes[end - 1]) { end -= 1 }
            return start..<end
        }
        var lineStart = 0
        var number = 0
        while lineStart <= bytes.count {
            number += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            let line = trimmed(lineStart..<lineEnd)
            let start = line.lowerBound, end = line.upperBound
            guard start < end, bytes[start] != UInt8(ascii: "#"), bytes[start] != UInt8(ascii: ";") else { continue }
            if bytes[start] == UInt8(ascii: "[") {
                guard bytes[end - 1] == UInt8(ascii: "]"), end - start > 2 else {
                    throw IniError(path: path, line: number, message: "a section header looks like [name]")
                }
                let name = string(trimmed(start + 1..<end - 1))
                if let earlier = sections.first(where: { $0.name == name }) {
                    throw IniError(path: path, line: number, message: "section [\(name)] was already opened on line \(earlier.line)")
                }
                sections.append(Section(name: name, line: number, entries: []))
                continue
            }
            guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) else {
                throw IniError(path: path, line: number, message: "expected 'key = value' or a [section], found '\(string(start..<end))'")
            }
            let keyBytes = trimmed(start..<equals)
            let key = string(keyBytes)
            guard !keyBytes.isEmpty else {
                throw IniError(path: path, line: number, message: "a key is missing before '='")
            }
            // Bytes of 0x80 and above belong to scalars above U+007F, which are allowed.
            guard bytes[keyBytes].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
                throw IniError(path: path, line: number, message: "a key cannot contain spaces or control characters: '\(key)'")
            }
            guard !sections.isEmpty else {
                throw IniError(path: path, line: number, message: "'\(key)' comes before any [section]")
            }
            if let earlier = sections[sections.count - 1].entry(key) {
                throw IniError(path: path, line: number, message: "'\(key)' was already set on line \(earlier.line)")
            }
            sections[sections.count - 1].entries.append(Entry(key: key, value: string(trimmed(equals + 1..<end)), line: number))
        }
    }
}

/// A malformed INI line: prints as `path:line: message`.
public struct IniError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's name.
    public var path: String
    /// The 1-based line number.
    public var line: Int
    /// What is wrong and how to write it instead.
    public var message: String

    /// Creates an error for `line` of `path`.
    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path):\(line): \(message)" }
}
