/// Small text and path operations from the standard library alone, so that
/// share links only Foundation's essentials (not the whole of Foundation and
/// CoreFoundation, whose start-up ran before every first paint).

extension StringProtocol {
    /// The text without leading and trailing white space: spaces, tabs and
    /// the other Unicode spaces (U+3000, no-break space, …), and with
    /// `includingNewlines` line breaks as well (LF, CR, CRLF, U+2028, …).
    ///
    /// share's one way to trim text. It runs on start-up paths (a thousand
    /// plugin manifests before the first paint), so ASCII ends are trimmed
    /// on the UTF-8 bytes; only an end that is not ASCII is looked at as
    /// characters.
    public func trimmingWhitespace(includingNewlines: Bool = false) -> String {
        let text = Substring(self)
        let bytes = text.utf8
        // Between two ASCII scalars there is always a character boundary
        // (but inside CR LF, whose halves are trimmed alike), so stepping
        // over ASCII bytes never cuts a character.
        func isTrimmedASCII(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || (includingNewlines && (0x0A...0x0D).contains(byte))
        }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] < 0x80, isTrimmedASCII(bytes[start]) { start = bytes.index(after: start) }
        while start < end {
            let before = bytes.index(before: end)
            guard bytes[before] < 0x80, isTrimmedASCII(bytes[before]) else { break }
            end = before
        }
        if start == end || (bytes[start] < 0x80 && bytes[bytes.index(before: end)] < 0x80) { return String(text[start..<end]) }
        func isTrimmed(_ character: Character) -> Bool {
            character.isWhitespace && (includingNewlines || !character.isNewline)
        }
        guard let first = text.firstIndex(where: { !isTrimmed($0) }), let last = text.lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(text[first...last])
    }

    /// The text with each of `scalars` replaced by `replacement`, scalar by
    /// scalar: "\r\n" is one Character, so a Character-wise `replacing("\n", …)`
    /// would leave a CRLF whole.
    public func replacingScalars(_ scalars: Set<Unicode.Scalar>, with replacement: Unicode.Scalar) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars { out.append(scalars.contains(scalar) ? replacement : scalar) }
        return String(out)
    }

    /// Whether `needle` occurs in the text, compared as UTF-8 bytes (no
    /// Unicode equivalence: for ASCII markers such as "://" or "/"). The
    /// standard library alone: Foundation's `contains` is a general search
    /// that cost more than the start-up work around it.
    public func containsBytes(_ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard let first = bytes.first else { return true }
        let haystack = Array(utf8)
        guard haystack.count >= bytes.count else { return false }
        for start in 0...(haystack.count - bytes.count) where haystack[start] == first {
            if haystack[start..<(start + bytes.count)].elementsEqual(bytes) { return true }
        }
        return false
    }
}

/// File paths as text, the way `NSString`'s path methods read them.
public enum PathText {
    /// The last component: "/tmp/a.txt" → "a.txt", "/tmp/" → "tmp", "/" → "/".
    public static func lastComponent(of path: String) -> String {
        let stripped = strippingTrailingSlashes(path)
        if stripped == "/" || stripped.isEmpty { return stripped }
        guard let slash = stripped.lastIndex(of: "/") else { return stripped }
        return String(stripped[stripped.index(after: slash)...])
    }

    /// The path without its last component: "/tmp/a.txt" → "/tmp", "/tmp" → "/",
    /// "a.txt" → "".
    public static func parent(of path: String) -> String {
        let stripped = strippingTrailingSlashes(path)
        if stripped == "/" { return "/" }
        guard let slash = stripped.lastIndex(of: "/") else { return "" }
        let parent = strippingTrailingSlashes(String(stripped[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The path with `home` written as `~`: "/home/kim/.contacts" → "~/.contacts".
    public static func abbreviating(_ path: String, home: String) -> String {
        let base = strippingTrailingSlashes(home)
        guard base != "/", !base.isEmpty else { return path }
        if path == base { return "~" }
        return path.hasPrefix(base + "/") ? "~" + path.dropFirst(base.count) : path
    }

    private static func strippingTrailingSlashes(_ path: String) -> String {
        guard path.count > 1 else { return path }
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return String(result)
    }
}

/// Sizes of files in words.
public enum ByteCount {
    /// `512 B`, `12.3 KB`, `4.0 MB` (powers of 1000, as file managers show).
    public static func words(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        // 999.96 would print as "1000.0": move up a unit before rounding can do that.
        while value >= 999.95 && unit < units.count - 1 { value /= 1000; unit += 1 }
        // One decimal, rounded half up as printf does for these values.
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
