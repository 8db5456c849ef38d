import ShareSupport

/// The activities pinned from the picker: `$XDG_STATE_HOME/share/pins`,
/// one activity type a line, in pin order. The user's config is never
/// rewritten; its `[picker] pinned` come first.
public struct PinsFile: Sendable {
    /// The file.
    public let path: String

    /// The pins in `stateHome` (`$XDG_STATE_HOME/share`).
    public init(stateHome: String) { path = stateHome + "/pins" }

    /// The pinned types, in order; lines that are not activity types are skipped.
    public func read() -> [ActivityType] {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path, limit: 1 << 20) else { return [] }
        var types: [ActivityType] = []
        for line in bytes.split(separator: 0x0A) {
            guard let type = try? ActivityType(parsing: String(decoding: line, as: UTF8.self).trimmingWhitespace()),
                  !types.contains(type) else { continue }
            types.append(type)
        }
        return types
    }

    /// Pins `type` (last), or unpins it when pinned; the pins after.
    public func toggle(_ type: ActivityType) throws(FileReplaceError) -> [ActivityType] {
        var types = read()
        if let index = types.firstIndex(of: type) { types.remove(at: index) } else { types.append(type) }
        if let failure = LocalFiles.createFolders(PathText.parent(of: path)) {
            throw FileReplaceError("cannot write \(path): \(failure.reason)")
        }
        try LocalFiles.replace(path, with: Array(types.map { $0.rawValue + "\n" }.joined().utf8))
        return types
    }
}
