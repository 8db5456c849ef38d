import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// The process's outside world, passed in so tests can run a command in-process.
public struct Console: Sendable {
    /// Writes to standard output.
    public var output: @Sendable (String) -> Void
    /// Writes to standard error.
    public var error: @Sendable (String) -> Void
    /// Reads all of standard input.
    public var readInput: @Sendable () -> Data
    /// Whether a terminal (`/dev/tty`) can be opened for the UI.
    public var hasTerminal: @Sendable () -> Bool
    /// The environment variables.
    public var environment: [String: String]
    /// The width of standard output when it is a terminal; `nil` when it is
    /// a pipe or a file (help is then wrapped at 80 columns).
    public var outputColumns: @Sendable () -> Int? = { nil }

    /// Creates a console from its parts.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
                readInput: @escaping @Sendable () -> Data, hasTerminal: @escaping @Sendable () -> Bool,
                environment: [String: String], outputColumns: @escaping @Sendable () -> Int? = { nil }) {
        self.output = output
        self.error = error
        self.readInput = readInput
        self.hasTerminal = hasTerminal
        self.environment = environment
        self.outputColumns = outputColumns
    }

    /// The real process: stdout, stderr, stdin, `/dev/tty` and the environment.
    public static var process: Console {
        Console(
            // A closed pipe ends a write quietly (SIGPIPE is ignored, so the
            // write fails instead of killing us): `share --list | head -1`.
            output: { text in
                do throws(FileError) { try LocalFiles.writeAll(text, to: STDOUT_FILENO) } catch {
                    // A reader that went away (`share --list | head -1`) is not an error; a full disk is.
                    if error.code != EPIPE { Console.outputFailure.withLock { $0 = $0 ?? error } }
                }
            },
            error: { try? LocalFiles.writeAll($0, to: STDERR_FILENO) },
            readInput: { readAll(STDIN_FILENO) },
            hasTerminal: { Console.terminalOpens },
            environment: Console.processEnvironment(),
            outputColumns: {
                var size = winsize()
                guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
                return Int(size.ws_col)
            })
    }

    /// The first failed write to standard output (not a closed pipe), if any:
    /// share then exits with 3 and says so.
    static let outputFailure = Mutex<FileError?>(nil)

    /// The exit code once standard output's fate is known: `code`, or 3
    /// with a message on stderr when writing to it failed.
    public func exitCode(after code: Int32) -> Int32 {
        guard let failure = Console.outputFailure.withLock({ $0 }) else { return code }
        error("share: cannot write to standard output: \(failure.code == ENOSPC ? "no space left on the device" : failure.reason)\n")
        return code == ExitCode.completed || code == ExitCode.notCompleted ? ExitCode.failed : code
    }

    /// Whether `/dev/tty` opens, tried once. The descriptor is left open
    /// (close-on-exec) until share exits: closing a terminal waits for the
    /// kernel's pending output work, which showed in the picker's start.
    private static let terminalOpens = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC) >= 0

    /// The environment read straight from `environ`: ProcessInfo's set-up
    /// was a measurable part of every start.
    static func processEnvironment() -> [String: String] {
        var count = 0
        while environ[count] != nil { count += 1 }
        var result = [String: String](minimumCapacity: count)
        for index in 0..<count {
            guard let entry = environ[index], let equals = strchr(entry, 0x3D) else { continue }
            let name = String(decoding: UnsafeRawBufferPointer(start: entry, count: entry.distance(to: equals)), as: UTF8.self)
            result[name] = String(cString: equals + 1)
        }
        return result
    }

    /// Everything readable from `descriptor`, up to its end.
    static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return data }
            data.append(contentsOf: chunk[0..<count])
        }
    }
}
