import CCups
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// CUPS through its own client library (libcups, which `lp` and `lpstat`
/// use), as a person at the terminal would use it: whatever server, queues
/// and options they have set up (`CUPS_SERVER`, `~/.cups/client.conf`,
/// `lpoptions`) apply to share too.
///
/// Each request goes on a connection of its own that waits at most
/// ``timeout`` for the scheduler, so an unreachable server never hangs share.
struct CUPS: Sendable {
    /// The scheduler (`CUPS_SERVER`); `nil` for libcups' own choice.
    let server: String?

    /// How long the scheduler may take to connect, and then to answer.
    static let timeout = 15.0

    /// CUPS for `environment`: its `CUPS_SERVER` is the scheduler asked.
    init(environment: [String: String]) {
        server = environment["CUPS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: - Destinations

    /// The destinations `lpstat -e` lists, and the default among them.
    struct Destinations: Sendable, Equatable {
        var names: [String]
        var preferred: String?
    }

    /// The destinations, and the one to preselect as lp chooses it:
    /// `$LPDEST`, `$PRINTER`, the `Default` of lpoptions, then the server's default.
    func destinations() throws(CUPSError) -> Destinations {
        try connected { http, error throws(CUPSError) in
            var count: Int32 = 0, preferred: Int32 = -1
            guard let list = share_cups_destinations(http, &count, &preferred, &error, error.count) else { throw CUPSError(error) }
            defer { free(list) }
            var names: [String] = []
            var name = UnsafePointer(list)
            for _ in 0..<count {
                names.append(String(cString: name))
                name += strlen(name) + 1
            }
            return Destinations(names: names, preferred: names.indices.contains(Int(preferred)) ? names[Int(preferred)] : nil)
        }
    }

    /// Why the scheduler is surely not there, found without asking it:
    /// the server libcups would use (`$CUPS_SERVER`, else `ServerName` of
    /// `~/.cups/client.conf` or `/etc/cups/client.conf`, else the socket
    /// `/run/cups/cups.sock` or, without it, localhost:631) is a socket
    /// that does not exist, or nothing listens there. `nil` when it may be
    /// there (a remote server is never judged here).
    static func schedulerDown(environment: [String: String], home: String) -> String? {
        let configured = CUPS(environment: environment).server
            ?? setting("ServerName", inFile: home + "/.cups/client.conf") ?? setting("ServerName", inFile: "/etc/cups/client.conf")
        if let server = configured {
            guard server.hasPrefix("/") else { return nil }
            return access(server, F_OK) == 0 ? nil : "the CUPS scheduler is not running (\(server) does not exist)"
        }
        if access(defaultSocket, F_OK) == 0 { return nil }
        return nothingListens(onLocalPort: 631) ? "the CUPS scheduler is not running (no \(defaultSocket), nothing on localhost:631)" : nil
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is refused (on the
    /// loopback a refusal is immediate: nothing is waited for).
    static func nothingListens(onLocalPort port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return connected != 0 && errno == ECONNREFUSED
    }

    /// Where Debian's libcups looks for the scheduler first.
    static let defaultSocket = "/run/cups/cups.sock"

    /// The value of the first `KEY value` line of a CUPS file (`ServerName`
    /// of client.conf), the key without case.
    static func setting(_ key: String, inFile path: String) -> String? {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, words[0].lowercased() == key.lowercased() { return String(words[1]) }
        }
        return nil
    }

    // MARK: - Jobs

    /// Sends `files` to `printer` as one job, each file a document read as
    /// it goes; returns the job's id as lp names it (`Office-12`).
    func submit(_ files: [String], request: PrintRequest, printer: String, title: String) throws(CUPSError) -> String {
        guard !files.isEmpty else { throw CUPSError("nothing to print") }
        let job = try connected { http, error throws(CUPSError) in
            let job = share_cups_create_job(http, printer, title, request.cupsOptions, &error, error.count)
            guard job > 0 else { throw CUPSError(error) }
            for (index, file) in files.enumerated() {
                // Debian 12's cupsd (2.4.2-3+deb12u10) crashes on a document name with
                // white space in it: such a name has "_" instead; the job keeps the real title.
                let name = String(String.UnicodeScalarView(PathText.lastComponent(of: file).unicodeScalars.map {
                    $0.properties.isWhitespace ? "_" : $0
                }))
                guard share_cups_send_document(http, printer, job, file, name, index == files.count - 1 ? 1 : 0, &error, error.count) == 0 else {
                    // A job without all its documents never prints: cancelled, on a connection of its own.
                    let failure = CUPSError(error)
                    try? cancel(job, printer: printer)
                    throw failure
                }
            }
            return job
        }
        return "\(printer.prefix { $0 != "/" })-\(job)"
    }

    /// Where a job is: its IPP state.
    enum JobState: Int32, Sendable, Equatable {
        /// Not among the scheduler's jobs (purged from its history).
        case unknown = 0
        case pending = 3
        case held = 4
        case processing = 5
        /// Stopped while printing: a filter or the device failed.
        case stopped = 6
        case cancelled = 7
        /// Given up by the scheduler.
        case aborted = 8
        case completed = 9
    }

    /// The state of job `id` (`Office-12`) on `printer`, asked of the
    /// scheduler (lpstat shows a cancelled job as it shows a completed one).
    func job(_ id: String, printer: String) throws(CUPSError) -> JobState {
        let number = try CUPS.number(of: id)
        let state = try connected { http, error throws(CUPSError) in
            let state = share_cups_job_state(http, printer, number, &error, error.count)
            guard state >= 0 else { throw CUPSError(error) }
            return state
        }
        return JobState(rawValue: state) ?? .unknown
    }

    /// CUPS' words about job `id`, as `lpstat -l` shows them: its printer's
    /// message for it (`Status:`) and its state reasons (`Alerts:`).
    func words(about id: String) -> String? {
        guard let number = try? CUPS.number(of: id) else { return nil }
        let words = try? connected { http, error throws(CUPSError) in
            var words = [CChar](repeating: 0, count: 1024)
            guard share_cups_job_words(http, number, &words, words.count, &error, error.count) == 0 else { throw CUPSError(error) }
            return CUPS.text(words)
        }
        return words.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Cancels job `id` (`Office-12`) on `printer`.
    func cancel(_ id: String, printer: String) throws(CUPSError) {
        try cancel(try CUPS.number(of: id), printer: printer)
    }

    private func cancel(_ job: Int32, printer: String) throws(CUPSError) {
        try connected { http, error throws(CUPSError) in
            guard share_cups_cancel_job(http, printer, job, &error, error.count) == 0 else { throw CUPSError(error) }
        }
    }

    /// Whether `printer` is stopped, and CUPS' words for why (its state
    /// message: the reason given to `cupsdisable -r`, "Paused").
    func stopped(_ printer: String) throws(CUPSError) -> String? {
        try connected { http, error throws(CUPSError) in
            var message = [CChar](repeating: 0, count: 1024)
            switch share_cups_printer_stopped(http, printer, &message, message.count, &error, error.count) {
            case 0: return nil
            case 1: return CUPS.text(message).isEmpty ? "stopped" : CUPS.text(message)
            default: throw CUPSError(error)
            }
        }
    }

    /// The number of job `id` (`Office-12`: 12).
    private static func number(of id: String) throws(CUPSError) -> Int32 {
        guard let number = id.split(separator: "-").last.flatMap({ Int32($0) }) else { throw CUPSError("\(id) is not a CUPS job id") }
        return number
    }

    // MARK: - Connecting

    /// The text libcups wrote into `buffer`, up to its first NUL.
    fileprivate static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `body` with a connection to the scheduler, closed after it, and a
    /// buffer for libcups' words when it fails.
    private func connected<Value>(_ body: (OpaquePointer, inout [CChar]) throws(CUPSError) -> Value) throws(CUPSError) -> Value {
        var error = [CChar](repeating: 0, count: 512)
        guard let http = share_cups_connect(server, CUPS.timeout, &error, error.count) else { throw CUPSError(error) }
        defer { share_cups_close(http) }
        return try body(http, &error)
    }
}

/// Why CUPS could not be asked or refused, in words (often CUPS' own).
struct CUPSError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// The words libcups wrote into `buffer`.
    init(_ buffer: [CChar]) { description = CUPS.text(buffer) }
}
