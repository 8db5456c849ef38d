import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// An image URL downloaded with libcurl straight into a picture file:
/// http and https only, at most 5 redirects, 60 seconds, 64 MiB, TLS
/// certificates checked; kept only when its bytes are an image, whatever
/// the server called them.
enum ImageDownload {
    static let maximumBytes = 64 << 20
    static let timeoutSeconds = 60
    static let maximumRedirects = 5

    /// Downloads `url` into `folder` and keeps it there; the saved image.
    static func save(_ url: URL, in folder: String, detector: any ContentTypeDetector) throws(ActivityError) -> ShareItem {
        let file = try PictureFile(in: folder)
        let size = try download(url, into: file)
        let type = (try? detector.contentType(ofFileAt: file.path)) ?? "application/octet-stream"
        guard type.hasPrefix("image/") else {
            throw ActivityError(code: ActivityError.Code.notAnImage,
                                message: "\(url.absoluteString) is not an image (its bytes are \(type)); nothing was saved")
        }
        let path = try file.keep(as: name(for: url, type: type))
        return .image(FileItem(name: PathText.lastComponent(of: path), contentType: type, size: Int64(size),
                               storage: .path(URL(fileURLWithPath: path))))
    }

    /// The name to keep: the URL's last path component, with an extension
    /// that says what the bytes are.
    static func name(for url: URL, type: String) -> String {
        let last = url.lastPathComponent
        let base = last.isEmpty || last == "/" ? "image" : last
        let wanted: String? = switch type {
        case "image/png": "png"
        case "image/jpeg": "jpg"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/svg+xml": "svg"
        default: nil
        }
        guard let wanted else { return base }
        let lowered = base.lowercased()
        if lowered.hasSuffix("." + wanted) || (wanted == "jpg" && lowered.hasSuffix(".jpeg")) { return base }
        return base + "." + wanted
    }

    /// The body of `url`, written into `file`; its size.
    private static func download(_ url: URL, into file: borrowing PictureFile) throws(ActivityError) -> Int {
        var size = 0
        var failure: ActivityError?
        let get = HTTPGet(timeoutSeconds: timeoutSeconds, maximumRedirects: maximumRedirects, maximumBytes: maximumBytes)
        do {
            try get.fetch(url) { bytes in
                do throws(ActivityError) {
                    try file.write(bytes)
                } catch {
                    failure = error
                    return false
                }
                size += bytes.count
                return true
            }
        } catch {
            throw failure ?? ActivityError(code: ActivityError.Code.downloadFailed,
                                           message: "cannot download \(url.absoluteString): \(error.reason)")
        }
        return size
    }
}
