import FoundationEssentials

/// How a finished share can be taken back, kept in its history entry for
/// `share --undo`: a kind its activity declares (``UndoAction/kind``) and
/// the values it needs. Each is refused when the world moved on since (a
/// file changed, a job printed).
///
/// Stored as `{"KIND": {"NAME": "VALUE", …}}`, one object per step.
public struct UndoAction: Codable, Sendable, Equatable {
    /// What to do (`removeFile`, `cancelPrintJob`), as its activity names it.
    public var kind: String
    /// What it needs (a path, a digest, a job id).
    public var values: [String: String]

    /// A step of `kind` with `values`.
    public init(_ kind: String, _ values: [String: String]) {
        self.kind = kind
        self.values = values
    }

    /// The value named `name`.
    public subscript(name: String) -> String? { values[name] }

    // MARK: - The steps every activity may use

    /// Delete a file the share created (a saved picture), only while its
    /// bytes are still the ones written (`digest`, SHA-256).
    public static func removeFile(path: String, digest: String) -> UndoAction {
        UndoAction("removeFile", ["path": path, "digest": digest])
    }

    /// Put a file back as it was before the share changed it (a contact's
    /// card): `backup` holds the old bytes; only while the file is still
    /// what the share wrote (`digest`).
    public static func restoreFile(path: String, backup: String, digest: String) -> UndoAction {
        UndoAction("restoreFile", ["path": path, "backup": backup, "digest": digest])
    }

    /// Nothing can be taken back, and why (a sent message cannot be unsent).
    public static func impossible(reason: String) -> UndoAction {
        UndoAction("impossible", ["reason": reason])
    }

    /// Whether this step says the share can never be taken back.
    public var isImpossible: Bool { kind == "impossible" }

    /// Why the share can never be taken back, for an `impossible` step.
    public var impossibleReason: String? { isImpossible ? values["reason"] ?? "it cannot be taken back" : nil }

    /// The copy a ``restoreFile(path:backup:digest:)`` step keeps, if it is one.
    public var backup: String? { kind == "restoreFile" ? values["backup"] : nil }

    // MARK: - Codable

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an undo step is an object of one kind"))
        }
        kind = key.stringValue
        // Values left out (an absent optional) are simply not there.
        values = try container.decode([String: String?].self, forKey: key).compactMapValues { $0 }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(values, forKey: Key(stringValue: kind))
    }
}
