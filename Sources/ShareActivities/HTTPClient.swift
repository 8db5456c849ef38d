import CCurl
import FoundationEssentials
import ShareCore
#if canImport(Glibc)
import Glibc
import ShareSupport
#endif

/// One HTTP request with libcurl, for the activities that talk to a web
/// API (a social service's, a webhook, an upload slot): any method, a
/// body streamed from memory and files in pieces (or a multipart form,
/// written by libcurl, whose files are read as they go), so memory stays
/// flat whatever a file's size; the
/// answer's status, headers and first megabyte, progress as bytes go out,
/// and a stop asked for from the progress callback.
///
/// Certificates are always checked (`caFile` trusts a private CA
/// instead), redirects are not followed (the address is where the bytes
/// go), and an answer of any status is returned: what a 401 or a 429
/// means is the caller's to say. Only the connection failing throws.
struct HTTPClient {
    /// Why no answer came, in words for people.
    struct Failure: Error, Sendable {
        var reason: String
        /// The progress callback asked to stop.
        var cancelled = false
        /// The body could not be read here (a file gone): nothing the network did.
        var local = false
        /// The answer's receiver asked to stop.
        var refused = false
        /// ``HTTPClient/totalSeconds`` passed.
        var timedOut = false
        /// The server's certificate is not the one pinned (``Certificate/pinned(_:)``).
        var certificateMismatch = false
    }

    /// How the server's certificate is checked.
    enum Certificate: Sendable, Equatable {
        /// Against the system's certificate authorities (or ``HTTPClient/caFile``), and the name.
        case checked
        /// Its SHA-256 (of the DER) must be these 32 bytes, checked in the
        /// handshake before any byte of the request goes: a self-signed
        /// peer known by its fingerprint (LocalSend).
        case pinned([UInt8])
        /// Any certificate: only for a request that carries nothing but
        /// public facts and whose answer is checked later (LocalSend's
        /// register, whose answer names the fingerprint a send then pins).
        case any
    }

    /// What is sent: pieces in order and its type, or a form's parts.
    struct Body: Sendable {
        enum Piece: Sendable {
            case bytes([UInt8])
            /// `length` bytes of the file at `path` from `offset`, read as they are sent.
            case file(path: String, offset: Int, length: Int)

            var count: Int {
                switch self {
                case .bytes(let bytes): bytes.count
                case .file(_, _, let length): length
                }
            }
        }

        var pieces: [Piece]
        /// The `Content-Type` header (`nil`: none sent).
        var contentType: String?
        /// The parts of a `multipart/form-data` body, which libcurl writes
        /// (boundary, headers, type): `pieces` is empty then.
        var parts: [Part] = []
        /// How many bytes the pieces are.
        var count: Int { pieces.reduce(0) { $0 + $1.count } }
        var isEmpty: Bool { pieces.isEmpty && parts.isEmpty }

        /// No body at all (a GET).
        static let none = Body(pieces: [], contentType: nil)

        static func bytes(_ bytes: [UInt8], type: String?) -> Body { Body(pieces: [.bytes(bytes)], contentType: type) }

        /// The whole file at `path`, read as it is sent.
        static func file(_ path: String, size: Int, type: String? = nil) -> Body {
            Body(pieces: [.file(path: path, offset: 0, length: size)], contentType: type)
        }

        /// A JSON document.
        static func json(_ value: JSONValue) -> Body { bytes(Array(value.serialized.utf8), type: "application/json") }

        /// `application/x-www-form-urlencoded` fields, in order.
        static func form(_ fields: [(String, String)]) -> Body {
            bytes(Array(HTTPClient.formEncoded(fields).utf8), type: "application/x-www-form-urlencoded")
        }

        /// A part of a `multipart/form-data` body: a text field or a file.
        struct Part: Sendable {
            var name: String
            var value: Piece
            /// The file's name and type, for a file part.
            var filename: String?
            var type: String?

            static func text(_ name: String, _ value: String) -> Part { Part(name: name, value: .bytes(Array(value.utf8))) }
        }

        /// A `multipart/form-data` body of `parts` (RFC 7578), its files read as they go.
        static func multipart(_ parts: [Part]) -> Body { Body(pieces: [], contentType: nil, parts: parts) }
    }

    /// The server's answer.
    struct Response: Sendable {
        var status: Int
        /// The headers, names as sent, in order.
        var headers: [(name: String, value: String)]
        /// The body's first ``HTTPClient/maximumAnswer`` bytes.
        var body: [UInt8]

        /// The last value of the header `name` (any case).
        func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }

        var isSuccess: Bool { (200..<300).contains(status) }

        /// The body as JSON of `type`, or `nil` when it is not.
        func decoded<T: Decodable>(_ type: T.Type) -> T? {
            try? JSONDecoder().decode(type, from: Data(body))
        }

        /// The response, when its status is 2xx; otherwise a failure saying
        /// the status and the start of the server's answer. The address is
        /// never repeated: a webhook's address is its secret.
        @discardableResult
        func requireSuccess() throws(Failure) -> Response {
            guard isSuccess else { throw Failure(reason: "the server answered HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)")) }
            return self
        }

        /// The start of the body as one line of text, for messages.
        var excerpt: String {
            let text = String(decoding: body.prefix(400), as: UTF8.self)
            return String(text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace().prefix(200))
        }
    }

    /// `https` only, or `http,https` (a webhook on the local network).
    var protocols = "https"
    /// A PEM file of the certificates to trust instead of the system's (a private server).
    var caFile: String?
    /// How the server's certificate is checked (by default, as the system does).
    var certificate = Certificate.checked
    /// How long the server may stay silent before the request is given up.
    var stallSeconds = 60
    var connectSeconds = 30
    /// How long the whole request may take (`nil`: as long as bytes flow).
    var totalSeconds: Int?
    /// How much of an answer is kept.
    var maximumAnswer = 1 << 20
    /// How many redirects are followed (0: none, the address is where the bytes go).
    var maximumRedirects = 0
    /// libcurl's upload buffer in bytes (`nil`: its 64 KiB); bigger means
    /// fewer reads and writes for a large body on a fast link.
    var uploadBufferSize: Int?

    /// Sends `method` to `url` with `headers` and `body`; `progress` hears
    /// (bytes sent, bytes to send) as they go and returns false to stop.
    /// `receive`, when given, takes the answer's body piece by piece as it
    /// arrives instead of its start being kept, and returns false to stop.
    func perform(_ method: String, _ url: String, headers: [(String, String)] = [], body: Body = .none,
                 progress: ((Int, Int) -> Bool)? = nil,
                 receive: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws(Failure) -> Response {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard protocols.split(separator: ",").contains(where: { $0 == scheme }) else {
            throw Failure(reason: "the address is not an \(protocols.split(separator: ",").joined(separator: " or ")) address")
        }
        var loadError = [CChar](repeating: 0, count: 256)
        guard share_curl_load(&loadError, loadError.count) == 0 else {
            let reason = String(decoding: loadError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(reason: "cannot load libcurl (\(reason)); install it: apt install libcurl4")
        }
        guard let handle = share_curl_easy_init() else { throw Failure(reason: "libcurl could not start") }
        defer { share_curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        var sent = headers
        if let type = body.contentType { sent.append(("Content-Type", type)) }
        // No header may break a line (bytes, not characters: "\r\n" is one Character): a value that would is left out.
        for (name, value) in sent where HTTPClient.isOneLine(name) && HTTPClient.isOneLine(value) {
            list = share_curl_slist_append(list, "\(name): \(value)")
        }
        // libcurl would send "Expect: 100-continue" and wait for it; these servers answer at once.
        list = share_curl_slist_append(list, "Expect:")
        defer { share_curl_slist_free_all(list) }
        // The form's files are read by readers of their own, as libcurl asks for their bytes.
        var readers = [PieceReader(body.pieces)]
        let form = body.parts.isEmpty ? nil : HTTPClient.form(body.parts, for: handle, readers: &readers)
        guard body.parts.isEmpty || form != nil else { throw Failure(reason: "libcurl could not make the form") }
        // Before the handle's cleanup: freeing a form unbinds it from its handle.
        defer { share_curl_mime_free(form) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        // The pinned digest, where libssl's callback reads it during the transfer.
        var pinError = [CChar](repeating: 0, count: 256)
        let pinned = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 32)
        defer { pinned.deallocate() }
        if case .pinned(let digest) = certificate {
            guard digest.count == 32 else { throw Failure(reason: "a certificate's fingerprint is 32 bytes, not \(digest.count)") }
            _ = pinned.initialize(from: digest)
        }
        let (code, exchange): (CURLcode, Exchange) = withoutActuallyEscaping(progress ?? { _, _ in true }) { progress in
          withoutActuallyEscaping(receive ?? { _ in true }) { sink in
            let exchange = Exchange(limit: maximumAnswer, progress: progress, receive: receive == nil ? nil : sink)
            let code = errorBuffer.withUnsafeMutableBufferPointer { errors in
                share_curl_setopt_string(handle, CURLOPT_URL, url)
                share_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols)
                if maximumRedirects > 0 {
                    share_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
                    share_curl_setopt_long(handle, CURLOPT_MAXREDIRS, maximumRedirects)
                    share_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols)
                }
                if method == "GET" && body.isEmpty {
                    share_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
                } else if method == "HEAD" {
                    share_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
                } else if let form {
                    share_curl_setopt_mime(handle, CURLOPT_MIMEPOST, form)
                    if method != "POST" { share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method) }
                } else {
                    share_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
                    share_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
                    share_curl_setopt_long(handle, CURLOPT_INFILESIZE_LARGE, body.count)
                }
                share_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list)
                share_curl_setopt_string(handle, CURLOPT_USERAGENT, "share/1")
                share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, connectSeconds)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, stallSeconds)
                if let totalSeconds { share_curl_setopt_long(handle, CURLOPT_TIMEOUT, totalSeconds) }
                if let uploadBufferSize { share_curl_setopt_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, uploadBufferSize) }
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
                if let caFile { share_curl_setopt_string(handle, CURLOPT_CAINFO, caFile) }
                switch certificate {
                case .checked: break
                case .pinned:
                    guard share_curl_pin_certificate(handle, pinned.baseAddress, &pinError, pinError.count) == 0 else { return CURLE_SSL_ENGINE_INITFAILED }
                case .any:
                    share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0)
                    share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0)
                }
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                let context = Unmanaged.passUnretained(exchange).toOpaque()
                share_curl_setopt_read_function(handle, HTTPClient.readPieces)
                share_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(readers[0]).toOpaque())
                share_curl_setopt_write_function(handle) { data, size, count, context in
                    guard let data, let context else { return size * count }
                    // Fewer bytes than given make curl stop with CURLE_WRITE_ERROR.
                    return Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                        .keep(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
                }
                share_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
                share_curl_setopt_header_function(handle) { data, size, count, context in
                    guard let data, let context else { return size * count }
                    Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                        .header(UnsafeRawBufferPointer(start: data, count: size * count))
                    return size * count
                }
                share_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
                share_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
                share_curl_setopt_xferinfo_function(handle) { context, _, _, total, now in
                    guard let context else { return 0 }
                    return Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue().progress?(Int(now), Int(total)) == false ? 1 : 0
                }
                share_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
                let code = withExtendedLifetime((exchange, readers)) { share_curl_easy_perform(handle) }
                // The callbacks must not outlive this block, which the exchange does.
                exchange.progress = nil
                exchange.receive = nil
                // The buffer lives only in this closure; the handle outlives it.
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
                return code
            }
            return (code, exchange)
          }
        }
        // An error page read up to the answer's limit is an answer, stopped on purpose.
        guard code == CURLE_OK || (code == CURLE_WRITE_ERROR && exchange.errorPageKept) else {
            if let failure = readers.lazy.compactMap(\.failure).first { throw Failure(reason: failure, local: true) }
            let buffered = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let detail = buffered.isEmpty ? String(cString: share_curl_easy_strerror(code)) : buffered
            if case .pinned = certificate {
                if pinError[0] != 0 { throw Failure(reason: String(decoding: pinError.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
                if code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION {
                    throw Failure(reason: "the certificate of \(HTTPClient.server(of: url)) is not the one its fingerprint names (\(detail))",
                                  certificateMismatch: true)
                }
            }
            switch code {
            case CURLE_ABORTED_BY_CALLBACK: throw Failure(reason: "stopped", cancelled: true)
            case CURLE_WRITE_ERROR where exchange.refused: throw Failure(reason: "stopped", refused: true)
            case CURLE_TOO_MANY_REDIRECTS: throw Failure(reason: "more than \(maximumRedirects) redirects")
            // In our words, naming the server but never the path (a webhook's path is its secret).
            case CURLE_COULDNT_RESOLVE_HOST: throw Failure(reason: "could not find the server \(HTTPClient.server(of: url))")
            case CURLE_COULDNT_CONNECT: throw Failure(reason: "could not connect to \(HTTPClient.server(of: url))")
            case CURLE_OPERATION_TIMEDOUT: throw Failure(reason: "the server did not answer in time (\(detail))", timedOut: true)
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
                throw Failure(reason: "certificate verification failed: \(detail) (set ca-file for a private server)")
            default: throw Failure(reason: detail)
            }
        }
        var status = 0
        share_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return Response(status: status, headers: exchange.headers, body: exchange.answer)
    }

    /// The host and port of `url`, for a message: never its path or query.
    static func server(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return "the server" }
        return host + (parsed.port.map { ":\($0)" } ?? "")
    }

    /// Whether a header's name or value holds no CR, LF or NUL byte.
    static func isOneLine(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// Fields as `application/x-www-form-urlencoded` (RFC 3986's unreserved bytes kept, the rest %XX).
    static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { PercentEncoding.encoded($0.0) + "=" + PercentEncoding.encoded($0.1) }.joined(separator: "&")
    }

    /// libcurl's multipart form of `parts` on `handle` (names and file
    /// names escaped as browsers escape them): text copied, each file read
    /// as it is sent by a reader added to `readers`. `nil` when libcurl fails.
    private static func form(_ parts: [Body.Part], for handle: UnsafeMutableRawPointer, readers: inout [PieceReader]) -> OpaquePointer? {
        guard let form = share_curl_mime_init(handle) else { return nil }
        for part in parts {
            guard let added = share_curl_mime_addpart(form) else {
                share_curl_mime_free(form)
                return nil
            }
            var codes = [share_curl_mime_name(added, part.name)]
            if let filename = part.filename { codes.append(share_curl_mime_filename(added, filename)) }
            if let type = part.type { codes.append(share_curl_mime_type(added, type)) }
            switch part.value {
            case .bytes(let bytes):
                // Never a null pointer: libcurl takes that for "no data" rather than an empty value.
                codes.append((bytes.isEmpty ? [0] : bytes).withUnsafeBytes { share_curl_mime_data(added, $0.baseAddress, bytes.count) })
            case .file:
                let reader = PieceReader([part.value])
                readers.append(reader)
                codes.append(share_curl_mime_data_cb(added, curl_off_t(part.value.count), readPieces, seekPieces,
                                                     Unmanaged.passUnretained(reader).toOpaque()))
            }
            guard codes.allSatisfy({ $0 == CURLE_OK }) else {
                share_curl_mime_free(form)
                return nil
            }
        }
        return form
    }

    /// libcurl's read callback over a ``PieceReader`` (the body's, or a form's file).
    private static let readPieces: curl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
        let got = Unmanaged<PieceReader>.fromOpaque(context).takeUnretainedValue()
            .read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        return got < 0 ? Int(CURL_READFUNC_ABORT) : got
    }

    /// libcurl's seek callback over a ``PieceReader``: back to a position
    /// from the start (a form sent again, after a redirect or a refusal).
    private static let seekPieces: curl_seek_callback = { context, position, origin in
        guard let context, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
        return Unmanaged<PieceReader>.fromOpaque(context).takeUnretainedValue().seek(to: Int(position)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
    }

    /// Pieces read in order as libcurl asks for them: a file opened when
    /// its turn comes, and why it could not be read when it could not.
    private final class PieceReader {
        let pieces: [Body.Piece]
        var index = 0
        /// How far into the current piece.
        var offset = 0
        var descriptor: Int32 = -1
        /// Why the body could not be read, when it could not.
        var failure: String?

        init(_ pieces: [Body.Piece]) { self.pieces = pieces }

        deinit { if descriptor >= 0 { close(descriptor) } }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            while index < pieces.count {
                switch pieces[index] {
                case .bytes(let bytes):
                    let count = min(buffer.count, bytes.count - offset)
                    if count > 0 {
                        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
                        offset += count
                        return count
                    }
                case .file(let path, let start, let length):
                    if descriptor < 0 {
                        descriptor = open(path, O_RDONLY | O_CLOEXEC)
                        guard descriptor >= 0 else {
                            failure = "cannot read \(path): \(String(cString: strerror(errno)))"
                            return -1
                        }
                    }
                    let wanted = min(buffer.count, length - offset)
                    if wanted > 0 {
                        let got = pread(descriptor, buffer.baseAddress, wanted, off_t(start + offset))
                        guard got > 0 else {
                            failure = got < 0 ? "cannot read \(path): \(String(cString: strerror(errno)))" : "\(path) became shorter while it was sent"
                            return -1
                        }
                        offset += got
                        return got
                    }
                    close(descriptor)
                    descriptor = -1
                }
                index += 1
                offset = 0
            }
            return 0
        }

        /// Goes back (or on) to `position` bytes from the start; false when the pieces are shorter.
        func seek(to position: Int) -> Bool {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            (index, offset) = (0, position)
            while index < pieces.count, offset >= pieces[index].count, offset > 0 {
                offset -= pieces[index].count
                index += 1
            }
            return index < pieces.count || offset == 0
        }
    }

    /// One request's answer: its start (or its receiver) and headers, and
    /// the progress of the body going out.
    private final class Exchange {
        let limit: Int
        var progress: ((Int, Int) -> Bool)?
        var receive: ((UnsafeRawBufferPointer) -> Bool)?
        /// The receiver asked to stop.
        var refused = false
        /// An error page's start is kept and the rest not read.
        var errorPageKept = false
        var answer: [UInt8] = []
        var headers: [(name: String, value: String)] = []
        /// The status of the last status line (a redirect's, then the final answer's).
        var status = 0

        init(limit: Int, progress: @escaping (Int, Int) -> Bool, receive: ((UnsafeRawBufferPointer) -> Bool)?) {
            self.limit = limit
            self.progress = progress
            self.receive = receive
        }

        /// Hands the answer to its receiver, or keeps its first `limit` bytes; false to stop.
        func keep(_ data: UnsafeRawBufferPointer) -> Bool {
            // Only a success's body is the receiver's: an error page is kept for the message.
            if let receive {
                if (200..<300).contains(status) {
                    refused = !receive(data)
                    return !refused
                }
                // An error page is never the receiver's, and no more of it is read than a message needs.
                answer += data.prefix(limit - answer.count)
                errorPageKept = answer.count >= limit
                return !errorPageKept
            }
            if answer.count < limit { answer += data.prefix(limit - answer.count) }
            return true
        }

        /// One header line; a status line starts the headers afresh (a 100 Continue came first).
        func header(_ data: UnsafeRawBufferPointer) {
            let line = String(decoding: data, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            if line.hasPrefix("HTTP/") {
                headers = []
                status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]).trimmingWhitespace(), String(line[line.index(after: colon)...]).trimmingWhitespace()))
            }
        }
    }
}
