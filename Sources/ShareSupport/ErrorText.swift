#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Errors as a sentence a person can act on.
///
/// Foundation's errors print as dumps (`CocoaError(code: …(rawValue: 260),
/// userInfo: [...])`); they become the file and the system's reason
/// (`/tmp/a.pdf: No such file or directory`). Errors of our own, and of
/// programs using the Swift API, print as they describe themselves.
public enum ErrorText {
    public static func sentence(_ error: any Error) -> String {
        if let error = error as? CocoaError { return sentence(error) }
        if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
        return "\(error)"
    }

    private static func sentence(_ error: CocoaError) -> String {
        let reason: String
        if let underlying = error.underlying as? POSIXError {
            reason = String(cString: strerror(underlying.code.rawValue))
        } else {
            switch error.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: reason = String(cString: strerror(ENOENT))
            case .fileReadNoPermission, .fileWriteNoPermission: reason = String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: reason = String(cString: strerror(ENOSPC))
            case .fileReadTooLarge: reason = String(cString: strerror(EFBIG))
            case .fileWriteFileExists: reason = String(cString: strerror(EEXIST))
            case .fileWriteVolumeReadOnly: reason = String(cString: strerror(EROFS))
            case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: reason = "not text in the expected encoding"
            case .fileReadCorruptFile: reason = "the file is damaged or not in the expected format"
            default: reason = error.code.rawValue < 1024 ? "cannot read the file" : "cannot write the file"
            }
        }
        guard let path = error.filePath ?? error.url?.path else { return reason }
        return "\(path): \(reason)"
    }
}
