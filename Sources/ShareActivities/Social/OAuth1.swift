import CCrypto
import FoundationEssentials
import ShareCore
import ShareSupport

/// OAuth 1.0a request signing with HMAC-SHA1 (RFC 5849 §3), for the
/// services whose user tokens are OAuth 1.0a's (Flickr, X). The HMAC is
/// OpenSSL's (libcrypto); this file only builds the text it signs.
struct OAuth1: Sendable {
    var consumerKey: String
    var consumerSecret: String
    var token: String
    var tokenSecret: String

    /// The `oauth_*` parameters of one request, signed: those of the
    /// protocol and the signature. `parameters` are the request's others
    /// that the signature covers (the query's, a form body's, or Flickr's
    /// multipart fields), `url` is the address with or without its query
    /// (a query in it is signed too).
    func sign(_ method: String, _ url: String, parameters: [(String, String)] = [],
              nonce: String = OAuth1.nonce(), timestamp: Int = Int(Date().timeIntervalSince1970)) throws(SocialFailure) -> [(String, String)] {
        var protocolParameters = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", String(timestamp)),
            ("oauth_token", token),
            ("oauth_version", "1.0"),
        ]
        let (base, query) = OAuth1.split(url)
        let text = OAuth1.baseString(method, base, protocolParameters + query + parameters)
        let key = OAuth1.encoded(consumerSecret) + "&" + OAuth1.encoded(tokenSecret)
        protocolParameters.append(("oauth_signature", try OAuth1.hmacSHA1(key: Array(key.utf8), Array(text.utf8)).base64))
        return protocolParameters
    }

    /// The `Authorization` header of the signed parameters.
    static func header(_ signed: [(String, String)]) -> String {
        "OAuth " + signed.map { "\(encoded($0.0))=\"\(encoded($0.1))\"" }.joined(separator: ", ")
    }

    /// The signature base string (§3.4.1): the method, the base URI and
    /// the normalized parameters, each percent-encoded, joined by `&`.
    static func baseString(_ method: String, _ base: String, _ parameters: [(String, String)]) -> String {
        let pairs: [(name: String, value: String)] = parameters.map { (encoded($0.0), encoded($0.1)) }
        // Byte order of the encoded names, then of the values (ASCII: the same as String's).
        let sorted = pairs.sorted { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let normalized = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        return method.uppercased() + "&" + encoded(baseURI(base)) + "&" + encoded(normalized)
    }

    /// The base string URI (§3.4.1.2): scheme and host in lower case, the
    /// default port left out, no query or fragment.
    static func baseURI(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd].lowercased()
        if (scheme == "https" && authority.hasSuffix(":443")) || (scheme == "http" && authority.hasSuffix(":80")) {
            authority = String(authority[..<authority.lastIndex(of: ":")!])
        }
        let path = rest[authorityEnd...]
        return scheme + "://" + authority + (path.isEmpty ? "/" : String(path))
    }

    /// The address without its query, and the query's parameters (decoded).
    static func split(_ url: String) -> (String, [(String, String)]) {
        let withoutFragment = url.prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (String(withoutFragment), []) }
        let query = withoutFragment[withoutFragment.index(after: mark)...]
        let pairs = query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
        return (String(withoutFragment[..<mark]), pairs)
    }

    /// RFC 3986 percent-encoding: unreserved bytes kept, all others `%XX` (upper case).
    static func encoded(_ text: String) -> String { PercentEncoding.encoded(text) }

    /// A query's `%XX` and `+` decoded (bytes that are not UTF-8 are replaced).
    private static func decoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: "%"), let end = text.utf8.index(index, offsetBy: 3, limitedBy: text.utf8.endIndex),
               let value = UInt8(String(decoding: text.utf8[text.utf8.index(after: index)..<end], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = end
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = text.utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 128 random bits as 32 hexadecimal digits.
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// HMAC-SHA1 of `data` under `key`, by libcrypto.
    static func hmacSHA1(key: [UInt8], _ data: [UInt8]) throws(SocialFailure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var error = [CChar](repeating: 0, count: 160)
        guard share_hmac_sha1(key, key.count, data, data.count, &out, &error, error.count) == 0 else {
            throw SocialFailure("cannot sign the request: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return out
    }
}

extension Array where Element == UInt8 {
    /// The bytes in base64 (RFC 4648, with padding).
    var base64: String { Data(self).base64EncodedString() }
}
