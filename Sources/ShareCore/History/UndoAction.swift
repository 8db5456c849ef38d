/// How a finished share can be taken back, kept in its history entry for
/// `share --undo`. Each is refused when the world moved on since (a file
/// changed, a job printed).
public enum UndoAction: Codable, Sendable, Equatable {
    /// Delete a file the share created (a saved picture), only while its
    /// bytes are still the ones written (`digest`, SHA-256).
    case removeFile(path: String, digest: String)
    /// Put a file back as it was before the share changed it (a contact's
    /// card): `backup` holds the old bytes; only while the file is still
    /// what the share wrote (`digest`).
    case restoreFile(path: String, backup: String, digest: String)
    /// Remove the line of `url` added at `added` from the reading list at `path`.
    case removeFromReadingList(path: String, url: String, added: String)
    /// Cancel a print job still in CUPS' queue, on the scheduler it was
    /// sent to (`server`: the `CUPS_SERVER` of that run, if set).
    case cancelPrintJob(id: String, printer: String, server: String?)
    /// Nothing can be taken back, and why (a sent message cannot be unsent).
    case impossible(reason: String)
}
