#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareCore
import ShareSupport

/// How one kind of undo step (``UndoAction/kind``) is carried out; an
/// activity declares those its shares record (``SystemActivity/undoSteps``).
public struct UndoStep: Sendable {
    /// The kind it carries out (`cancelPrintJob`).
    public var kind: String
    /// Carries out a step, given the environment of the run that undoes:
    /// what was done, or why it cannot be.
    public var perform: @Sendable (UndoAction, [String: String]) -> Result<String, UndoRefusal>

    /// A step of `kind`.
    public init(_ kind: String, perform: @escaping @Sendable (UndoAction, [String: String]) -> Result<String, UndoRefusal>) {
        self.kind = kind
        self.perform = perform
    }
}

/// Takes a share back (`share --undo`), where the world allows: each step
/// checks first that what it would undo is still what the share left.
public enum Undo {
    /// Carries out `action`: what was done, or why it cannot be.
    public static func perform(_ action: UndoAction, environment: [String: String]) -> Result<String, UndoRefusal> {
        guard let step = (fileSteps + SystemActivities.undoSteps).first(where: { $0.kind == action.kind }) else {
            return .failure(UndoRefusal("share does not know how to undo '\(action.kind)' (written by a newer version?)"))
        }
        return step.perform(action, environment)
    }

    /// The steps of ``UndoAction``'s own kinds, for any activity.
    static let fileSteps = [
        UndoStep("impossible") { action, _ in .failure(UndoRefusal(action["reason"] ?? "this share cannot be taken back")) },
        UndoStep("removeFile") { action, _ in
            guard let path = action["path"], let digest = action["digest"] else { return .failure(incomplete(action)) }
            guard let now = SHA256.hex(ofFile: path) else { return .failure(UndoRefusal("\(path) is gone already")) }
            guard now == digest else { return .failure(UndoRefusal("\(path) changed since it was saved; it is left as it is")) }
            guard unlink(path) == 0 else { return .failure(UndoRefusal("cannot remove \(path): \(FileError(code: errno).reason)")) }
            return .success("removed \(path)")
        },
        UndoStep("restoreFile") { action, _ in
            guard let path = action["path"], let backup = action["backup"], let digest = action["digest"] else {
                return .failure(incomplete(action))
            }
            return restore(path, from: backup, digest: digest)
        },
    ]

    /// A step whose values are not all there (a hand-edited history).
    static func incomplete(_ action: UndoAction) -> UndoRefusal {
        UndoRefusal("the history's '\(action.kind)' step lacks what it needs; nothing was done")
    }

    /// Puts `path` back as `backup` holds it, while it is still what the share wrote (`digest`).
    private static func restore(_ path: String, from backup: String, digest: String) -> Result<String, UndoRefusal> {
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
    }
}

/// Why a share could not be taken back.
public struct UndoRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
