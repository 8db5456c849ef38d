import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// The desktop around share, as the screens reach it: a browser for a
/// link, the clipboard, and the person's editor. One value per run, made
/// from the environment; each call that uses the terminal is given it.
public struct SystemIntegration: Sendable {
    /// The environment share runs in (`BROWSER`, `DISPLAY`, `VISUAL` …).
    public let environment: [String: String]

    /// The desktop of `environment`.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    // MARK: - Links

    /// Whether there is a browser to try for `link` (`$BROWSER`, or `xdg-open` with a display).
    public func hasBrowser(for link: String) -> Bool {
        !Browser.commands(for: link, environment: environment).isEmpty
    }

    /// Opens `link` in a browser on `terminal`: `nil` once one opened it, else why none did.
    public func open(_ link: String, terminal: Int32) -> Browser.Miss? {
        Browser.open(link, environment: environment, terminal: terminal)
    }

    // MARK: - The clipboard

    /// Puts `text` on the clipboard; whether it went through the terminal
    /// (OSC 52), which the terminal may ignore without a word.
    @MainActor @discardableResult
    public func copy(_ text: String) throws -> Bool {
        try CopyActivity.copy(text, environment: environment)
    }

    // MARK: - The editor

    /// `text` edited in `$VISUAL` / `$EDITOR` (else `vi`) on the terminal,
    /// through a private temporary file; `nil` when the editor failed (the
    /// old text stays).
    public func edit(_ text: String) -> String? {
        let command = (environment["VISUAL"] ?? environment["EDITOR"]).flatMap { $0.isEmpty ? nil : $0 } ?? "vi"
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/share-edit-XXXXXX.txt".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemps($0, 4) } ?? -1 }
        guard descriptor >= 0 else { return nil }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let written = (try? LocalFiles.writeAll(text, to: descriptor)) != nil
        close(descriptor)
        guard written else { return nil }
        let tty = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        // The editor command may carry arguments (`code --wait`): the shell
        // splits it, and the file name goes in as "$1", never into the text.
        guard let status = try? Subprocess.runOnTerminal("/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", path], terminal: tty),
              status == 0, case .success(let bytes) = LocalFiles.contents(ofFile: path, limit: 1 << 26) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
