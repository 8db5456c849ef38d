import FoundationEssentials
import ShareCore
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where one object of an `s3` place is, path-style: the `Host` header,
/// the URI path (`/BUCKET/KEY`, each segment encoded) and the address.
struct S3Object: Sendable, Equatable {
    /// The object's key in the bucket (`shared/report 2026.pdf`).
    var key: String
    /// The `Host` header, as the endpoint names the server.
    var host: String
    /// `/BUCKET/KEY`, as sent and signed.
    var path: String
    /// The endpoint and the path.
    var url: String

    /// The object `key` of `place`'s bucket.
    init(_ place: LinkPlace, key: String) {
        let endpoint = place.endpoint ?? ""
        self.key = key
        host = endpoint.firstRange(of: "://").map { String(endpoint[$0.upperBound...]) } ?? endpoint
        path = S3Signer.path([place.bucket ?? ""] + key.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
        url = endpoint + path
    }

    /// The key a file called `name` gets on `place`: in its `prefix`, if any.
    static func key(for name: String, on place: LinkPlace) -> String {
        place.prefix.map { $0 + "/" + name } ?? name
    }
}

extension LinkUploader {
    /// `s3`'s signer, its secret key read from `secret-key-command`.
    func s3Signer() throws(LinkFailure) -> S3Signer {
        show(Localization.text("Reading the secret key…"))
        let secret: String
        do throws(PasswordCommand.Failure) {
            secret = try PasswordCommand.run(place.secretKeyCommand ?? "", timeout: place.timeout, section: "link.\(place.name)")
        } catch {
            throw LinkFailure(code: ActivityError.Code.configuration,
                              "[link.\(place.name)] secret-key-command " + error.message.replacingPrefix("password-command ", with: ""))
        }
        return S3Signer(accessKey: place.accessKey ?? "", secretKey: secret, region: place.region)
    }

    /// `s3`: the file's SHA-256 read from disk, a PUT of it into the
    /// bucket signed with Signature Version 4 (the body read from disk as
    /// it is sent), and a presigned GET of it as the link, valid for the
    /// place's `expires`.
    func s3(_ upload: LinkUpload, signer: S3Signer) throws(LinkFailure) -> URL {
        let object = S3Object(place, key: S3Object.key(for: upload.name, on: place))
        show(Localization.text("Reading %@ to sign it…", upload.name))
        let digest = try sha256(of: upload)
        show(Localization.text("Uploading %@ to %@…", upload.name, place.name), progress: 0)
        let headers = try signer.headers("PUT", path: object.path, host: object.host, payloadHash: digest, at: Date())
        let response = try call("PUT", object.url, headers: headers, body: .file(upload.path, size: upload.size, type: upload.contentType),
                                upload: upload)
        try checkS3(response, refused: "refused \(upload.name)", failed: "failed to take \(upload.name)")
        let query = try signer.presignedQuery("GET", path: object.path, host: object.host, seconds: place.linkSeconds, at: Date())
        guard let url = URL(string: object.url + "?" + query) else {
            throw LinkFailure(code: ActivityError.Code.noLink, "\(object.url) is not a link")
        }
        return url
    }

    /// The SHA-256 of `upload`'s file in hex, read from disk before it is
    /// sent (the signature covers it); Esc stops it.
    func sha256(of upload: LinkUpload) throws(LinkFailure) -> String {
        let descriptor = open(upload.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(upload.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var hash = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            if display.isCancelled { throw .stop }
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(upload.path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            hash.add(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        let digest = hash.finish()
        guard digest.count == 64 else { throw S3Signer.missingLibrary("libcrypto is not installed (Debian: apt install libssl3)") }
        return digest
    }

    /// Throws the failure a non-2xx answer of S3 means, with the `Code` and
    /// `Message` of its XML error when it sends one, and what to do about
    /// the usual ones: 3xx and 4xx `refused` (upload-refused), 5xx `failed`
    /// (upload-failed), each phrase following the place's name.
    func checkS3(_ response: HTTPClient.Response, refused: String, failed: String) throws(LinkFailure) {
        guard !response.isSuccess else { return }
        guard let error = LinkUploader.s3Error(response.body) else {
            let said = response.excerpt
            let detail = "HTTP \(response.status)" + (said.isEmpty ? "" : ": \(said)")
            let code = response.status >= 500 ? ActivityError.Code.uploadFailed : ActivityError.Code.uploadRefused
            throw LinkFailure(code: code, "\(place.name) \(response.status >= 500 ? failed : refused) (\(detail))")
        }
        let detail = "HTTP \(response.status): \(error.code)" + (error.message.isEmpty ? "" : ": \(error.message)")
        let advice: String = switch error.code {
        case "SignatureDoesNotMatch": "; check access-key and secret-key-command"
        case "InvalidAccessKeyId": "; check access-key"
        case "NoSuchBucket": "; the bucket \(place.bucket ?? "") does not exist at \(place.endpoint ?? ""): make it first"
        case "AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException":
            "; check region (and endpoint): they must be the bucket's"
        case "RequestTimeTooSkewed": "; this computer's clock is off: set it right"
        case "AccessDenied": "; the access key may not do this in \(place.bucket ?? "")"
        default: ""
        }
        if response.status >= 500 {
            throw LinkFailure(code: ActivityError.Code.uploadFailed, "\(place.name) \(failed) (\(detail))\(advice)")
        }
        throw LinkFailure(code: ActivityError.Code.uploadRefused, "\(place.name) \(refused) (\(detail))\(advice)")
    }

    /// The `Code` and `Message` of an S3 error answer
    /// (`<Error><Code>NoSuchBucket</Code><Message>…</Message>…</Error>`),
    /// made printable and short; `nil` when `body` holds no `Code`.
    static func s3Error(_ body: [UInt8]) -> (code: String, message: String)? {
        let text = String(decoding: body.prefix(1 << 16), as: UTF8.self)
        func element(_ name: String) -> String? {
            guard let start = text.firstRange(of: "<\(name)>"), let end = text[start.upperBound...].firstRange(of: "</\(name)>") else { return nil }
            let raw = String(text[start.upperBound..<end.lowerBound])
            var value = raw
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
                value = value.replacing(entity, with: character)
            }
            return String(printable(value.trimmingWhitespace(includingNewlines: true)).prefix(300))
        }
        guard let code = element("Code"), !code.isEmpty else { return nil }
        return (code, element("Message") ?? "")
    }

    // MARK: - Deleting

    /// Deletes the object `key` of the `s3` place `place` with a signed
    /// DELETE, its secret key read from `secret-key-command` with
    /// `environment` as an upload's is: what `share --undo` asks of an S3
    /// upload. S3 answers 204 whether or not the object was there, so a
    /// second delete succeeds too. Failures are an upload's: the place
    /// unreachable, refused (with S3's `Code`), failed, a timeout, a
    /// secret-key-command that fails (`configuration`).
    static func deleteS3Object(_ key: String, on place: LinkPlace, environment: [String: String]) throws(LinkFailure) {
        guard place.kind == .s3 else {
            throw LinkFailure(code: ActivityError.Code.configuration, "\(place.name) is a \(place.kind.rawValue) place, not an S3 one: share deletes nothing there")
        }
        let uploader = LinkUploader(place: place, environment: environment, display: LiveDisplay { _ in }, heading: "", showsNews: false)
        let signer = try uploader.s3Signer()
        let object = S3Object(place, key: key)
        let headers = try signer.headers("DELETE", path: object.path, host: object.host, payloadHash: S3Signer.emptyPayload, at: Date())
        let response = try uploader.call("DELETE", object.url, headers: headers)
        try uploader.checkS3(response, refused: "refused to delete \(key)", failed: "failed to delete \(key)")
    }
}
