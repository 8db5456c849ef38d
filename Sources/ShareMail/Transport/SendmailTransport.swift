import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Delivery through a sendmail-compatible command (msmtp, postfix, exim).
///
/// The command is split on spaces, never run through a shell, and always
/// called as `COMMAND -i -f SENDER -- RECIPIENT…`; the message (without
/// Bcc) is written to its standard input. Exit 0 is sent; 75 (EX_TEMPFAIL)
/// is a temporary failure; anything else is a refusal with its stderr.
public struct SendmailTransport: MailTransport {
    /// The program and its own arguments.
    public let command: [String]
    /// How long it may run, in seconds (`[mail] command-timeout`).
    public let timeout: Double

    /// Creates a transport from a command line such as `/usr/sbin/sendmail` or `msmtp -a work`.
    public init(commandLine: String, timeout: Double = 30) throws(MailError) {
        self.timeout = timeout
        command = commandLine.split(separator: " ").map(String.init)
        guard let program = command.first else { throw MailError(.configuration, "the sendmail command is empty") }
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw MailError(.configuration, "the sendmail command \(program) is not an executable file")
        }
    }

    public var summary: String { command.joined(separator: " ") }

    public func send(_ file: MessageFile, envelope: Envelope) throws(MailError) -> String {
        let reader = try TransmissionReader(file)
        var readFailed = false
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(command[0], arguments: Array(command.dropFirst()) + ["-i", "-f", envelope.sender, "--"]
                                             + envelope.recipients, input: { buffer in
                let count = reader.read(into: buffer)
                if count < 0 { readFailed = true }
                return count
            }, keepOutput: false, supervision: Subprocess.Supervision(timeout: timeout))
        } catch {
            throw MailError(.configuration, "cannot start \(command[0]): \(error.reason)")
        }
        if outcome.timedOut {
            throw MailError(.rejected, "\(command[0]) did not finish within \(Int(timeout)) s ([mail] command-timeout); it was stopped")
        }
        if outcome.cancelled { throw MailError(.rejected, "\(command[0]) was interrupted") }
        // The command was stopped before it saw the end of a message that could not be read.
        if readFailed || outcome.inputFailed { throw MailError(.io, "cannot read \(file.path)") }
        let writeFailed = !outcome.inputComplete
        let stderr = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
        switch outcome.status {
        case 0 where !writeFailed: return stderr
        case 75: throw MailError(.temporary, "\(command[0]) could not deliver for now (exit 75)" + (stderr.isEmpty ? "" : ": \(stderr)"))
        default:
            throw MailError(.rejected, "\(command[0]) refused the message (exit \(outcome.status))"
                + (stderr.isEmpty ? "" : ": \(stderr)"))
        }
    }
}
