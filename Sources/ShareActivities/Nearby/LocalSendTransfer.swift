import FoundationEssentials
import ShareCore
import ShareSupport
import Synchronization

/// Sends items to one LocalSend device, as protocol v2.1's upload goes:
/// `prepare-upload` with every item (files with name, size, type and
/// SHA-256; text as the protocol sends text, a `text/plain` item whose
/// preview is the text), then an `upload` of each file the device
/// accepted, streamed from disk, up to ``parallelUploads`` at once; a
/// `cancel` when stopped. HTTPS is checked against the fingerprint the
/// device announced before a byte is sent.
struct LocalSendTransfer: Sendable {
    /// One item as the device is told of it.
    struct Entry: Sendable, Equatable {
        enum Source: Sendable, Equatable {
            case file(String)
            case bytes([UInt8])
        }
        var id: String
        var name: String
        var size: Int64
        var type: String
        var sha256: String?
        /// The text itself, for a text item.
        var preview: String?
        var source: Source

        var json: JSONValue {
            .object([("id", .string(id)), ("fileName", .string(name)), ("size", .number(Int(size))), ("fileType", .string(type)),
                     ("sha256", .optional(sha256)), ("preview", .optional(preview))])
        }
    }

    /// Why a send did not happen, each with its own error code.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        var code: String
        var description: String
        /// The device asks for a PIN (and none, or a wrong one, was given).
        var needsPIN: Bool { code == ActivityError.Code.pinRequired }
    }

    /// News of a send, from the threads that send.
    enum Event: Sendable, Equatable {
        /// The device accepted these entries (by id) and the upload begins.
        case accepted([String])
        /// Bytes of an entry sent so far.
        case progress(id: String, sent: Int64, total: Int64)
        /// An entry arrived whole.
        case done(id: String)
    }

    static let parallelUploads = 3

    var device: LocalSendDevice
    var identity: LocalSendIdentity
    var listenerPort: Int

    /// The entries for `items`: files and pictures as files (with their
    /// digest from `digests`, waited for), text and links as text.
    static func entries(for items: [ShareItem], digests: LocalSendDigests) throws(Failure) -> [Entry] {
        var entries: [Entry] = []
        for (index, item) in items.enumerated() {
            let id = "item-\(index + 1)"
            switch item {
            case .text(let text):
                entries.append(textEntry(id: id, text))
            case .url(let url):
                entries.append(textEntry(id: id, url.absoluteString))
            case .image(let file), .file(let file):
                switch file.storage {
                case .path(let url):
                    switch digests.outcome(ofItem: index) {
                    case .digest(let digest):
                        entries.append(Entry(id: id, name: file.name, size: file.size, type: file.contentType, sha256: digest, source: .file(url.path)))
                    case .stopped:
                        throw Failure(code: ActivityError.Code.cancelled, description: "stopped before anything was sent")
                    case .unreadable, nil:
                        throw Failure(code: ActivityError.Code.ioError, description: "cannot read \(url.path)")
                    }
                case .data(let data):
                    let bytes = Array(data)
                    entries.append(Entry(id: id, name: file.name, size: Int64(bytes.count), type: file.contentType, sha256: SHA256.hex(bytes),
                                         source: .bytes(bytes)))
                }
            }
        }
        return entries
    }

    private static func textEntry(id: String, _ text: String) -> Entry {
        let bytes = Array(text.utf8)
        return Entry(id: id, name: id + ".txt", size: Int64(bytes.count), type: "text/plain", sha256: SHA256.hex(bytes), preview: text,
                     source: .bytes(bytes))
    }

    private func client(seconds: Int? = nil) throws(Failure) -> HTTPClient {
        var client = HTTPClient()
        client.protocols = device.isHTTPS ? "https" : "http"
        client.connectSeconds = 5
        client.stallSeconds = 30
        client.totalSeconds = seconds
        if device.isHTTPS {
            guard let digest = device.certificateDigest else {
                throw Failure(code: ActivityError.Code.sendFailed,
                              description: "\(device.alias) announced no certificate fingerprint, so its HTTPS cannot be checked")
            }
            client.certificate = .pinned(digest)
        }
        return client
    }

    /// Sends `entries`, with `pin` when given; `events` hears how it goes
    /// and `stop` is asked between pieces whether to stop (then the
    /// device hears `cancel`). Returns the entries the device took.
    func send(_ entries: [Entry], pin: String?, events: @escaping @Sendable (Event) -> Void,
              stop: @escaping @Sendable () -> Bool) throws(Failure) -> [Entry] {
        let prepare = JSONValue.object([
            ("info", identity.info(port: listenerPort)),
            ("files", .object(entries.map { ($0.id, $0.json) })),
        ])
        let query = pin.map { "?pin=" + ShareLink.encoded($0) } ?? ""
        let response: HTTPClient.Response
        do {
            var client = try client(seconds: 300)
            // The person on the other side has time to accept.
            client.stallSeconds = 300
            response = try client.perform("POST", device.url + "/api/localsend/v2/prepare-upload" + query, body: .json(prepare),
                                          progress: { _, _ in !stop() })
        } catch let failure as Failure {
            throw failure
        } catch let failure as HTTPClient.Failure {
            throw unreachable(failure)
        } catch {
            throw Failure(code: ActivityError.Code.sendFailed, description: "\(error)")
        }
        switch response.status {
        case 200: break
        case 204:
            // Nothing to upload: the device took everything from the preview (a text).
            events(.accepted([]))
            return entries
        case 401:
            throw Failure(code: ActivityError.Code.pinRequired,
                          description: pin == nil ? "\(device.alias) asks for a PIN: give it with --pin or SHARE_PIN" : "\(device.alias) did not take the PIN")
        case 403:
            throw Failure(code: ActivityError.Code.declined, description: "\(device.alias) declined the items")
        case 409:
            throw Failure(code: ActivityError.Code.busy, description: "\(device.alias) is busy with another transfer; try again when it is done")
        case 429:
            throw Failure(code: ActivityError.Code.rateLimited, description: "\(device.alias) refuses more tries for now (too many wrong PINs); wait a while")
        default:
            throw Failure(code: ActivityError.Code.sendFailed,
                          description: "\(device.alias) answered HTTP \(response.status)" + (response.excerpt.isEmpty ? "" : ": \(response.excerpt)"))
        }
        struct Answer: Decodable {
            var sessionId: String
            var files: [String: String]?
        }
        guard let answer = response.decoded(Answer.self) else {
            throw Failure(code: ActivityError.Code.sendFailed, description: "\(device.alias) answered prepare-upload with no session")
        }
        let tokens = answer.files ?? [:]
        let accepted = entries.filter { tokens[$0.id] != nil }
        events(.accepted(accepted.map(\.id)))
        try upload(accepted, session: answer.sessionId, tokens: tokens, events: events, stop: stop)
        return accepted
    }

    /// Uploads `entries`, ``parallelUploads`` at once; on the first
    /// failure or a stop, the rest stop and the device hears `cancel`.
    private func upload(_ entries: [Entry], session: String, tokens: [String: String], events: @escaping @Sendable (Event) -> Void,
                        stop: @escaping @Sendable () -> Bool) throws(Failure) {
        let next = Mutex(0)
        let failure = Mutex<Failure?>(nil)
        var configured = try client()
        // Files go in 1 MiB pieces rather than libcurl's 64 KiB: fewer reads and writes on a fast link.
        configured.uploadBufferSize = 1 << 20
        let client = configured
        let stopped: @Sendable () -> Bool = { stop() || failure.withLock { $0 != nil } }
        let workers = (0..<min(LocalSendTransfer.parallelUploads, entries.count)).compactMap { _ in
            BackgroundThread.startJoinable {
                while !stopped() {
                    let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                    guard index < entries.count else { return }
                    let entry = entries[index]
                    let url = device.url + "/api/localsend/v2/upload?sessionId=" + ShareLink.encoded(session) + "&fileId="
                        + ShareLink.encoded(entry.id) + "&token=" + ShareLink.encoded(tokens[entry.id] ?? "")
                    let body: HTTPClient.Body = switch entry.source {
                    case .file(let path): .file(path, size: Int(entry.size), type: "application/octet-stream")
                    case .bytes(let bytes): .bytes(bytes, type: "application/octet-stream")
                    }
                    do throws(HTTPClient.Failure) {
                        let response = try client.perform("POST", url, body: body) { sent, _ in
                            events(.progress(id: entry.id, sent: Int64(sent), total: entry.size))
                            return !stopped()
                        }
                        guard response.isSuccess else {
                            let why: Failure = switch response.status {
                            case 409: Failure(code: ActivityError.Code.busy, description: "\(device.alias) is busy with another transfer")
                            case 403: Failure(code: ActivityError.Code.declined, description: "\(device.alias) refused \(entry.name) (the session ended on its side)")
                            default: Failure(code: ActivityError.Code.sendFailed, description: "\(device.alias) refused \(entry.name): HTTP \(response.status)")
                            }
                            failure.withLock { $0 = $0 ?? why }
                            return
                        }
                        events(.done(id: entry.id))
                    } catch {
                        if !error.cancelled { failure.withLock { $0 = $0 ?? unreachable(error) } }
                        return
                    }
                }
            }
        }
        for worker in workers { worker.join() }
        if let failure = failure.withLock({ $0 }) {
            cancel(session)
            throw failure
        }
        if stop() {
            cancel(session)
            throw Failure(code: ActivityError.Code.cancelled, description: "stopped, and \(device.alias) was asked to cancel the transfer")
        }
    }

    /// `POST /api/localsend/v2/cancel`: the device forgets the session.
    func cancel(_ session: String) {
        guard var client = try? client(seconds: 5) else { return }
        client.connectSeconds = 3
        _ = try? client.perform("POST", device.url + "/api/localsend/v2/cancel?sessionId=" + ShareLink.encoded(session))
    }

    private func unreachable(_ failure: HTTPClient.Failure) -> Failure {
        if failure.cancelled { return Failure(code: ActivityError.Code.cancelled, description: "stopped before \(device.alias) accepted") }
        if failure.certificateMismatch {
            return Failure(code: ActivityError.Code.sendFailed,
                           description: "\(device.alias) at \(device.address) shows a certificate that is not the one its fingerprint names: nothing was sent")
        }
        return Failure(code: ActivityError.Code.sendFailed, description: "cannot reach \(device.alias) at \(device.address): \(failure.reason)")
    }
}
