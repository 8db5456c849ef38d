import Foundation

/// Delivery through a sendmail-compatible command (msmtp, postfix, exim).
///
/// The command is split on spaces, never run through a shell, and always
/// called as `COMMAND -i -f SENDER -- RECIPIENT…`; the message (without
/// Bcc) is written to its standard input. Exit 0 is sent; 75 (EX_TEMPFAIL)
/// is a temporary failure; anything else is a refusal with its stderr.
public struct SendmailTransport: MailTransport {
    /// The program and its own arguments.
    public let command: [String]

    /// Creates a transport from a command line such as `/usr/sbin/sendmail` or `msmtp -a work`.
    public init(commandLine: String) throws(MailError) {
        command = commandLine.split(separator: " ").map(String.init)
        guard let program = command.first else { throw MailError(.configuration, "the sendmail command is empty") }
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw MailError(.configuration, "the sendmail command \(program) is not an executable file")
        }
    }

    public var summary: String { command.joined(separator: " ") }

    public func send(_ file: MessageFile, envelope: Envelope) throws(MailError) -> String {
        let reader = try TransmissionReader(file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + ["-i", "-f", envelope.sender, "--"] + envelope.recipients
        let input = Pipe()
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("share-sendmail-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw MailError(.io, "cannot create a temporary file for \(command[0])'s messages")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        guard let errorHandle = try? FileHandle(forWritingTo: errorFile) else {
            throw MailError(.io, "cannot create a temporary file for \(command[0])'s messages")
        }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorHandle
        do { try process.run() } catch {
            throw MailError(.configuration, "cannot start \(command[0]): \(error.localizedDescription)")
        }
        try? errorHandle.close()
        let writer = input.fileHandleForWriting
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var writeFailed = false
        while !writeFailed {
            let count = reader.read(into: buffer)
            if count < 0 { throw MailError(.io, "cannot read \(file.path)") }
            if count == 0 { break }
            do { try writer.write(contentsOf: Data(bytesNoCopy: buffer.baseAddress!, count: count, deallocator: .none)) } catch {
                writeFailed = true  // the command exited early; its status says why
            }
        }
        try? writer.close()
        process.waitUntilExit()
        let stderr = ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        switch process.terminationStatus {
        case 0 where !writeFailed: return stderr
        case 75: throw MailError(.temporary, "\(command[0]) could not deliver for now (exit 75)" + (stderr.isEmpty ? "" : ": \(stderr)"))
        default:
            throw MailError(.rejected, "\(command[0]) refused the message (exit \(process.terminationStatus))"
                + (stderr.isEmpty ? "" : ": \(stderr)"))
        }
    }
}
