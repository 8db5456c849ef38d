import CMagic
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Tells the content type (MIME type) of bytes.
///
/// Conformers look at the bytes, not the file name: a PNG named `.txt`
/// is `image/png`.
public protocol ContentTypeDetector: Sendable {
    /// The MIME type of the file at `path`.
    func contentType(ofFileAt path: String) throws(ItemError) -> String
    /// The MIME type of `data`.
    func contentType(of data: Data) throws(ItemError) -> String
}

/// Content types from libmagic.
///
/// The magic database takes milliseconds to load, so it is loaded on the
/// first question, not when the detector is made; one handle is shared
/// behind a lock (libmagic handles are not thread-safe).
public final class MagicContentTypeDetector: ContentTypeDetector {
    private let handle = Mutex<OpaquePointer?>(nil)

    /// Creates a detector; the database loads on first use.
    public init() {}

    deinit {
        handle.withLock { if let cookie = $0 { share_magic_close(cookie) } }
    }

    public func contentType(ofFileAt path: String) throws(ItemError) -> String {
        try query(path) { cookie in share_magic_file(cookie, path) }
    }

    public func contentType(of data: Data) throws(ItemError) -> String {
        try query("standard input") { cookie in
            data.withUnsafeBytes { share_magic_buffer(cookie, $0.baseAddress, $0.count) }
        }
    }

    private func query(_ what: String, _ body: (OpaquePointer) -> UnsafePointer<CChar>?) throws(ItemError) -> String {
        let answer: Result<String, ItemError> = handle.withLock { slot in
            if slot == nil {
                var loadError = [CChar](repeating: 0, count: 256)
                guard share_magic_load_library(&loadError, loadError.count) == 0 else {
                    let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    return .failure(.detectionFailed(what, "libmagic cannot be loaded (\(reason)); install it: apt install libmagic1"))
                }
                guard let cookie = share_magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR | MAGIC_SYMLINK) else {
                    return .failure(.detectionFailed(what, "libmagic could not start"))
                }
                // libmagic reads up to 7 MiB of a file by default and widens it
                // four times for its text checks: 256 KiB is enough to type a
                // file and keeps memory flat whatever the file's size.
                var bytesMax = 256 * 1024
                share_magic_setparam(cookie, MAGIC_PARAM_BYTES_MAX, &bytesMax)
                guard share_magic_load(cookie, nil) == 0 else {
                    let reason = share_magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
                    share_magic_close(cookie)
                    return .failure(.detectionFailed(what, "the magic database did not load: \(reason)"))
                }
                slot = cookie
            }
            guard let cookie = slot else { return .failure(.detectionFailed(what, "libmagic is not loaded")) }
            guard let type = body(cookie) else {
                let reason = share_magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
                return .failure(.detectionFailed(what, reason))
            }
            return .success(MagicContentTypeDetector.mediaType(String(cString: type)))
        }
        return try answer.get()
    }

    /// The top-level types of RFC 2046 and its successors.
    private static let mediaTypes: Set<Substring> = ["application", "audio", "font", "image", "message", "model", "multipart",
                                                      "text", "video"]

    /// libmagic's label as a MIME type: its own labels that are not one
    /// (`inode/x-empty` for an empty file, `inode/symlink`) become
    /// `application/octet-stream`.
    static func mediaType(_ label: String) -> String {
        let parts = label.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, mediaTypes.contains(parts[0]), !parts[1].isEmpty else { return "application/octet-stream" }
        return label
    }
}
