import CStrophe
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An element of a stanza the server sent, copied out of libstrophe so
/// that reading it is plain Swift.
struct XMLElement: Sendable, Equatable {
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLElement] = []
    /// The text directly inside the element.
    var text = ""

    /// The first child named `name` (in namespace `namespace` when given).
    func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (namespace == nil || $0.attributes["xmlns"] == namespace) }
    }

    /// Every child named `name`.
    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The condition of an `<error>` child (`not-authorized`, `item-not-found`) and its text, if any.
    var error: (condition: String, text: String?)? {
        guard let error = child("error") else { return nil }
        let stanzas = "urn:ietf:params:xml:ns:xmpp-stanzas"
        let condition = error.children.first { $0.attributes["xmlns"] == stanzas && $0.name != "text" }?.name ?? "undefined-condition"
        let text = error.children.first { $0.name == "text" }?.text
        return (condition, text.flatMap { $0.isEmpty ? nil : $0 })
    }
}

/// Why an XMPP session failed, in words for people.
struct XMPPFailure: Error, Sendable, Equatable {
    var message: String
}

/// One XMPP client session with libstrophe, driven on the calling thread:
/// every call runs libstrophe's event loop until its answer came or its
/// deadline passed. TLS is required (STARTTLS, or direct TLS), the
/// server's certificate is verified (`caFile` adds a private CA), and
/// libstrophe picks the strongest SASL mechanism the server offers (SCRAM
/// before PLAIN, and PLAIN only inside TLS).
final class XMPPClient {
    struct Account: Sendable {
        /// `kim@example.com` (a resource, if any, is the server's to choose).
        var jid: String
        var password: String
        /// A PEM file of the certificates to trust (a private server's CA).
        var caFile: String?
        /// TLS from the first byte (`xmpps://` in config), not STARTTLS.
        var directTLS = false
        /// Where to connect instead of the domain's SRV records.
        var host: String?
        var port: Int?
    }

    /// The session's state, written by libstrophe's callbacks.
    private final class Events {
        enum State { case connecting, connected, closed }
        var state = State.connecting
        /// libstrophe's own words on what went wrong (errors and warnings).
        var complaints: [String] = []
        /// The connection's socket error (an errno), when it failed.
        var socketError: Int32 = 0
        /// Whether a TCP connection was made (libstrophe may try several addresses first).
        var connectedSocket = false
        /// Why TLS could not start (OpenSSL's words), when it could not.
        var tlsFailure: String?
        var streamError: String?
        /// The server's SASL `<failure>` as libstrophe logged it.
        var saslFailure: String?
        /// Replies to our IQs, by id.
        var replies: [String: XMLElement] = [:]
        /// Messages that came back with an error (`type="error"`), by id.
        var bounced: [String: XMLElement] = [:]
        /// Whether the server enabled stream management for this session.
        var streamManagement = false
        /// How many stanzas the server acknowledged (stream management's `<a h=…>`).
        var acknowledged = 0
    }

    /// Why a handshake refused the server's certificate, by the thread that
    /// drove it: libstrophe's handler has no context pointer (and in 0.12
    /// `xmpp_tlscert_get_conn` answers NULL there), but it runs inside
    /// `xmpp_run_once`, on the thread of the session's calls.
    private static let refusedCertificates = Mutex<[UInt: String]>([:])

    let account: Account
    private let library: UnsafePointer<share_strophe>
    private let context: OpaquePointer
    private let connection: OpaquePointer
    private let events = Events()
    /// The log handler libstrophe keeps a pointer to until the context is freed.
    private let logger: UnsafeMutablePointer<xmpp_log_t>
    private var closed = false
    /// Stanzas sent since the session started (what stream management counts).
    private var sent = 0

    /// The domain of the account (`example.com`): where IQs to the server go.
    var domain: String { XMPPAddress.domain(of: account.jid) }

    /// Loads libstrophe and makes a connection object (nothing is sent yet).
    private init(account: Account) throws(XMPPFailure) {
        guard let library = XMPPClient.loaded.table else {
            throw XMPPFailure(message: "cannot load libstrophe (\(XMPPClient.loaded.problem)); install it: apt install libstrophe0")
        }
        self.library = library
        self.account = account
        logger = UnsafeMutablePointer<xmpp_log_t>.allocate(capacity: 1)
        logger.initialize(to: xmpp_log_t(handler: { userdata, level, area, message in
            guard let userdata, let message else { return }
            let events = Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue()
            let text = String(cString: message)
            if level.rawValue >= XMPP_LEVEL_WARN.rawValue {
                let area = area.map { String(cString: $0) } ?? ""
                events.complaints.append((area.isEmpty ? "" : area + ": ") + text)
            } else if text.hasPrefix("connection failed, error ") {
                // libstrophe says why a connection failed only here: its handler gets no errno.
                events.socketError = Int32(text.dropFirst("connection failed, error ".count).prefix { $0.isNumber }) ?? 0
            } else if text == "connection successful" {
                // A later address answered: an earlier one's error is not the story.
                events.connectedSocket = true
                events.socketError = 0
            } else if text.hasPrefix("error:"), area.map({ String(cString: $0) }) == "tls" {
                // OpenSSL's reason ("error:0A00010B:SSL routines::wrong version number").
                events.tlsFailure = String(text.split(separator: ":").last ?? Substring(text))
            } else if text.hasPrefix("Couldn't start TLS") {
                events.tlsFailure = events.tlsFailure ?? "the handshake failed"
            } else if text.hasPrefix("RECV: "), text.contains("<failure"), text.contains("urn:ietf:params:xml:ns:xmpp-sasl") {
                // The server's answer to the login (only what was received is kept: what was sent holds the password).
                events.saslFailure = text
            }
        }, userdata: Unmanaged.passUnretained(events).toOpaque()))
        guard let context = library.pointee.xmpp_ctx_new(nil, logger) else {
            logger.deallocate()
            throw XMPPFailure(message: "libstrophe could not start")
        }
        self.context = context
        guard let connection = library.pointee.xmpp_conn_new(context) else {
            library.pointee.xmpp_ctx_free(context)
            logger.deallocate()
            throw XMPPFailure(message: "libstrophe could not start")
        }
        self.connection = connection
    }

    deinit {
        _ = library.pointee.xmpp_conn_release(connection)
        library.pointee.xmpp_ctx_free(context)
        logger.deallocate()
        _ = XMPPClient.refusedCertificates.withLock { $0.removeValue(forKey: UInt(pthread_self())) }
    }

    /// Connects, secures and logs in as `account`, within `timeout` seconds.
    static func connect(_ account: Account, timeout: Double) throws(XMPPFailure) -> XMPPClient {
        let client = try XMPPClient(account: account)
        try client.open(timeout: timeout)
        return client
    }

    private func open(timeout: Double) throws(XMPPFailure) {
        let strophe = library.pointee
        let flags = account.directTLS ? XMPP_CONN_FLAG_LEGACY_SSL : XMPP_CONN_FLAG_MANDATORY_TLS
        guard strophe.xmpp_conn_set_flags(connection, Int(flags)) == XMPP_EOK else {
            throw XMPPFailure(message: "libstrophe would not require TLS; nothing was sent")
        }
        strophe.xmpp_conn_set_jid(connection, account.jid)
        strophe.xmpp_conn_set_pass(connection, account.password)
        if let caFile = account.caFile { strophe.xmpp_conn_set_cafile(connection, caFile) }
        _ = XMPPClient.refusedCertificates.withLock { $0.removeValue(forKey: UInt(pthread_self())) }
        strophe.xmpp_conn_set_certfail_handler(connection) { certificate, reason in
            // Refuse, and remember why, for the connection it was: the verification has failed.
            let subject = certificate.flatMap { XMPPClient.loadedLibrary?.pointee.xmpp_tlscert_get_string($0, XMPP_CERT_SUBJECT) }
                .map { String(cString: $0) }
            let why = (reason.map { String(cString: $0) } ?? "not trusted") + (subject.map { " (\($0))" } ?? "")
            XMPPClient.refusedCertificates.withLock { $0[UInt(pthread_self())] = why }
            return 0
        }
        let handler: xmpp_conn_handler = { _, event, error, streamError, userdata in
            guard let userdata else { return }
            let events = Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue()
            switch event {
            case XMPP_CONN_CONNECT: events.state = .connected
            default:
                events.state = .closed
                // `error` is an errno for a socket, OpenSSL's code for TLS: the log said which (above).
                if let streamError {
                    let text = streamError.pointee.text.map { String(cString: $0) }
                    // The condition is the error element's first child (<host-unknown/>); the text is optional.
                    let condition = streamError.pointee.stanza.flatMap { stanza -> String? in
                        guard let library = XMPPClient.loadedLibrary else { return nil }
                        return XMPPClient.element(stanza, library).children.first { $0.name != "text" }?.name
                    }
                    events.streamError = [condition, text].compactMap { $0 }.joined(separator: ": ")
                }
            }
        }
        // Stream management (XEP-0198), which libstrophe turns on where the server offers it.
        strophe.xmpp_handler_add(connection, { _, _, userdata in
            if let userdata { Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue().streamManagement = true }
            return 0
        }, "urn:xmpp:sm:3", "enabled", nil, Unmanaged.passUnretained(events).toOpaque())
        let host = account.host
        let started = host.withOptionalCString { host in
            strophe.xmpp_connect_client(connection, host, UInt16(account.port ?? 0), handler,
                                        Unmanaged.passUnretained(events).toOpaque())
        }
        guard started == XMPP_EOK else {
            // Names are resolved before anything is sent: XMPP_EINT is a name that does not resolve.
            throw XMPPFailure(message: started == XMPP_EINT
                ? "cannot connect to \(server): the name does not resolve (check [message] server or the JID's domain)"
                : "cannot connect as \(account.jid): libstrophe refused to start (\(started))")
        }
        run(until: { events.state != .connecting }, timeout: timeout)
        switch events.state {
        case .connecting:
            throw XMPPFailure(message: "no answer from \(server) within \(Int(timeout)) s")
        case .closed:
            throw failure()
        case .connected:
            guard strophe.xmpp_conn_is_secured(connection) == 1 else {
                close()
                throw XMPPFailure(message: "the connection to \(server) is not encrypted; share does not send without TLS")
            }
            strophe.xmpp_handler_add(connection, { _, stanza, userdata in
                guard let stanza, let userdata, let library = XMPPClient.loadedLibrary else { return 1 }
                let events = Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue()
                if let h = XMPPClient.element(stanza, library).attributes["h"].flatMap({ Int($0) }) { events.acknowledged = h }
                return 1
            }, "urn:xmpp:sm:3", "a", nil, Unmanaged.passUnretained(events).toOpaque())
            strophe.xmpp_handler_add(connection, { _, stanza, userdata in
                guard let stanza, let userdata else { return 1 }
                let events = Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue()
                // libstrophe's handlers have no library pointer: the table is loaded already.
                guard let library = XMPPClient.loadedLibrary else { return 1 }
                // Only a message that came back is read whole.
                guard library.pointee.xmpp_stanza_get_type(stanza).map({ String(cString: $0) }) == "error" else { return 1 }
                let element = XMPPClient.element(stanza, library)
                if let id = element.attributes["id"] { events.bounced[id] = element }
                return 1
            }, nil, "message", nil, Unmanaged.passUnretained(events).toOpaque())
        }
    }

    /// libstrophe's functions, loaded on first use (never unloaded), or why they are not there.
    private nonisolated(unsafe) static let loaded: (table: UnsafePointer<share_strophe>?, problem: String) = {
        var problem = [CChar](repeating: 0, count: 256)
        let table = share_strophe_load(&problem, problem.count)
        return (table, String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }()

    /// The table, for libstrophe's callbacks (which carry no pointer to it); loaded before any runs.
    private static var loadedLibrary: UnsafePointer<share_strophe>? { loaded.table }

    /// Where the session connects, for messages.
    private var server: String {
        if let host = account.host { return account.port.map { "\(host):\($0)" } ?? host }
        return domain
    }

    /// Why the connection closed before or during login, from what libstrophe saw.
    private func failure() -> XMPPFailure {
        if let refused = XMPPClient.refusedCertificates.withLock({ $0[UInt(pthread_self())] }) {
            return XMPPFailure(message: "certificate verification failed for \(server): \(refused) (set ca-file for a private server)")
        }
        let said = events.complaints.joined(separator: "; ")
        if events.socketError != 0 && !events.connectedSocket {
            let reason = String(cString: strerror(events.socketError))
            return XMPPFailure(message: "cannot connect to \(server): \(reason.prefix(1).lowercased() + reason.dropFirst())")
        }
        if let tls = events.tlsFailure, tls.contains("certificate verify failed") {
            // OpenSSL refused the certificate before libstrophe asked the handler.
            return XMPPFailure(message: "certificate verification failed for \(server): \(tls) (set ca-file for a private server)")
        }
        if let tls = events.tlsFailure {
            let hint = account.directTLS ? " (is this a direct-TLS port? xmpp://HOST:PORT is STARTTLS)" : ""
            return XMPPFailure(message: "the TLS handshake with \(server) failed: \(tls)\(hint)")
        }
        if events.saslFailure != nil {
            return XMPPFailure(message: "authentication failed for \(account.jid): the server refused the name or password (check password-command)")
        }
        if said.lowercased().contains("cannot authenticate") {
            return XMPPFailure(message: "authentication failed for \(account.jid): the server offers no login method share can use")
        }
        if let streamError = events.streamError {
            return XMPPFailure(message: "\(server) closed the stream: \(streamError.isEmpty ? "no reason given" : streamError)")
        }
        return XMPPFailure(message: "\(server) closed the connection" + (said.isEmpty ? "" : ": \(said)"))
    }

    /// Runs libstrophe's loop until `done` holds or `timeout` seconds passed.
    private func run(until done: () -> Bool, timeout: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while !done() && ContinuousClock.now < deadline {
            library.pointee.xmpp_run_once(context, 50)
        }
    }

    /// A fresh stanza id.
    func makeID() -> String {
        guard let made = library.pointee.xmpp_uuid_gen(context) else { return "share-\(UInt64.random(in: 0...UInt64.max))" }
        defer { library.pointee.xmpp_free(context, made) }
        return String(cString: made)
    }

    /// Sends one stanza written as XML (every value escaped by the caller).
    func send(_ xml: String) throws(XMPPFailure) {
        guard events.state == .connected else { throw failure() }
        guard let stanza = library.pointee.xmpp_stanza_new_from_string(context, xml) else {
            throw XMPPFailure(message: "libstrophe could not read a stanza share made")
        }
        library.pointee.xmpp_send(connection, stanza)
        _ = library.pointee.xmpp_stanza_release(stanza)
        sent += 1
    }

    /// Where the server offers stream management, waits until it has
    /// acknowledged every stanza sent (asking for the count once).
    func waitForAcknowledgement(timeout: Double) throws(XMPPFailure) {
        guard events.streamManagement, events.acknowledged < sent else { return }
        let request = "<r xmlns='urn:xmpp:sm:3'/>"
        library.pointee.xmpp_send_raw(connection, request, request.utf8.count)
        run(until: { events.acknowledged >= sent || events.state != .connected }, timeout: timeout)
        guard events.acknowledged >= sent else {
            if events.state != .connected { throw failure() }
            throw XMPPFailure(message: "\(server) acknowledged \(events.acknowledged) of \(sent) stanzas within \(Int(timeout)) s")
        }
    }

    /// Sends an IQ (its `id` attribute must be `id`) and waits for the reply.
    func query(_ xml: String, id: String, timeout: Double) throws(XMPPFailure) -> XMLElement {
        library.pointee.xmpp_id_handler_add(connection, { _, stanza, userdata in
            guard let stanza, let userdata, let library = XMPPClient.loadedLibrary else { return 0 }
            let events = Unmanaged<Events>.fromOpaque(userdata).takeUnretainedValue()
            let element = XMPPClient.element(stanza, library)
            if let id = element.attributes["id"] { events.replies[id] = element }
            return 0
        }, id, Unmanaged.passUnretained(events).toOpaque())
        try send(xml)
        run(until: { events.replies[id] != nil || events.state != .connected }, timeout: timeout)
        if let reply = events.replies.removeValue(forKey: id) { return reply }
        if events.state != .connected { throw failure() }
        throw XMPPFailure(message: "\(server) did not answer within \(Int(timeout)) s")
    }

    /// Whether the session is still up.
    var isConnected: Bool { events.state == .connected }

    /// The messages sent so far that came back as errors, by id.
    var bouncedMessages: [String: XMLElement] { events.bounced }

    /// Closes the stream and waits (briefly) for the server to close its side.
    func close() {
        guard !closed else { return }
        closed = true
        if events.state == .connected {
            library.pointee.xmpp_disconnect(connection)
            run(until: { events.state == .closed }, timeout: 5)
        }
    }

    /// Copies a libstrophe stanza into an ``XMLElement``.
    private static func element(_ stanza: OpaquePointer, _ library: UnsafePointer<share_strophe>) -> XMLElement {
        let strophe = library.pointee
        var element = XMLElement(name: strophe.xmpp_stanza_get_name(stanza).map { String(cString: $0) } ?? "")
        let count = strophe.xmpp_stanza_get_attribute_count(stanza)
        if count > 0 {
            var pairs = [UnsafePointer<CChar>?](repeating: nil, count: Int(count) * 2)
            let filled = strophe.xmpp_stanza_get_attributes(stanza, &pairs, Int32(pairs.count))
            for index in stride(from: 0, to: Int(filled) - 1, by: 2) {
                if let key = pairs[index], let value = pairs[index + 1] {
                    element.attributes[String(cString: key)] = String(cString: value)
                }
            }
        }
        var child = strophe.xmpp_stanza_get_children(stanza)
        while let current = child {
            if strophe.xmpp_stanza_is_text(current) == 1 {
                if let text = strophe.xmpp_stanza_get_text_ptr(current) { element.text += String(cString: text) }
            } else {
                element.children.append(XMPPClient.element(current, library))
            }
            child = strophe.xmpp_stanza_get_next(current)
        }
        return element
    }
}

/// The parts of a JID (RFC 7622): `local@domain/resource`.
enum XMPPAddress {
    /// The domain of `jid`.
    static func domain(of jid: String) -> String {
        var rest = Substring(jid)
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return String(rest)
    }

    /// Whether `text` is a bare JID share can send to: `local@domain`, a
    /// local part without spaces, controls or `"&'/:<>@`, a domain of
    /// dot-separated labels (letters, digits, hyphens; non-ASCII letters
    /// for an international name) or an IP literal in brackets, neither
    /// part over 1023 bytes.
    static func isBareJID(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, !domain.isEmpty,
              local.utf8.count <= 1023, domain.utf8.count <= 1023 else { return false }
        let forbidden: Set<Unicode.Scalar> = ["\"", "&", "'", "/", ":", "<", ">", "@"]
        guard !local.unicodeScalars.contains(where: { forbidden.contains($0) || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        if domain.hasPrefix("[") {
            return domain.hasSuffix("]") && domain.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
                && domain.count > 2
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII ? (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                    : (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark)
            }
        }
    }
}

extension Optional where Wrapped == String {
    /// Calls `body` with a C string, or with `nil`.
    func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let text): text.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
