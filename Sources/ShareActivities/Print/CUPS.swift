import CCups
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// CUPS through its own command-line programs (`lp`, `lpstat`), as a
/// person at the terminal would use it: whatever server, queues and
/// options they have set up (`CUPS_SERVER`, `~/.cups/client.conf`,
/// `lpoptions`) apply to share too.
///
/// The programs run with `LC_ALL=C`, so that their words can be read, and
/// with a time limit, so that an unreachable server never hangs share.
struct CUPS: Sendable {
    /// The environment the programs run in (share's own, in the C locale).
    let environment: [String: String]
    /// `lp`.
    let lp: String
    /// `lpstat`.
    let lpstat: String

    /// How long one `lp` or `lpstat` may take.
    static let timeout = 15.0

    /// CUPS for `environment`, or why it cannot be used (no `lp`, no `lpstat`).
    static func find(environment: [String: String]) -> Result<CUPS, CUPSError> {
        guard let lp = ProgramSearch.executable("lp", environment: environment) else {
            return .failure(CUPSError("no `lp` on PATH (Debian: apt install cups-client)"))
        }
        guard let lpstat = ProgramSearch.executable("lpstat", environment: environment) else {
            return .failure(CUPSError("no `lpstat` on PATH (Debian: apt install cups-client)"))
        }
        var environment = environment
        environment["LC_ALL"] = "C"
        environment["LANG"] = "C"
        return .success(CUPS(environment: environment, lp: lp, lpstat: lpstat))
    }

    // MARK: - Destinations

    /// The destinations `lpstat -e` lists, and the default among them.
    struct Destinations: Sendable, Equatable {
        var names: [String]
        var preferred: String?
    }

    /// The destinations for `environment`, or why they cannot be asked for.
    static func destinations(environment: [String: String], home: String) -> Result<Destinations, CUPSError> {
        find(environment: environment).flatMap { cups in Result { () throws(CUPSError) in try cups.destinations(home: home) } }
    }

    /// The destinations, and the one to preselect: `$LPDEST`, `$PRINTER`,
    /// the `Default` of `~/.cups/lpoptions`, then the server's default
    /// (`lpstat -d`), the first of them that `lpstat -e` lists.
    func destinations(home: String) throws(CUPSError) -> Destinations {
        let output = try run(lpstat, ["-e", "-d"])
        var names: [String] = []
        var serverDefault: String?
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("system default destination: ") {
                serverDefault = String(line.dropFirst("system default destination: ".count)).trimmingWhitespace()
            } else if line.hasPrefix("no system default destination") {
                continue
            } else if !line.isEmpty, !line.contains(" ") {
                names.append(line)
            }
        }
        let candidates = [environment["LPDEST"], environment["PRINTER"],
                          CUPS.setting("Default", inFile: home + "/.cups/lpoptions"), serverDefault]
        let preferred = candidates.compactMap { $0 }.first { names.contains($0) }
        return Destinations(names: names, preferred: preferred)
    }

    /// Why the scheduler is surely not there, found without asking it:
    /// the server libcups would use (`$CUPS_SERVER`, else `ServerName` of
    /// `~/.cups/client.conf` or `/etc/cups/client.conf`, else the socket
    /// `/run/cups/cups.sock` or, without it, localhost:631) is a socket
    /// that does not exist, or nothing listens there. `nil` when it may be
    /// there (a remote server is never judged here).
    static func schedulerDown(environment: [String: String], home: String) -> String? {
        let configured = environment["CUPS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
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
    /// of client.conf, `Default` of lpoptions), the key without case.
    static func setting(_ key: String, inFile path: String) -> String? {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, words[0].lowercased() == key.lowercased() { return String(words[1]) }
        }
        return nil
    }

    // MARK: - Jobs

    /// Sends `files` to `printer`; returns the job id `lp` reports (`Office-12`).
    func submit(_ files: [String], request: PrintRequest, printer: String, title: String) throws(CUPSError) -> String {
        // lp names each document after its file. Debian 12's cupsd (2.4.2-3+deb12u10)
        // crashes on a document name with white space in it, so such a file goes to
        // lp through a link whose name has "_" instead; the job keeps the real title.
        var links: [String] = []
        var folder: String?
        defer {
            for link in links { unlink(link) }
            if let folder { rmdir(folder) }
        }
        var named: [String] = []
        for file in files {
            let name = PathText.lastComponent(of: file)
            guard name.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
                named.append(file)
                continue
            }
            if folder == nil {
                var template = Array(((environment["TMPDIR"] ?? "/tmp") + "/share-print-XXXXXX").utf8CString)
                folder = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
            }
            guard let folder else { throw CUPSError("cannot make a temporary folder: \(FileError(code: errno).reason)") }
            let link = folder + "/" + String(String.UnicodeScalarView(name.unicodeScalars.map { $0.properties.isWhitespace ? "_" : $0 }))
            let target = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
            guard symlink(target, link) == 0 else { throw CUPSError("cannot link \(file): \(FileError(code: errno).reason)") }
            links.append(link)
            named.append(link)
        }
        let output = try run(lp, request.lpArguments(printer: printer, title: title) + ["--"] + named)
        // "request id is Office-12 (1 file(s))"
        let line = output.split(separator: "\n").first { $0.hasPrefix("request id is ") }
        guard let id = line?.dropFirst("request id is ".count).split(separator: " ").first else {
            throw CUPSError("lp printed no job id: \(output.trimmingWhitespace(includingNewlines: true))")
        }
        return String(id)
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
    /// scheduler through libcups (lpstat shows a cancelled job as it shows
    /// a completed one).
    func job(_ id: String, printer: String) throws(CUPSError) -> JobState {
        guard let number = id.split(separator: "-").last.flatMap({ Int32($0) }) else { throw CUPSError("\(id) is not a CUPS job id") }
        var reason = [CChar](repeating: 0, count: 256)
        let state = share_cups_job_state(printer, number, &reason, reason.count)
        guard state >= 0 else {
            throw CUPSError(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return JobState(rawValue: state) ?? .unknown
    }

    /// CUPS' words about job `id`: its `Status:` (the printer's message for
    /// it) and `Alerts:` (its state reasons), from `lpstat -l -o`.
    func words(about id: String, printer: String) -> String? {
        guard let output = try? run(lpstat, ["-W", "all", "-l", "-o", printer]) else { return nil }
        var inJob = false
        var words: [String] = []
        for line in output.split(separator: "\n") {
            if !line.hasPrefix("\t") && !line.hasPrefix(" ") {
                inJob = line.split(separator: " ").first.map(String.init) == id
                continue
            }
            let text = line.trimmingWhitespace()
            guard inJob else { continue }
            if text.hasPrefix("Status: ") { words.append(String(text.dropFirst("Status: ".count))) }
            if text.hasPrefix("Alerts: "), text != "Alerts: none" { words.append(String(text.dropFirst("Alerts: ".count))) }
        }
        return words.isEmpty ? nil : words.joined(separator: "; ")
    }

    /// Cancels job `id` (`cancel ID`).
    func cancel(_ id: String) throws(CUPSError) {
        guard let cancel = ProgramSearch.executable("cancel", environment: environment) else { throw CUPSError("no `cancel` on PATH") }
        _ = try run(cancel, [id])
    }

    /// Whether `printer` is stopped, and CUPS' words for why (its state
    /// message: the reason given to `cupsdisable -r`, "Paused").
    func stopped(_ printer: String) throws(CUPSError) -> String? {
        // "printer Office disabled since Wed 02 Dec 2026 03:02:25 AM UTC -\n\tOut of paper\n"
        let lines = try run(lpstat, ["-p", printer]).split(separator: "\n")
        guard let first = lines.first, first.contains(" disabled since ") else { return nil }
        let message = lines.dropFirst().first { $0.hasPrefix("\t") || $0.hasPrefix(" ") }?.trimmingWhitespace()
        return message.flatMap { $0.isEmpty ? nil : String($0) } ?? "stopped"
    }

    // MARK: - Running

    private func run(_ program: String, _ arguments: [String]) throws(CUPSError) -> String {
        let outcome: Subprocess.Outcome
        do {
            // Short and bounded: an interrupt is left to share (these may run on
            // a thread of their own while the picker handles signals).
            outcome = try Subprocess.run(program, arguments: arguments, environment: environment, errorLimit: 4096,
                                         supervision: Subprocess.Supervision(timeout: CUPS.timeout, stopsOnInterrupt: false))
        } catch {
            throw CUPSError(error.description)
        }
        let name = PathText.lastComponent(of: program)
        if outcome.timedOut { throw CUPSError("\(name) did not answer within \(Int(CUPS.timeout)) s (is the CUPS server reachable?)") }
        guard outcome.status == 0 else {
            let words = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            throw CUPSError(words.isEmpty ? "\(name) exited with status \(outcome.status)" : words)
        }
        return String(decoding: outcome.output, as: UTF8.self)
    }
}

/// Why CUPS could not be asked or refused, in words (often CUPS' own).
struct CUPSError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
