import CCurl
import ShareSupport

/// How share logs in to a mail server (SMTP or IMAP): a user, and either a
/// password from `password-command` or an OAuth2 access token from
/// `token-command` (SASL XOAUTH2 or OAUTHBEARER).
///
/// The secret is asked for each connection, handed to libcurl by setopt
/// (`CURLOPT_PASSWORD`, `CURLOPT_XOAUTH2_BEARER`), and never appears in a
/// command line, a log or a message.
public struct MailLogin: Sendable, Equatable {
    /// How the secret is got and spoken.
    public enum Method: Sendable, Equatable {
        /// A password from the command, or no login when there is none.
        case password(command: String?)
        /// An OAuth2 access token from the command, spoken in `mechanism`.
        case oauth2(mechanism: OAuth2Mechanism, tokenCommand: String)
    }

    /// The SASL mechanism an OAuth2 token is sent in (`[mail] auth`).
    public enum OAuth2Mechanism: String, Sendable, Equatable, CaseIterable {
        /// Whichever the server offers: OAUTHBEARER (RFC 7628) first, as libcurl prefers it.
        case any = "oauth2"
        /// Google's and Microsoft's XOAUTH2.
        case xoauth2
        /// RFC 7628's OAUTHBEARER.
        case oauthbearer

        /// libcurl's `CURLOPT_LOGIN_OPTIONS` for it, if it names one.
        var loginOptions: String? {
            switch self {
            case .any: nil
            case .xoauth2: "AUTH=XOAUTH2"
            case .oauthbearer: "AUTH=OAUTHBEARER"
            }
        }
    }

    /// The user name (the URL's, else the sending address for OAuth2).
    public var username: String?
    /// Where the secret comes from.
    public var method: Method
    /// The config section the keys are in (`mail`, `mail.work`), for messages.
    public var section: String
    /// How long the command may run, in seconds.
    public var commandTimeout: Double

    /// A login.
    public init(username: String?, method: Method, section: String = "mail", commandTimeout: Double = 30) {
        self.username = username
        self.method = method
        self.section = section
        self.commandTimeout = commandTimeout
    }

    /// Whether the secret is an OAuth2 token.
    public var isOAuth2: Bool {
        if case .oauth2 = method { return true }
        return false
    }

    /// The key a person checks when the server refuses the login.
    public var secretKey: String { isOAuth2 ? "token-command" : "password-command" }

    /// Runs the command and returns the secret, or `nil` when no login is configured.
    public func secret() throws(MailError) -> String? {
        let command: String
        switch method {
        case .password(let configured?): command = configured
        case .password(nil): return nil
        case .oauth2(_, let tokenCommand): command = tokenCommand
        }
        do throws(PasswordCommand.Failure) {
            return try PasswordCommand.run(command, timeout: commandTimeout, section: section, key: secretKey)
        } catch {
            throw MailError(.configuration, error.message + " ([\(section)] \(secretKey))")
        }
    }

    /// Sets the user and `secret` on a libcurl handle.
    func apply(_ secret: String?, to handle: UnsafeMutableRawPointer) {
        if let username { share_curl_setopt_string(handle, CURLOPT_USERNAME, username) }
        guard let secret else { return }
        switch method {
        case .password:
            share_curl_setopt_string(handle, CURLOPT_PASSWORD, secret)
        case .oauth2(let mechanism, _):
            share_curl_setopt_string(handle, CURLOPT_XOAUTH2_BEARER, secret)
            if let options = mechanism.loginOptions { share_curl_setopt_string(handle, CURLOPT_LOGIN_OPTIONS, options) }
        }
    }

    /// Forgets the secret libcurl holds, as soon as the connection is done.
    static func forget(on handle: UnsafeMutableRawPointer) {
        share_curl_setopt_string(handle, CURLOPT_PASSWORD, "")
        share_curl_setopt_string(handle, CURLOPT_XOAUTH2_BEARER, "")
    }

    /// The error for a login the server refused: OAuth2's after the token
    /// was asked for again once, naming the key to check.
    func refused(_ serverURL: String, reply: String) -> MailError {
        let said = reply.isEmpty ? "" : " (\(reply))"
        if isOAuth2 {
            return MailError(.unauthorized, "\(serverURL) refused the OAuth2 token\(said), also after token-command ran again; "
                + "check token-command in [\(section)] (it must print a fresh access token for \(username ?? "the account"))")
        }
        return MailError(.unauthorized, "\(serverURL) refused the login\(said); check the user in the URL and password-command in [\(section)]")
    }
}
