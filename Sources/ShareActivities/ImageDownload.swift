import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore

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

    /// What a transfer writes into, and whether it went past the limit.
    private final class Sink {
        let file: UnsafePointer<PictureFile>
        var count = 0
        var overflowed = false
        var failure: ActivityError?
        init(_ file: UnsafePointer<PictureFile>) { self.file = file }
    }

    /// The body of `url`, written into `file`; its size.
    private static func download(_ url: URL, into file: borrowing PictureFile) throws(ActivityError) -> Int {
        var loadError = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ActivityError(code: ActivityError.Code.downloadFailed, message: "cannot load libcurl (\(reason)); install it: apt install libcurl4")
        }
        guard let handle = share_curl_easy_init() else {
            throw ActivityError(code: ActivityError.Code.downloadFailed, message: "libcurl could not start")
        }
        defer { share_curl_easy_cleanup(handle) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let outcome: (CURLcode, Sink) = withUnsafePointer(to: file) { pointer in
            let sink = Sink(pointer)
            let code = errorBuffer.withUnsafeMutableBufferPointer { errors in
                share_curl_setopt_string(handle, CURLOPT_URL, url.absoluteString)
                share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                share_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                share_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
                share_curl_setopt_long(handle, CURLOPT_MAXREDIRS, maximumRedirects)
                share_curl_setopt_long(handle, CURLOPT_FAILONERROR, 1)
                share_curl_setopt_string(handle, CURLOPT_USERAGENT, "share/1")
                share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 15)
                share_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                let write: curl_write_callback = { data, size, count, context in
                    guard let context else { return 0 }
                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                    let length = size * count
                    // Fewer bytes than given make curl stop with CURLE_WRITE_ERROR.
                    guard sink.count + length <= ImageDownload.maximumBytes else {
                        sink.overflowed = true
                        return 0
                    }
                    do throws(ActivityError) {
                        try sink.file.pointee.write(UnsafeRawBufferPointer(start: data, count: length))
                    } catch {
                        sink.failure = error
                        return 0
                    }
                    sink.count += length
                    return length
                }
                share_curl_setopt_write_function(handle, write)
                share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
                return share_curl_easy_perform(handle)
            }
            return (code, sink)
        }
        let (code, sink) = outcome
        if let failure = sink.failure { throw failure }
        guard code == CURLE_OK else {
            let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = buffered.isEmpty ? String(cString: share_curl_easy_strerror(code)) : buffered
            let reason = switch code {
            case CURLE_WRITE_ERROR where sink.overflowed: "it is larger than \(maximumBytes >> 20) MiB"
            case CURLE_TOO_MANY_REDIRECTS: "more than \(maximumRedirects) redirects"
            case CURLE_OPERATION_TIMEDOUT: "no answer within \(timeoutSeconds) s"
            default: detail
            }
            throw ActivityError(code: ActivityError.Code.downloadFailed, message: "cannot download \(url.absoluteString): \(reason)")
        }
        return sink.count
    }
}
