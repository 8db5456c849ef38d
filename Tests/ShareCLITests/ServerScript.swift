import Foundation
import Testing

/// A test server in `Tests/Support` run under Debian's `/usr/bin/python3`:
/// it prints `READY <port>` once it serves, and serves until its stdin
/// closes. The SMTP server, the Mustachify service and CUPS start this way;
/// `Tests/Support/test_server.py` is what those servers share for it.
///
/// ``init(script:arguments:logFile:)`` blocks on reading the READY line
/// (bounded by a watchdog), so the server answers as soon as it returns.
final class ServerScript {
    /// The interpreter with Debian's python3-aiosmtpd, python3-pil and python3-vobject.
    static let python = URL(fileURLWithPath: "/usr/bin/python3")
    /// `Tests/Support`, found from this file's path.
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support", isDirectory: true)
    /// How long the server may take to start or to stop before it is killed.
    static let watchdogSeconds = 30

    /// The port it listens on (127.0.0.1).
    let port: Int
    /// Its stderr.
    let logFile: URL
    private let name: String
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// What the server printed after its READY line and was not read yet.
    private var pending = Data()
    private var stopped = false

    /// Starts `Tests/Support/<script> ARGUMENTS…`, its stderr into `logFile`;
    /// it has `startSeconds` to say READY (a server installed on first use needs more).
    /// `environment` adds to the few variables it has (PATH, LANG).
    init(script: String, arguments: [String], logFile: URL, startSeconds: Int = ServerScript.watchdogSeconds,
         environment: [String: String] = [:]) throws {
        name = script
        self.logFile = logFile
        try Data().write(to: logFile)
        process.executableURL = ServerScript.python
        process.arguments = [ServerScript.support.appendingPathComponent(script).path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"]
            .merging(environment) { _, given in given }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()

        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: startSeconds)
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        let killed = watchdog.finish()
        let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let words = line.split(separator: " ")
        guard !killed, words.count == 2, words[0] == "READY", let port = Int(words[1]), port > 0 else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            let hint = log.contains("No module named") ? " (a Debian python3-… package is missing: make test installs them)" : ""
            Issue.record("\(script) did not start\(hint) (stdout: \(line.debugDescription), killed: \(killed)); stderr:\n\(log)")
            throw ServerScriptError.notStarted(script)
        }
        self.port = port
        pending = Data(bytes.drop { $0 != UInt8(ascii: "\n") }.dropFirst())
    }

    /// The next line the server prints after READY (a server that reports
    /// what it received, one line each), waiting up to `seconds`; `nil`
    /// when it printed none in time (it is then killed) or exited.
    func nextLine(within seconds: Int = ServerScript.watchdogSeconds) -> String? {
        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: seconds)
        defer { _ = watchdog.finish() }
        while !pending.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            pending.append(chunk)
        }
        let line = pending.prefix { $0 != UInt8(ascii: "\n") }
        pending = Data(pending.dropFirst(line.count + 1))
        return String(decoding: line, as: UTF8.self)
    }

    deinit { stop() }

    /// Stops the server: closes its stdin and waits for it to exit.
    func stop() {
        guard !stopped else { return }
        stopped = true
        try? input.fileHandleForWriting.close()
        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: ServerScript.watchdogSeconds)
        process.waitUntilExit()
        if watchdog.finish() { Issue.record("\(name) did not stop when its stdin closed; it was killed") }
    }

    /// The server's stderr so far, for failure messages.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Runs a support script to its end (`cups_server.py --get-job …`, `vcard_tool.py photos …`) and returns its stdout.
    static func query(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Data {
        let run = try Share.run(python, [support.appendingPathComponent(script).path] + arguments,
                                environment: environment.merging(["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"]) { _, fixed in fixed },
                                directory: support)
        try #require(run.status == 0, "\(script) \(arguments) failed: \(run.err)")
        return run.stdout
    }
}

enum ServerScriptError: Error {
    case notStarted(String)
}
