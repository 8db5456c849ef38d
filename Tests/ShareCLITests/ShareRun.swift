import Foundation
import Testing

/// The outcome of one run of the built `share` binary.
struct ShareRun: Sendable {
    /// The exit status (or the signal number when the process was killed).
    var status: Int32
    /// Everything written to standard output.
    var stdout: Data
    /// Everything written to standard error.
    var stderr: Data
    /// Whether the watchdog had to kill the process.
    var timedOut = false

    /// Standard output as text (invalid UTF-8 shown as U+FFFD).
    var out: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as text (invalid UTF-8 shown as U+FFFD).
    var err: String { String(decoding: stderr, as: UTF8.self) }
}

extension ShareRun {
    /// Expects the run to have exited with `status`, saying each of `words`
    /// on stderr.
    func expectExit(_ status: Int32, saying words: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        expectExit(status, saying: words, sourceLocation: sourceLocation)
    }

    /// Expects the run to have exited with `status`, saying each of `words`
    /// on stderr.
    func expectExit(_ status: Int32, saying words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, "exit \(self.status); stderr: \(err)", sourceLocation: sourceLocation)
        for text in words {
            #expect(err.contains(text), "stderr: \(err)", sourceLocation: sourceLocation)
        }
    }
}

/// Finds and runs the `share` binary under test.
enum Share {
    /// The binary: `$SHARE_BIN`, else `share` next to the test bundle,
    /// else `<package>/.build/debug/share`.
    static func binary(filePath: String = #filePath) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["SHARE_BIN"], !override.isEmpty {
            let url = URL(fileURLWithPath: override)
            try #require(FileManager.default.isExecutableFile(atPath: url.path),
                         "SHARE_BIN=\(override) is not an executable file")
            return url
        }
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("share"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("share"))
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("share"))
        }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                candidates.append(directory.appendingPathComponent(".build/debug/share"))
                break
            }
            directory.deleteLastPathComponent()
        }
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
        }
        return try #require(found, "no share binary; looked at \(candidates.map(\.path)); set SHARE_BIN")
    }

    /// The most stdin bytes a run may be fed: they are written into the pipe
    /// before the process starts, so they must fit in its buffer (64 KiB on Linux).
    static let maximumInput = 32 * 1024

    /// How long a run may take before it is killed and reported as a failure.
    static let watchdogSeconds = 60

    /// Runs `executable` with `arguments` in `directory` with exactly `environment`,
    /// feeding `input` on stdin (an empty stdin that is at end of file when `nil`),
    /// and collects stdout and stderr fully.
    /// With `closedOutput`, stdout is a pipe nobody reads: every write to it fails.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String],
                    directory: URL, input: Data? = nil, closedOutput: Bool = false) throws -> ShareRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory

        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe

        // Small input goes into the pipe's buffer at once: no writer thread,
        // no SIGPIPE when the program exits without reading it.
        let bytes = input ?? Data()
        try #require(bytes.count <= maximumInput, "stdin for a test run must be at most \(maximumInput) bytes")
        if !bytes.isEmpty { try inputPipe.fileHandleForWriting.write(contentsOf: bytes) }

        if closedOutput { try outputPipe.fileHandleForReading.close() }
        try process.run()
        try inputPipe.fileHandleForWriting.close()

        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: watchdogSeconds)
        let output = closedOutput ? nil : PipeReader(outputPipe.fileHandleForReading)
        let error = PipeReader(errorPipe.fileHandleForReading)
        let stdout = output?.wait() ?? Data()
        let stderr = error.wait()
        process.waitUntilExit()
        let timedOut = watchdog.finish()
        return ShareRun(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}

/// Reads a pipe to its end on a thread of its own, so stdout and stderr
/// drain concurrently and a chatty child can never block on a full pipe.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let finished = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            data = handle.readDataToEndOfFile()
            finished.signal()
        }
        thread.start()
    }

    /// Blocks until end of file, then returns every byte read.
    func wait() -> Data {
        finished.wait()
        return data
    }
}

