import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Opens a link in the person's browser, as `xdg-open` and Python's
/// `webbrowser` find it: each command of `$BROWSER` (a colon-separated
/// list) in turn, then `xdg-open` when a display is present and share is
/// not reached over SSH. A command's `%s` is replaced by the link (`%%` is
/// a `%`); a command without one gets the link as its last argument. The
/// commands run with an argument vector, never a shell, on the terminal
/// (a browser in the terminal, such as w3m, works), and the first that
/// exits 0 has opened the link. A command that ends in a lone `&` (a
/// graphical browser that would run until its window closes) is started
/// away from the terminal and not waited for: still running (or ended
/// with 0) after ``startWatch`` milliseconds is opening.
public enum Browser {
    /// The argument vectors to try for `url`, program first, in order.
    /// A trailing `&` stays the last word.
    public static func commands(for url: String, environment: [String: String]) -> [[String]] {
        var commands: [[String]] = []
        for entry in (environment["BROWSER"] ?? "").split(separator: ":") {
            var words = split(String(entry))
            let detached = words.count > 1 && words.last == "&"
            if detached { words.removeLast() }
            guard let program = words.first else { continue }
            var placed = false
            words = [program] + words.dropFirst().map { substitute(url, into: $0, placed: &placed) }
            if !placed { words.append(url) }
            commands.append(detached ? words + ["&"] : words)
        }
        let display = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let overSSH = !(environment["SSH_CONNECTION"] ?? "").isEmpty || !(environment["SSH_TTY"] ?? "").isEmpty
        if commands.isEmpty && display && !overSSH { commands.append(["xdg-open", url]) }
        return commands
    }

    /// Why a link was not opened here.
    public enum Miss: Sendable, Equatable {
        /// Nothing to open it with: no `$BROWSER`, and no display (or over SSH).
        case noBrowser
        /// Every command failed; the last one's words.
        case failed(String)
    }

    /// Opens `url` with the first command that works, running each on the
    /// terminal `terminal`; `nil` when one opened it, else why not.
    public static func open(_ url: String, environment: [String: String], terminal: Int32) -> Miss? {
        let commands = commands(for: url, environment: environment)
        guard !commands.isEmpty else { return .noBrowser }
        var last = ""
        for var command in commands {
            let detached = command.last == "&"
            if detached { command.removeLast() }
            guard !command[0].isEmpty else {
                last = "an entry of $BROWSER names no program"
                continue
            }
            guard let program = command[0].contains("/") ? command[0] : ProgramSearch.executable(command[0], environment: environment) else {
                last = "\(command[0]) is not on PATH"
                continue
            }
            do {
                if detached {
                    let pid = try Subprocess.launchDetached(program, arguments: Array(command.dropFirst()))
                    guard let status = endedEarly(pid), status != 0 else { return nil }
                    last = "\(PathText.lastComponent(of: program)) failed (exit \(status))"
                    continue
                }
                let status = try Subprocess.runOnTerminal(program, arguments: Array(command.dropFirst()), terminal: terminal)
                if status == 0 { return nil }
                last = "\(PathText.lastComponent(of: program)) failed (exit \(status))"
            } catch {
                last = error.description
            }
        }
        return .failed(last)
    }

    /// How long a detached browser is watched for a failure at its start
    /// (no display, a bad option), in milliseconds.
    static let startWatch = 300

    /// The exit status of a detached browser that ended within
    /// ``startWatch``, or `nil` while it still runs (it has opened the link).
    private static func endedEarly(_ pid: pid_t) -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(startWatch)
        while ContinuousClock.now < deadline {
            if let status = Subprocess.exitStatus(ifEnded: pid) { return status }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        return nil
    }

    /// A command's words: split at blanks, with '…' and "…" keeping blanks
    /// inside a word (no other shell syntax: nothing is expanded).
    static func split(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// `word` with each `%s` replaced by `url` (noted in `placed`) and each `%%` by `%`.
    static func substitute(_ url: String, into word: String, placed: inout Bool) -> String {
        var result = ""
        var index = word.startIndex
        while index < word.endIndex {
            let next = word.index(after: index)
            if word[index] == "%", next < word.endIndex, word[next] == "s" || word[next] == "%" {
                if word[next] == "s" { placed = true }
                result += word[next] == "s" ? url : "%"
                index = word.index(after: next)
            } else {
                result.append(word[index])
                index = next
            }
        }
        return result
    }
}
