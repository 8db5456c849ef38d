import ShareSupport

/// The activities pinned from the picker: `$XDG_STATE_HOME/share/pins`,
/// one activity type a line, in pin order. The user's config is never
/// rewritten; its `[picker] pinned` come first.
public struct PinsFile: Sendable {
    /// The file.
    public let path: String

    /// The pins in `stateHome` (`$XDG_STATE_HOME/share`).
    public init(stateHome: String) { path = stateHome + "/pins" }

    /// The pinned types, in order, and the numbers of the lines that are
    /// not activity types (skipped, and kept in the file as they are).
    public func read() -> (types: [ActivityType], unreadable: [Int]) {
        // An unreadable file pins nothing; the picker still opens.
        PinsFile.parse((try? file.lines()) ?? [])
    }

    /// Pins `type` (last), or unpins it when pinned; the pins after. The
    /// file's lock is held from the read to the rewrite, so two pickers
    /// pinning at once lose neither pin.
    public func toggle(_ type: ActivityType) throws(FileReplaceError) -> [ActivityType] {
        do {
            return try file.change { lines in
                var kept = lines.map(\.bytes), types = PinsFile.parse(lines).types
                if let index = types.firstIndex(of: type) {
                    types.remove(at: index)
                    kept.removeAll { PinsFile.type(in: $0) == type }
                } else {
                    types.append(type)
                    kept.append(Array(type.rawValue.utf8))
                }
                return (kept, types)
            }
        } catch let error as FileReplaceError {
            throw error
        } catch {
            throw FileReplaceError(ErrorText.sentence(error))
        }
    }

    /// The warning for the lines that are not activity types, if any.
    public func unreadableWarning(_ numbers: [Int]) -> String? { file.skipped(numbers, expected: "an activity type") }

    private var file: LineFile { LineFile(path: path, name: "the pins", limit: 1 << 20) }

    private static func type(in line: [UInt8]) -> ActivityType? {
        try? ActivityType(parsing: String(decoding: line, as: UTF8.self).trimmingWhitespace(includingNewlines: true))
    }

    private static func parse(_ lines: [LineFile.Line]) -> (types: [ActivityType], unreadable: [Int]) {
        var types: [ActivityType] = [], unreadable: [Int] = []
        for line in lines {
            guard line.text != nil, let type = type(in: line.bytes) else { unreadable.append(line.number); continue }
            if !types.contains(type) { types.append(type) }
        }
        return (types, unreadable)
    }
}
