#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareCore

/// Takes a share back (`share --undo`), where the world allows: each step
/// checks first that what it would undo is still what the share left.
public enum Undo {
    /// Carries out `action`: what was done, or why it cannot be.
    public static func perform(_ action: UndoAction, environment: [String: String]) -> Result<String, UndoRefusal> {
        switch action {
        case .impossible(let reason):
            return .failure(UndoRefusal(reason))
        case .removeFile(let path, let digest):
            guard let now = SHA256.hex(ofFile: path) else { return .failure(UndoRefusal("\(path) is gone already")) }
            guard now == digest else { return .failure(UndoRefusal("\(path) changed since it was saved; it is left as it is")) }
            guard unlink(path) == 0 else { return .failure(UndoRefusal("cannot remove \(path): \(FileError(code: errno).reason)")) }
            return .success("removed \(path)")
        case .restoreFile(let path, let backup, let digest):
            guard let now = SHA256.hex(ofFile: path) else { return .failure(UndoRefusal("\(path) is gone; nothing was restored")) }
            guard now == digest else {
                return .failure(UndoRefusal("\(path) changed since its photo was set; it is left as it is"))
            }
            guard case .success(let old) = LocalFiles.contents(ofFile: backup, limit: 64 << 20) else {
                return .failure(UndoRefusal("the copy of \(path) as it was (\(backup)) is gone"))
            }
            var info = stat()
            let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o600
            do {
                try LocalFiles.replace(path, with: old, mode: mode) { () throws(FileReplaceError) in
                    guard SHA256.hex(ofFile: path) == digest else {
                        throw FileReplaceError("\(path) changed while it was being restored; it is left as it is")
                    }
                }
            } catch {
                return .failure(UndoRefusal(error.description))
            }
            unlink(backup)
            return .success("restored \(path) as it was")
        case .removeFromReadingList(let path, let url, let added):
            return ReadingListActivity.remove(url, added: added, fromListAt: path).mapError { UndoRefusal($0.description) }
        case .cancelPrintJob(let id, let printer, let server):
            var environment = environment
            if let server { environment["CUPS_SERVER"] = server }
            let cups: CUPS
            switch CUPS.find(environment: environment) {
            case .success(let found): cups = found
            case .failure(let error): return .failure(UndoRefusal(error.description))
            }
            switch try? cups.job(id, printer: printer) {
            case .completed?: return .failure(UndoRefusal("job \(id) has printed already"))
            case .unknown?: return .failure(UndoRefusal("CUPS no longer knows job \(id) (printed, or removed)"))
            case .cancelled?, .aborted?: return .failure(UndoRefusal("job \(id) is not in the queue any more"))
            default: break
            }
            do { try cups.cancel(id) } catch { return .failure(UndoRefusal("cancel \(id): \(error.description)")) }
            return .success("cancelled job \(id)")
        }
    }
}

/// Why a share could not be taken back.
public struct UndoRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
