import CCrypto
import FoundationEssentials
import ShareCore
import ShareSupport

/// AWS Signature Version 4 as S3 takes it, for path-style requests
/// (`/BUCKET/KEY`): the headers of a request whose body's SHA-256 is
/// known, and the query of a presigned request.
///
/// The published algorithm: a canonical request (the method, the URI with
/// each segment encoded, the query sorted, the signed headers in lower
/// case and sorted, the payload's SHA-256), its own SHA-256 in a string to
/// sign with the time and the scope (`DATE/REGION/s3/aws4_request`), and
/// an HMAC-SHA256 of that under a key derived from the secret for that
/// day, region and service. The secret is never written anywhere: only
/// HMACs of it leave this value.
struct S3Signer: Sendable {
    /// The access key's ID (not secret).
    var accessKey: String
    /// The secret access key, from `secret-key-command`.
    var secretKey: String
    /// The region the scope names (`us-east-1`).
    var region: String

    static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of a presigned request, whose body is not known when it is signed.
    static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes: the payload hash of a request without a body.
    static let emptyPayload = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `20260105T093000Z`: the time as Signature Version 4 writes it (UTC, to the second).
    static func timestamp(_ date: Date) -> String {
        DateText.formatted(date, "%Y%m%dT%H%M%SZ", utc: true)
    }

    /// The headers that sign `method` of `path` (its segments already
    /// encoded, see ``S3Signer/path(_:)``) at `host`: `Host`,
    /// `x-amz-content-sha256` (`payloadHash`, in hex), `x-amz-date` and
    /// `Authorization`. The `Host` header is sent as signed, rather than
    /// left to the HTTP library.
    func headers(_ method: String, path: String, host: String, payloadHash: String, at date: Date) throws(LinkFailure) -> [(String, String)] {
        let time = S3Signer.timestamp(date)
        let signed = [("Host", host), ("x-amz-content-sha256", payloadHash), ("x-amz-date", time)]
        let request = S3Signer.canonicalRequest(method, path: path, query: [], headers: signed, payloadHash: payloadHash)
        let signature = try sign(request.text, time: time)
        let authorization = "\(S3Signer.algorithm) Credential=\(accessKey)/\(scope(time)), SignedHeaders=\(request.signedHeaders), Signature=\(signature)"
        return signed + [("Authorization", authorization)]
    }

    /// The query of a presigned `method` of `path` at `host`, valid for
    /// `seconds` from `date`: `X-Amz-Algorithm`, `-Credential`, `-Date`,
    /// `-Expires`, `-SignedHeaders` (`host`), then `X-Amz-Signature`.
    func presignedQuery(_ method: String, path: String, host: String, seconds: Int, at date: Date) throws(LinkFailure) -> String {
        let time = S3Signer.timestamp(date)
        let query = [("X-Amz-Algorithm", S3Signer.algorithm), ("X-Amz-Credential", "\(accessKey)/\(scope(time))"), ("X-Amz-Date", time),
                     ("X-Amz-Expires", String(seconds)), ("X-Amz-SignedHeaders", "host")]
        let request = S3Signer.canonicalRequest(method, path: path, query: query, headers: [("host", host)], payloadHash: S3Signer.unsignedPayload)
        return S3Signer.canonicalQuery(query) + "&X-Amz-Signature=" + (try sign(request.text, time: time))
    }

    /// `DATE/REGION/s3/aws4_request`, the date that of `time`.
    func scope(_ time: String) -> String {
        "\(time.prefix(8))/\(region)/s3/aws4_request"
    }

    /// The signature of a canonical request made at `time`, in hex.
    func sign(_ canonicalRequest: String, time: String) throws(LinkFailure) -> String {
        let digest = SHA256.hex(Array(canonicalRequest.utf8))
        let toSign = [S3Signer.algorithm, time, scope(time), digest].joined(separator: "\n")
        var key = try S3Signer.hmac(Array(("AWS4" + secretKey).utf8), Array(time.prefix(8).utf8))
        for part in [region, "s3", "aws4_request"] { key = try S3Signer.hmac(key, Array(part.utf8)) }
        let signature = try S3Signer.hmac(key, Array(toSign.utf8))
        guard digest.count == 64 else { throw S3Signer.missingLibrary("libcrypto could not compute the SHA-256") }
        return S3Signer.hex(signature)
    }

    /// The canonical request and its signed headers' names
    /// (`host;x-amz-content-sha256;x-amz-date`): the method, the path, the
    /// query, each header `name:value` (the name in lower case, the value
    /// trimmed, runs of spaces made one) sorted by name, a blank line, the
    /// names, and the payload's hash.
    static func canonicalRequest(_ method: String, path: String, query: [(String, String)], headers: [(String, String)],
                                 payloadHash: String) -> (text: String, signedHeaders: String) {
        let lines = headers.map { name, value in
            (name.lowercased(), value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
        }.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        let names = lines.map(\.0).joined(separator: ";")
        let text = ([method, path, canonicalQuery(query)] + lines.map { "\($0.0):\($0.1)" } + ["", names, payloadHash])
            .joined(separator: "\n")
        return (text, names)
    }

    /// `name=value` pairs, each side encoded (RFC 3986's unreserved
    /// characters kept, every other byte `%XX`), sorted by name then value,
    /// joined by `&`.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        query.map { (PercentEncoding.encoded($0.0), PercentEncoding.encoded($0.1)) }
            .sorted { $0.0 == $1.0 ? $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The URI path of `segments` (the bucket, then the key split at '/'):
    /// each segment encoded on its own, '/' kept between them.
    static func path(_ segments: [String]) -> String {
        "/" + segments.map { PercentEncoding.encoded($0) }.joined(separator: "/")
    }

    /// HMAC-SHA256 of `data` under `key`, by libcrypto.
    static func hmac(_ key: [UInt8], _ data: [UInt8]) throws(LinkFailure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var error = [CChar](repeating: 0, count: 160)
        guard share_hmac_sha256(key, key.count, data, data.count, &out, &error, error.count) == 0 else {
            throw missingLibrary(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return out
    }

    /// Signing failed because libcrypto did: `reason`.
    static func missingLibrary(_ reason: String) -> LinkFailure {
        LinkFailure(code: ActivityError.Code.configuration, "cannot sign the request to S3: \(reason)")
    }

    /// `bytes` in lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
