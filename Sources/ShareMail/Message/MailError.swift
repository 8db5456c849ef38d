import ShareCore
import ShareSupport

/// Why the mail engine refused or failed, with words a person can act on.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; decides the outcome and exit code.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// Bad input: an address, a header value, a file. Nothing was sent (exit 2).
        case invalidInput
        /// Reading or writing a local file failed.
        case io
        /// The server or sendmail refused for good (5xx), or the connection failed or dropped.
        case rejected
        /// A temporary refusal (4xx): the message waits in the outbox.
        case temporary
        /// The setup is wrong: a bad transport URL, a password command that failed.
        case configuration
        /// gpg-agent needs a passphrase it was not allowed to ask for (the
        /// compose screen lends it the terminal and tries again).
        case passphrase
        /// The server refused the login: the password, or an OAuth2 token
        /// also after `token-command` ran again.
        case unauthorized
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, including the server's words when there are any.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Runs `body`, which only ever throws ``MailError`` but through an
/// untyped `rethrows` API (`withUnsafeBytes`), and throws it typed again.
func throwingMailError<Result>(_ body: () throws -> Result) throws(MailError) -> Result {
    do {
        return try body()
    } catch let error as MailError {
        throw error
    } catch {
        throw MailError(.io, ErrorText.sentence(error))
    }
}
