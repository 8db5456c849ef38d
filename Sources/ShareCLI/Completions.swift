import ShareActivities
import ShareCore

/// Shell completion scripts, made from ``OptionTable``: option names (with
/// their help in zsh and fish), activity types from `share --list-types`,
/// files for items and paths, and values from the user's own data through
/// `share --complete`: addresses, printers, contacts.
enum Completions {
    /// The shells `--completions` writes for.
    static let shells = ["bash", "zsh", "fish"]
    /// What `--complete` lists: addresses from the address book, then what
    /// the activities declare (``SystemActivities/completions``).
    static let kinds = ["addresses"] + SystemActivities.completions.map(\.completion.kind)

    /// The script for `shell`.
    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    /// The options whose values come from `values`, as a shell `case` pattern (`--to|--cc`).
    private static func pattern(_ wanted: (OptionSpec.Values) -> Bool) -> String? {
        let names = OptionTable.all.filter { $0.takesValue && wanted($0.values) }.map(\.name)
        return names.isEmpty ? nil : names.joined(separator: "|")
    }

    /// The command that lists the values of a kind, for the shells;
    /// `current` is the shell's word for what is typed, quoted as it needs.
    private static func command(_ values: OptionSpec.Values, current: String) -> String? {
        switch values {
        case .activityTypes: "share --list-types 2>/dev/null"
        case .completed(let kind): "share --complete \(kind) \(current) 2>/dev/null"
        case .none, .files, .words: nil
        }
    }

    private static let dynamicKinds: [OptionSpec.Values] = [.activityTypes] + kinds.map(OptionSpec.Values.completed)

    // MARK: - bash

    static var bash: String {
        var cases: [String] = []
        for kind in dynamicKinds {
            guard let names = pattern({ $0 == kind }), let command = command(kind, current: "\"$cur\"") else { continue }
            cases.append("""
                    \(names))
                        compopt -o filenames 2>/dev/null
                        local IFS=$'\\n'
                        COMPREPLY=($(compgen -W "$(\(command))" -- "$cur"))
                        return ;;
            """)
        }
        for spec in OptionTable.all {
            guard case .words(let words) = spec.values else { continue }
            cases.append("""
                    \(spec.name))
                        COMPREPLY=($(compgen -W "\(words.joined(separator: " "))" -- "$cur"))
                        return ;;
            """)
        }
        if let files = pattern({ $0 == .files }) {
            cases.append("""
                    \(files))
                        return ;;
            """)
        }
        if let free = pattern({ $0 == .none }) {
            cases.append("""
                    \(free))
                        return ;;
            """)
        }
        let names = OptionTable.all.map(\.name).joined(separator: " ")
        return """
        # bash completion for share (made by `share --completions bash`)
        _share() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=
            [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
            COMPREPLY=()
            case $prev in
        \(cases.joined(separator: "\n"))
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "\(names)" -- "$cur"))
            fi
            # Otherwise nothing here: -o default completes file names (items, paths).
        }
        complete -o default -F _share share

        """
    }

    // MARK: - zsh

    static var zsh: String {
        var cases: [String] = []
        for kind in dynamicKinds {
            guard let names = pattern({ $0 == kind }), let command = command(kind, current: "\"$cur\"") else { continue }
            cases.append("    \(names)) compadd -- ${(f)\"$(\(command))\"}; return ;;")
        }
        for spec in OptionTable.all {
            guard case .words(let words) = spec.values else { continue }
            cases.append("    \(spec.name)) compadd -- \(words.joined(separator: " ")); return ;;")
        }
        if let files = pattern({ $0 == .files }) { cases.append("    \(files)) _files; return ;;") }
        if let free = pattern({ $0 == .none }) { cases.append("    \(free)) return ;;") }
        let names = OptionTable.all.map { zshQuote($0.name) }.joined(separator: " ")
        let descriptions = OptionTable.all.map { zshQuote($0.synopsis + " — " + $0.help) }.joined(separator: "\n    ")
        return """
        #compdef share
        # zsh completion for share (made by `share --completions zsh`)
        _share() {
          local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
          case $prev in
        \(cases.joined(separator: "\n"))
          esac
          if [[ $cur == -* ]]; then
            local -a names descriptions
            names=(\(names))
            descriptions=(
            \(descriptions)
            )
            compadd -l -d descriptions -- $names
          else
            _files
          fi
        }
        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
          _share "$@"
        elif (( $+functions[compdef] )); then
          compdef _share share
        fi

        """
    }

    private static func zshQuote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    // MARK: - fish

    static var fish: String {
        var lines = ["# fish completion for share (made by `share --completions fish`)"]
        for spec in OptionTable.all {
            var line = "complete -c share -l " + spec.name.dropFirst(2)
            if let short = spec.short { line += " -s \(short)" }
            if spec.takesValue {
                switch spec.values {
                case .files: line += " -r -F"
                case .none: line += " -r -f"
                case .words(let words): line += " -x -a " + fishQuote(words.joined(separator: " "))
                default:
                    if let command = command(spec.values, current: "(commandline -ct)") {
                        line += " -x -a " + fishQuote("(" + command + ")")
                    }
                }
            }
            line += " -d " + fishQuote(spec.help)
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fishQuote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
