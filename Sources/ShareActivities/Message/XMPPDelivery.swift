import FoundationEssentials
import ShareCore
import ShareSupport

/// Sends a share to XMPP recipients over one session: text and URLs as one
/// chat message, each file uploaded through the server's HTTP File Upload
/// (XEP-0363) and sent as its link with out-of-band data (XEP-0066), so
/// that clients show it inline.
///
/// Accepted means the server took the stanzas: after the messages, share
/// pings the server (XEP-0199) and waits for the answer. A server handles
/// a client's stanzas in the order they came (RFC 6120 §10.1), so the
/// answer comes only after every message was taken, and a message the
/// server refused (no such user) has bounced by then. Where the server
/// offers stream management, its acknowledged count must then cover every
/// stanza sent.
struct XMPPDelivery {
    /// A file to send.
    struct Upload: Sendable {
        var name: String
        var path: String
        var size: Int
        var contentType: String
    }

    /// What one recipient was sent: the ids of the messages, or why not.
    struct Delivered: Sendable, Equatable {
        var recipient: String
        var messageIDs: [String]
        /// The server's refusal (`service-unavailable: …`), when it bounced,
        /// or why nothing reached it.
        var refusal: String?
        /// Whether the refusal was the whole session's (no connection, a
        /// webhook's error), not the recipient's own.
        var sessionFailed = false
        /// Matrix: the room the events went to (undo redacts them there).
        var room: String?
        /// Matrix: refused as an end-to-end encrypted room.
        var encrypted = false
    }

    /// The server's upload service and its limit.
    struct UploadService: Sendable, Equatable {
        var jid: String
        /// Bytes; `nil` when the server states none.
        var maximumSize: Int?
    }

    var account: XMPPClient.Account
    /// Seconds for each step (connecting, each answer).
    var timeout: Double

    static let uploadNamespace = "urn:xmpp:http:upload:0"

    /// Connects, uploads `files`, sends `text` and the files' links to each
    /// recipient, and waits until the server has taken them. Files the
    /// server cannot take (over its upload limit, or no upload service at
    /// all) go through Link's place when there is one (`places`); `linked`
    /// then says which, and where.
    func deliver(text: String, files: [Upload], to recipients: [String], places: LinkShipment? = nil,
                 linked: inout String?) throws(XMPPFailure) -> [Delivered] {
        let client = try XMPPClient.connect(account, timeout: timeout)
        defer { client.close() }
        var links: [String] = []
        if !files.isEmpty {
            let service = try uploadService(client)
            var direct: [Upload] = [], over: [Upload] = []
            for file in files {
                guard let service else {
                    guard places != nil else {
                        throw XMPPFailure(message: "\(client.domain) offers no HTTP File Upload (XEP-0363); files cannot be sent"
                                          + " (a [link.NAME] place would send them as links)")
                    }
                    over.append(file)
                    continue
                }
                if let limit = service.maximumSize, file.size > limit {
                    guard places != nil else {
                        throw XMPPFailure(message: XMPPDelivery.tooLarge(file, limit: limit) + " (a [link.NAME] place would send it as a link)")
                    }
                    over.append(file)
                } else {
                    direct.append(file)
                }
            }
            if let places, !over.isEmpty {
                let delivery = try XMPPDelivery.ship(over, through: places)
                links += delivery.files.map(\.link.absoluteString)
                linked = "\(over.map(\.name).joined(separator: ", ")) went as \(delivery.files.count == 1 ? "a link" : "links") through \(delivery.place.name)"
                    + (service == nil ? ": \(client.domain) offers no HTTP File Upload" : ": over the server's upload limit")
            }
            if let service {
                for file in direct { links.append(try upload(file, through: service, client)) }
            }
        }
        var delivered: [Delivered] = []
        for recipient in recipients {
            var ids: [String] = []
            if !text.isEmpty {
                let id = client.makeID()
                try client.send(XMPPDelivery.chat(to: recipient, id: id, body: text, link: nil))
                ids.append(id)
            }
            for link in links {
                let id = client.makeID()
                try client.send(XMPPDelivery.chat(to: recipient, id: id, body: link, link: link))
                ids.append(id)
            }
            delivered.append(Delivered(recipient: recipient, messageIDs: ids))
        }
        let ping = client.makeID()
        let answer = try client.query("<iq type='get' id='\(MarkupEscaping.xml(ping))' to='\(MarkupEscaping.xml(client.domain))'>"
                                      + "<ping xmlns='urn:xmpp:ping'/></iq>", id: ping, timeout: timeout)
        // An error answer is an answer too: the server took everything before it.
        _ = answer
        // Where the server keeps count (stream management), its count must cover every stanza.
        try client.waitForAcknowledgement(timeout: timeout)
        let bounced = client.bouncedMessages
        for index in delivered.indices {
            if let refusal = delivered[index].messageIDs.lazy.compactMap({ bounced[$0]?.error }).first {
                delivered[index].refusal = refusal.condition + (refusal.text.map { ": \($0)" } ?? "")
            }
        }
        return delivered
    }

    /// `files` uploaded through Link's place: its links, or why not.
    static func ship(_ files: [Upload], through places: LinkShipment) throws(XMPPFailure) -> LinkShipment.Delivery {
        let items = files.map { ShareItem.file(FileItem(name: $0.name, contentType: $0.contentType, size: Int64($0.size), storage: .path(URL(fileURLWithPath: $0.path)))) }
        switch places.send(items, baseName: "shared") {
        case .success(let delivery): return delivery
        case .failure(let failure): throw XMPPFailure(message: failure.stopped ? "the upload was stopped; nothing was sent" : failure.message)
        }
    }

    /// The words for a file over the server's limit.
    static func tooLarge(_ file: Upload, limit: Int) -> String {
        "\(file.name) is \(ByteCount.words(Int64(file.size))); the server takes uploads up to \(ByteCount.words(Int64(limit)))"
    }

    /// One chat message; with a link, the link as out-of-band data too.
    static func chat(to recipient: String, id: String, body: String, link: String?) -> String {
        var xml = "<message type='chat' to='\(MarkupEscaping.xml(recipient))' id='\(MarkupEscaping.xml(id))'>"
            + "<body>\(MarkupEscaping.xml(body))</body>"
        if let link { xml += "<x xmlns='jabber:x:oob'><url>\(MarkupEscaping.xml(link))</url></x>" }
        return xml + "</message>"
    }

    /// The upload service among the server's items (disco#items, then
    /// disco#info of each), and its `max-file-size`; `nil` when none offers it.
    func uploadService(_ client: XMPPClient) throws(XMPPFailure) -> UploadService? {
        let itemsID = client.makeID()
        let items = try client.query("<iq type='get' id='\(MarkupEscaping.xml(itemsID))' to='\(MarkupEscaping.xml(client.domain))'>"
                                     + "<query xmlns='http://jabber.org/protocol/disco#items'/></iq>", id: itemsID, timeout: timeout)
        let candidates = [client.domain] + (items.child("query")?.children("item").compactMap { $0.attributes["jid"] } ?? [])
        for jid in candidates {
            let infoID = client.makeID()
            // An item that does not answer (a remote component) is not the upload service; the connection failing is a failure.
            let info: XMLElement
            do {
                info = try client.query("<iq type='get' id='\(MarkupEscaping.xml(infoID))' to='\(MarkupEscaping.xml(jid))'>"
                                        + "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>", id: infoID, timeout: timeout)
            } catch {
                if client.isConnected { continue }
                throw error
            }
            if let service = XMPPDelivery.uploadService(jid: jid, info: info) { return service }
        }
        return nil
    }

    /// The upload service a disco#info answer describes, if it is one.
    static func uploadService(jid: String, info: XMLElement) -> UploadService? {
        guard info.attributes["type"] == "result", let query = info.child("query"),
              query.children("feature").contains(where: { $0.attributes["var"] == uploadNamespace }) else { return nil }
        // The limit is a field of the service's extended info form (XEP-0128).
        var limit: Int?
        for form in query.children("x") where form.attributes["xmlns"] == "jabber:x:data" {
            let fields = form.children("field")
            guard fields.contains(where: { $0.attributes["var"] == "FORM_TYPE" && $0.child("value")?.text == uploadNamespace }) else { continue }
            if let field = fields.first(where: { $0.attributes["var"] == "max-file-size" }),
               let value = field.child("value").flatMap({ Int($0.text.trimmingWhitespace()) }) {
                limit = value
            }
        }
        return UploadService(jid: jid, maximumSize: limit)
    }

    /// Asks for a slot and PUTs the file there; returns the link to send.
    func upload(_ file: Upload, through service: UploadService, _ client: XMPPClient) throws(XMPPFailure) -> String {
        let id = client.makeID()
        let reply = try client.query(
            "<iq type='get' id='\(MarkupEscaping.xml(id))' to='\(MarkupEscaping.xml(service.jid))'>"
                + "<request xmlns='\(XMPPDelivery.uploadNamespace)' filename='\(MarkupEscaping.xml(file.name))' size='\(file.size)'"
                + " content-type='\(MarkupEscaping.xml(file.contentType))'/></iq>",
            id: id, timeout: timeout)
        let slot = try XMPPDelivery.slot(reply, for: file)
        do {
            try HTTPClient(caFile: account.caFile).perform("PUT", slot.put, headers: slot.headers,
                                                           body: .file(file.path, size: file.size, type: file.contentType)).requireSuccess()
        } catch {
            throw XMPPFailure(message: "uploading \(file.name) failed: \(error.reason)")
        }
        return slot.get
    }

    /// The PUT and GET addresses of a slot answer, and the headers the PUT
    /// must carry (only those XEP-0363 allows), or the server's refusal.
    static func slot(_ reply: XMLElement, for file: Upload) throws(XMPPFailure) -> (put: String, get: String, headers: [(String, String)]) {
        if reply.attributes["type"] == "error" {
            if let refusal = reply.child("error")?.child("file-too-large", namespace: uploadNamespace) {
                let limit = refusal.child("max-file-size").flatMap { Int($0.text.trimmingWhitespace()) }
                throw XMPPFailure(message: limit.map { tooLarge(file, limit: $0) }
                    ?? "\(file.name) is larger than the server takes (\(ByteCount.words(Int64(file.size))))")
            }
            let error = reply.error
            throw XMPPFailure(message: "the server refused an upload slot for \(file.name): "
                + (error.map { $0.condition + ($0.text.map { " (\($0))" } ?? "") } ?? "an error"))
        }
        guard let slot = reply.child("slot", namespace: uploadNamespace), let put = slot.child("put")?.attributes["url"],
              let get = slot.child("get")?.attributes["url"] else {
            throw XMPPFailure(message: "the server's upload slot for \(file.name) has no put and get addresses")
        }
        let allowed: Set<String> = ["authorization", "cookie", "expires"]
        let headers = slot.child("put")?.children("header").compactMap { header -> (String, String)? in
            guard let name = header.attributes["name"], allowed.contains(name.lowercased()) else { return nil }
            return (name, header.text)
        } ?? []
        return (put, get, headers)
    }
}
