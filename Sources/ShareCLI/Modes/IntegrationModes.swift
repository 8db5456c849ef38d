import ShareCore
import ShareSupport
import ShareTerminal

/// `--integration NAME`: what shares from the places people already work.
extension ShareCommand {
    /// The desktop entry that opens `mailto:` links in share's compose screen.
    static let mailDesktopFile = "share-mail.desktop"

    /// Prints `name`'s integration (the text of its `contrib/` file); for
    /// `mailto`, makes share's desktop entry the `mailto:` handler instead.
    static func integration(_ name: String, console: Console) -> Int32 {
        guard name == "mailto" else {
            console.output(Integrations.text(name) ?? "")
            return ExitCode.completed
        }
        return becomeMailHandler(console: console)
    }

    /// Finds `share-mail.desktop` where desktops look for applications
    /// (`$XDG_DATA_HOME/applications`, then each of `$XDG_DATA_DIRS`), or
    /// writes it into `$XDG_DATA_HOME/applications`, then runs
    /// `xdg-mime default share-mail.desktop x-scheme-handler/mailto`.
    static func becomeMailHandler(console: Console) -> Int32 {
        let environment = console.environment
        guard let xdgMime = ProgramSearch.executable("xdg-mime", environment: environment) else {
            console.error("share: " + Localization.text("--integration mailto needs xdg-mime, which is not installed (apt-get install xdg-utils)") + "\n")
            return ExitCode.failed
        }
        let locations = Locations(environment: environment)
        // Locations.dataHome is share's own folder inside $XDG_DATA_HOME.
        let userApplications = PathText.parent(of: locations.dataHome) + "/applications"
        let folders = [userApplications] + locations.dataDirectories.map { $0 + "/applications" }
        var entry = folders.map { $0 + "/" + mailDesktopFile }.first { if case .regular = FileStatus.of($0) { true } else { false } }
        if entry == nil {
            let path = userApplications + "/" + mailDesktopFile
            do throws(FileReplaceError) {
                if let failure = LocalFiles.createFolders(userApplications, mode: 0o755) {
                    throw FileReplaceError("cannot make \(userApplications): \(failure.reason)")
                }
                try LocalFiles.replace(path, with: Array(Integrations.mailDesktopEntry.utf8), mode: 0o644)
            } catch {
                console.error("share: " + TerminalText.sanitized(error.description) + "\n")
                return ExitCode.failed
            }
            entry = path
        }
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(xdgMime, arguments: ["default", mailDesktopFile, "x-scheme-handler/mailto"], environment: environment,
                                         keepOutput: false, supervision: Subprocess.Supervision(timeout: 30))
        } catch {
            console.error("share: " + TerminalText.sanitized(error.description) + "\n")
            return ExitCode.failed
        }
        guard outcome.status == 0, !outcome.timedOut else {
            let said = String(decoding: outcome.errors, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            console.error("share: " + Localization.text("xdg-mime could not make %@ the mailto: handler (exit %@): %@", mailDesktopFile,
                                                        String(outcome.status), TerminalText.sanitized(said)) + "\n")
            return ExitCode.failed
        }
        console.output(Localization.text("mailto: links now open share's compose screen (%@)", TerminalText.sanitized(entry ?? "")) + "\n")
        return ExitCode.completed
    }
}
