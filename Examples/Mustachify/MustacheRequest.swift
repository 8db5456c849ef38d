import CCurl
import Foundation
import ShareCore
import ShareSupport
import Synchronization

/// What the service made of the image.
enum MustacheAnswer: Sendable, Equatable {
    /// The returned image: the bytes of a PNG, and its size.
    case image(Data, PNGInfo)
    /// No image; the code is stable, the message is for people.
    case failure(code: String, message: String)
}

/// One HTTP POST of an image to the mustache service with libcurl.
///
/// `curl_easy_perform` blocks, so the request runs on a thread of its own
/// and the result screen stays live meanwhile; the answer is handed to the
/// screen loop as a message. ``cancel()`` makes curl's progress callback
/// abort the transfer (curl calls it at least about once a second, even
/// while the server is silent).
final class MustacheRequest: Sendable {
    /// The service's URL (`http://127.0.0.1:8080/mustachify`).
    let service: String
    /// The image's bytes, posted as they are.
    let body: Data
    /// The image's content type, sent as `Content-Type`.
    let contentType: String

    /// The longest the whole request may take.
    static let timeoutSeconds = 60
    /// The largest answer accepted.
    static let maximumAnswer = 32 << 20

    private let cancelled = Atomic<Bool>(false)

    /// Prepares the request; ``start(answered:)`` sends it.
    init(service: String, body: Data, contentType: String) {
        self.service = service
        self.body = body
        self.contentType = contentType
    }

    /// Sends the request on a new thread; `answered` gets the answer there.
    func start(answered: @escaping @Sendable (MustacheAnswer) -> Void) {
        let thread = Thread { [self] in answered(post()) }
        thread.name = "mustachify-request"
        thread.start()
    }

    /// Asks the transfer to stop; its answer, if any, is no longer wanted.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    // MARK: - The transfer (on the request's thread)

    private func post() -> MustacheAnswer {
        var loadError = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(code: "no-libcurl", message: "cannot load libcurl (\(reason)); install it: apt install libcurl4")
        }
        guard let handle = share_curl_easy_init() else {
            return .failure(code: "no-libcurl", message: "libcurl could not start")
        }
        defer { share_curl_easy_cleanup(handle) }

        var headers: UnsafeMutablePointer<curl_slist>?
        headers = share_curl_slist_append(headers, "Content-Type: \(contentType)")
        headers = share_curl_slist_append(headers, "Expect:")  // no 100-continue round trip
        defer { share_curl_slist_free_all(headers) }

        let collector = AnswerCollector(limit: MustacheRequest.maximumAnswer)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = withExtendedLifetime(collector) {
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                share_curl_setopt_string(handle, CURLOPT_URL, service)
                share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                share_curl_setopt_string(handle, CURLOPT_USERAGENT, "share-mustachify/1")
                share_curl_setopt_long(handle, CURLOPT_POST, 1)
                share_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
                // curl copies the bytes, so they need not outlive this call.
                body.withUnsafeBytes { bytes in
                    _ = share_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
                share_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)
                share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 10)
                share_curl_setopt_long(handle, CURLOPT_TIMEOUT, MustacheRequest.timeoutSeconds)
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)

                // The answer is collected by a write callback; a progress callback aborts on cancel.
                let collect: curl_write_callback = { data, size, count, context in
                    guard let context else { return 0 }
                    let collector = Unmanaged<AnswerCollector>.fromOpaque(context).takeUnretainedValue()
                    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
                    // Returning fewer bytes than given makes curl stop with CURLE_WRITE_ERROR.
                    return collector.append(bytes) ? size * count : 0
                }
                share_curl_setopt_write_function(handle, collect)
                share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(collector).toOpaque())

                let progress: curl_xferinfo_callback = { context, _, _, _, _ in
                    guard let context else { return 0 }
                    // Non-zero aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
                    return Unmanaged<MustacheRequest>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
                }
                share_curl_setopt_xferinfo_function(handle, progress)
                share_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(self).toOpaque())
                share_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
                return share_curl_easy_perform(handle)
            }
        }

        var status = 0
        share_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if code != CURLE_OK {
            let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = buffered.isEmpty ? String(cString: share_curl_easy_strerror(code)) : buffered
            switch code {
            case CURLE_ABORTED_BY_CALLBACK:
                return .failure(code: ActivityError.Code.cancelled, message: "the request was cancelled")
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                return .failure(code: "service-unreachable", message: "cannot reach the service at \(service): \(detail)")
            case CURLE_OPERATION_TIMEDOUT:
                return .failure(code: "service-timeout",
                                message: "the service at \(service) did not answer within \(MustacheRequest.timeoutSeconds) s: \(detail)")
            case CURLE_WRITE_ERROR where collector.overflowed:
                return .failure(code: "service-bad-answer",
                                message: "the service's answer is larger than \(MustacheRequest.maximumAnswer >> 20) MB")
            default:
                return .failure(code: "service-failed", message: "the request to \(service) failed: \(detail)")
            }
        }
        guard (200..<300).contains(status) else {
            let words = MustacheRequest.words(collector.data).map { ": \($0)" } ?? ""
            return .failure(code: "service-rejected", message: "the service at \(service) answered \(status)\(words)")
        }
        guard let info = PNGInfo(collector.data) else {
            return .failure(code: "service-bad-answer",
                            message: "the service answered with \(collector.data.count) bytes that are not a PNG image")
        }
        return .image(collector.data, info)
    }

    /// The first line of a plain-text error body, if it has one (not HTML, not binary).
    static func words(_ data: Data) -> String? {
        guard data.count <= 64 * 1024, let text = String(data: data, encoding: .utf8), !text.contains("\0") else { return nil }
        guard let line = text.split(whereSeparator: \.isNewline).lazy
            .map({ $0.trimmingWhitespace() }).first(where: { !$0.isEmpty }),
            !line.hasPrefix("<") else { return nil }
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}

/// The answer's bytes as curl hands them over, up to a limit.
private final class AnswerCollector {
    private(set) var data = Data()
    private(set) var overflowed = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Keeps `bytes`; false when the answer grew past the limit.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard data.count + bytes.count <= limit else {
            overflowed = true
            return false
        }
        data.append(contentsOf: bytes)
        return true
    }
}

/// The size of a PNG, read from its header.
struct PNGInfo: Sendable, Equatable {
    var width: Int
    var height: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the IHDR chunk that follows the signature; `nil` when `data` is not a PNG.
    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, Array(bytes[0..<8]) == PNGInfo.signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func number(at offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        width = number(at: 16)
        height = number(at: 20)
        guard width > 0, height > 0 else { return nil }
    }
}
