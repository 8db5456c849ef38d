/// Small text and path operations from the standard library alone, so that
/// share links only Foundation's essentials (not the whole of Foundation and
/// CoreFoundation, whose start-up ran before every first paint).

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (not newlines).
    public func trimmingWhitespace() -> String {
        trimmed { $0.isWhitespace && !$0.isNewline }
    }

    /// The text without leading and trailing white space, newlines included.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmed(\.isWhitespace)
    }

    private func trimmed(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
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

    private static func strippingTrailingSlashes(_ path: String) -> String {
        guard path.count > 1 else { return path }
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return String(result)
    }
}
