import CCurl
import FoundationEssentials

/// One HTTP GET with libcurl for the activities that fetch (Save to
/// Pictures' images, the reading list's titles): http and https only, a
/// limited number of redirects, a deadline, TLS certificates checked, and
/// the body handed over in pieces as it arrives.
struct HTTPGet {
    /// Why a fetch failed, in words for people.
    struct Failure: Error {
        var reason: String
    }

    var timeoutSeconds: Int
    var maximumRedirects = 5
    var maximumBytes: Int

    /// Fetches `url`, giving each piece of the body to `receive`, which
    /// returns false to stop (then the fetch fails with `stopped`).
    func fetch(_ url: URL, stopped: String = "the download was stopped",
               receive: (UnsafeRawBufferPointer) -> Bool) throws(Failure) {
        var loadError = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(reason: "cannot load libcurl (\(reason)); install it: apt install libcurl4")
        }
        guard let handle = share_curl_easy_init() else { throw Failure(reason: "libcurl could not start") }
        defer { share_curl_easy_cleanup(handle) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let (code, overflowed): (CURLcode, Bool) = withoutActuallyEscaping(receive) { receive in
            let sink = Sink(limit: maximumBytes, receive: receive)
            let code = withExtendedLifetime(sink) {
                errorBuffer.withUnsafeMutableBufferPointer { errors in
                    share_curl_setopt_string(handle, CURLOPT_URL, url.absoluteString)
                    share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                    share_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                    share_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
                    share_curl_setopt_long(handle, CURLOPT_MAXREDIRS, maximumRedirects)
                    share_curl_setopt_long(handle, CURLOPT_FAILONERROR, 1)
                    share_curl_setopt_string(handle, CURLOPT_USERAGENT, "share/1")
                    share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                    share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, min(15, timeoutSeconds))
                    share_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeoutSeconds)
                    share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                    let write: curl_write_callback = { data, size, count, context in
                        guard let context else { return 0 }
                        // Fewer bytes than given make curl stop with CURLE_WRITE_ERROR.
                        return Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                            .take(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
                    }
                    share_curl_setopt_write_function(handle, write)
                    share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
                    return share_curl_easy_perform(handle)
                }
            }
            return (code, sink.overflowed)
        }
        guard code == CURLE_OK else {
            let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = buffered.isEmpty ? String(cString: share_curl_easy_strerror(code)) : buffered
            let reason = switch code {
            case CURLE_WRITE_ERROR where overflowed: "it is larger than \(HTTPGet.size(maximumBytes))"
            case CURLE_WRITE_ERROR: stopped
            case CURLE_TOO_MANY_REDIRECTS: "more than \(maximumRedirects) redirects"
            case CURLE_OPERATION_TIMEDOUT: "no answer within \(timeoutSeconds) s"
            default: detail
            }
            throw Failure(reason: reason)
        }
    }

    static func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }

    /// Counts the body against the limit and hands it on.
    private final class Sink {
        let limit: Int
        let receive: (UnsafeRawBufferPointer) -> Bool
        var count = 0
        var overflowed = false

        init(limit: Int, receive: @escaping (UnsafeRawBufferPointer) -> Bool) {
            self.limit = limit
            self.receive = receive
        }

        func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard count + bytes.count <= limit else {
                overflowed = true
                return false
            }
            count += bytes.count
            return receive(bytes)
        }
    }
}
