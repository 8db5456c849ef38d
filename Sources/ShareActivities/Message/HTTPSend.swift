import CCurl
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP request that sends something, with libcurl: a file PUT to an
/// XMPP upload slot, a webhook's POST. The certificate is checked
/// (`caFile` adds a private CA), a file is streamed from disk, redirects
/// are not followed (the address is where the bytes go), and a refusal
/// says the status and the start of the server's answer. The address is
/// never repeated in a message: a webhook's address is its secret.
struct HTTPSend {
    /// Why a request failed, in words for people.
    struct Failure: Error, Sendable {
        var reason: String
    }

    /// What is sent.
    enum Body {
        case file(path: String, size: Int)
        case bytes([UInt8])
    }

    var method = "POST"
    /// `https` only (upload slots), or `http,https` (a webhook on the local network).
    var protocols = "https"
    /// A PEM file of the certificates to trust instead of the system's (a private server).
    var caFile: String?
    /// How long the server may stay silent before the request is given up.
    var stallSeconds = 60

    /// Sends `body` to `url` with `headers`; returns the answer's status (2xx).
    @discardableResult
    func send(_ body: Body, to url: String, headers: [(String, String)]) throws(Failure) -> Int {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard protocols.split(separator: ",").contains(where: { $0 == scheme }) else {
            throw Failure(reason: "the address is not an \(protocols.split(separator: ",").joined(separator: " or ")) address")
        }
        var loadError = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(reason: "cannot load libcurl (\(reason)); install it: apt install libcurl4")
        }
        let source: Source
        switch body {
        case .file(let path, let size):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(reason: "cannot read \(path): \(String(cString: strerror(errno)))") }
            source = Source(descriptor: descriptor, bytes: [], size: size)
        case .bytes(let bytes):
            source = Source(descriptor: -1, bytes: bytes, size: bytes.count)
        }
        guard let handle = share_curl_easy_init() else { throw Failure(reason: "libcurl could not start") }
        defer { share_curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        // No header may break a line (bytes, not characters: "\r\n" is one Character): a value that would is left out.
        for (name, value) in headers where HTTPSend.isOneLine(name) && HTTPSend.isOneLine(value) {
            list = share_curl_slist_append(list, "\(name): \(value)")
        }
        // libcurl would send "Expect: 100-continue" and wait for it; these servers answer at once.
        list = share_curl_slist_append(list, "Expect:")
        defer { share_curl_slist_free_all(list) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = withExtendedLifetime(source) {
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                share_curl_setopt_string(handle, CURLOPT_URL, url)
                share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols)
                share_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
                share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
                share_curl_setopt_long(handle, CURLOPT_INFILESIZE_LARGE, source.size)
                share_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
                share_curl_setopt_string(handle, CURLOPT_USERAGENT, "share/1")
                share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 30)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, stallSeconds)
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
                if let caFile { share_curl_setopt_string(handle, CURLOPT_CAINFO, caFile) }
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                share_curl_setopt_read_function(handle) { buffer, size, count, context in
                    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
                    let got = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
                        .read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
                    return got < 0 ? Int(CURL_READFUNC_ABORT) : got
                }
                share_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque())
                share_curl_setopt_write_function(handle) { data, size, count, context in
                    guard let data, let context else { return size * count }
                    Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
                        .keep(UnsafeRawBufferPointer(start: data, count: size * count))
                    return size * count
                }
                share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(source).toOpaque())
                let code = share_curl_easy_perform(handle)
                // The buffer lives only in this closure; the handle outlives it.
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
                return code
            }
        }
        var status = 0
        share_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard code == CURLE_OK else {
            let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = buffered.isEmpty ? String(cString: share_curl_easy_strerror(code)) : buffered
            switch code {
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
                throw Failure(reason: "certificate verification failed: \(detail) (set ca-file for a private server)")
            default: throw Failure(reason: detail)
            }
        }
        guard (200..<300).contains(status) else {
            let answer = String(decoding: source.answer, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            throw Failure(reason: "the server answered HTTP \(status)" + (answer.isEmpty ? "" : ": \(answer.prefix(200))"))
        }
        return status
    }

    /// Whether a header's name or value holds no CR, LF or NUL byte.
    static func isOneLine(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// What is sent, for libcurl's read callback, and the start of the answer.
    private final class Source {
        let descriptor: Int32
        let bytes: [UInt8]
        let size: Int
        var offset = 0
        var answer: [UInt8] = []

        init(descriptor: Int32, bytes: [UInt8], size: Int) {
            self.descriptor = descriptor
            self.bytes = bytes
            self.size = size
        }

        deinit { if descriptor >= 0 { close(descriptor) } }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            if descriptor >= 0 { return Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
            offset += count
            return count
        }

        /// Keeps the first kilobyte of the answer, for messages.
        func keep(_ data: UnsafeRawBufferPointer) {
            if answer.count < 1024 { answer += data.prefix(1024 - answer.count) }
        }
    }
}
