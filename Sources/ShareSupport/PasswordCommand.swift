/// Runs a `password-command` and returns the first line of its output.
///
/// The command runs through `/bin/sh -c`, as mutt's and msmtp's do, since
/// it is the user's own command line (`pass show mail`). The password is
/// never logged and never passed in argv.
public enum PasswordCommand {
    /// Why no password came, in words for people.
    public struct Failure: Error, Sendable {
        public var message: String
    }

    /// The password `command` prints; `section` names the config section
    /// whose `command-timeout` gave `timeout` (`mail`, `message`), `key`
    /// the key that holds the command (`token-command` for an OAuth2 token).
    public static func run(_ command: String, timeout: Double, section: String, key: String = "password-command") throws(Failure) -> String {
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run("/bin/sh", arguments: ["-c", command], supervision: Subprocess.Supervision(timeout: timeout))
        } catch {
            throw Failure(message: "\(key) could not start: \(error.reason)")
        }
        if outcome.timedOut {
            throw Failure(message: "\(key) did not finish within \(Int(timeout)) s ([\(section)] command-timeout); it was stopped")
        }
        if outcome.cancelled { throw Failure(message: "\(key) was interrupted") }
        guard outcome.status == 0 else {
            let detail = String(decoding: outcome.errors, as: UTF8.self).trimmingWhitespace(includingNewlines: true)
            throw Failure(message: "\(key) failed (exit \(outcome.status))" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        let text = String(decoding: outcome.output, as: UTF8.self)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw Failure(message: "\(key) printed no \(key == "token-command" ? "token" : "password")") }
        return password
    }
}
