import CCurl

/// One transfer with a mail server over libcurl, SMTP's or IMAP's, with
/// what every one of them sets: the URL, no signals, the certificate and
/// the host name checked, TLS for the whole session or none, a
/// connection within 30 seconds and then at least a byte a minute, and
/// the commands and replies handed to a transcript.
enum MailServerTransfer {
    /// Performs the transfer at `url` on `handle`, with TLS for the whole
    /// session when `tls` (STARTTLS on a plain URL) and `caFile`'s
    /// certificates trusted when given; `setUp` adds what this transfer
    /// does, and may change what is set before it. `transcript` is handed
    /// each line the server sends (`sent` false) and each line sent to it.
    /// The result code, and libcurl's words for a failure ("" on success).
    static func perform(on handle: UnsafeMutableRawPointer, url: String, tls: Bool, caFile: String?,
                        transcript: @escaping (_ bytes: UnsafeRawBufferPointer, _ sent: Bool) -> Void,
                        setUp: (UnsafeMutableRawPointer) -> Void) -> (code: CURLcode, failure: String) {
        let lines = Transcript(transcript)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = withExtendedLifetime(lines) {
            errorBuffer.withUnsafeMutableBufferPointer { errors in
                share_curl_setopt_string(handle, CURLOPT_URL, url)
                share_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
                share_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
                share_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(tls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue))
                if let caFile { share_curl_setopt_string(handle, CURLOPT_CAINFO, caFile) }
                share_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 30)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
                share_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, 60)
                share_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                share_curl_setopt_debug_function(handle) { _, type, data, size, context in
                    guard type == CURLINFO_HEADER_IN || type == CURLINFO_HEADER_OUT, let data, let context else { return 0 }
                    let lines = Unmanaged<Transcript>.fromOpaque(context).takeUnretainedValue()
                    lines.append(UnsafeRawBufferPointer(start: data, count: size), type == CURLINFO_HEADER_OUT)
                    return 0
                }
                share_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, Unmanaged.passUnretained(lines).toOpaque())
                share_curl_setopt_long(handle, CURLOPT_VERBOSE, 1)  // feeds the debug function; nothing is printed
                setUp(handle)
                return share_curl_easy_perform(handle)
            }
        }
        guard code != CURLE_OK else { return (code, "") }
        let words = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (code, words.isEmpty ? String(cString: share_curl_easy_strerror(code)) : words)
    }

    /// The transcript behind one pointer, for libcurl's debug callback.
    private final class Transcript {
        let append: (UnsafeRawBufferPointer, Bool) -> Void
        init(_ append: @escaping (UnsafeRawBufferPointer, Bool) -> Void) { self.append = append }
    }
}
