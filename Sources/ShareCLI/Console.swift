import Foundation

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

    /// Creates a console from its parts.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
                readInput: @escaping @Sendable () -> Data, hasTerminal: @escaping @Sendable () -> Bool,
                environment: [String: String]) {
        self.output = output
        self.error = error
        self.readInput = readInput
        self.hasTerminal = hasTerminal
        self.environment = environment
    }

    /// The real process: stdout, stderr, stdin, `/dev/tty` and the environment.
    public static var process: Console {
        Console(
            output: { FileHandle.standardOutput.write(Data($0.utf8)) },
            error: { FileHandle.standardError.write(Data($0.utf8)) },
            readInput: { FileHandle.standardInput.readDataToEndOfFile() },
            hasTerminal: {
                let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
                if fd < 0 { return false }
                close(fd)
                return true
            },
            environment: Console.processEnvironment())
    }

    /// The environment read straight from `environ`: ProcessInfo's set-up
    /// was a measurable part of every start.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

/// The exit codes of SPEC §3.
public enum ExitCode {
    /// The activity completed.
    public static let completed: Int32 = 0
    /// Not completed: cancelled, saved as a draft, or queued.
    public static let notCompleted: Int32 = 1
    /// Usage or bad input; nothing was done.
    public static let usage: Int32 = 2
    /// The activity failed; the error is on stderr and nothing was lost.
    public static let failed: Int32 = 3
    /// No activity is eligible for these items.
    public static let noActivity: Int32 = 4
}
