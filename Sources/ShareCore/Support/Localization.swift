import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import CGettext

/// The words people read, in their language: GNU gettext's catalogs of the
/// domain `share` (`po/LANG.po`, compiled by `msgfmt`), chosen by
/// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` as in every GNU program.
/// A language without a catalog, or a locale the system does not have,
/// reads English.
///
/// Only what people read goes through here: screens, warnings and error
/// messages. Machine-readable output (`--list`, `--json`, exit codes, the
/// history file) never does, so it stays the same in every language.
///
/// The program chooses the language: it calls `setlocale(LC_MESSAGES, "")`
/// at start (the `share` command does); a library never changes the
/// process's locale.
public enum Localization {
    /// The gettext domain: catalogs are `DIRECTORY/LANG/LC_MESSAGES/share.mo`.
    public static let domain = "share"

    /// Where the catalogs are: `PREFIX/share/locale` beside an installed
    /// `PREFIX/bin/share` (`make install`), or `.build/locale` beside a
    /// build's binaries (`make locale`); `nil` when neither exists.
    public static let directory: String? = {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                readlink("/proc/self/exe", $0, pointer.count - 1)
            }
        }
        guard count > 0 else { return nil }
        let folder = PathText.parent(of: String(decoding: buffer[..<count], as: UTF8.self))
        return [folder + "/../share/locale", folder + "/../../locale"].first { access($0, R_OK | X_OK) == 0 }
    }()

    private static let bound: Bool = {
        guard let directory else { return false }
        bindtextdomain(domain, directory)
        bind_textdomain_codeset(domain, "UTF-8")
        return true
    }()

    /// `english` in the reader's language, or as it is.
    public static func text(_ english: String) -> String {
        guard bound else { return english }
        // dgettext hands back its argument when there is no translation:
        // that pointer lives only inside withCString.
        return english.withCString { key in
            guard let translated = dgettext(domain, key), translated != UnsafeMutablePointer(mutating: key) else { return english }
            return String(cString: translated)
        }
    }

    /// A message with words put in: `%@` takes the next argument, `%1$@`
    /// the first (for languages that put them in another order), `%%` is a
    /// percent sign.
    public static func text(_ english: String, _ arguments: String...) -> String {
        fill(text(english), arguments)
    }

    /// A message about a number of things: `one` or `other` in English,
    /// the language's own plural forms in its catalog (`ngettext`), with
    /// words put in as in ``text(_:_:)``.
    public static func plural(_ one: String, _ other: String, count: Int, _ arguments: String...) -> String {
        let english = count == 1 ? one : other
        guard bound else { return fill(english, arguments) }
        let chosen = one.withCString { singular in
            other.withCString { plural in
                guard let translated = dngettext(domain, singular, plural, UInt(max(0, count))),
                      translated != UnsafeMutablePointer(mutating: singular),
                      translated != UnsafeMutablePointer(mutating: plural) else { return english }
                return String(cString: translated)
            }
        }
        return fill(chosen, arguments)
    }

    /// `format` with its placeholders replaced (see ``text(_:_:)``); a
    /// placeholder with no argument becomes nothing.
    public static func fill(_ format: String, _ arguments: [String]) -> String {
        var result = ""
        var rest = Substring(format)
        var next = 0
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("@") {
                result += next < arguments.count ? arguments[next] : ""
                next += 1
                rest = after.dropFirst()
            } else if after.hasPrefix("%") {
                result += "%"
                rest = after.dropFirst()
            } else if let digits = Optional(after.prefix { $0.isASCII && $0.isNumber }), !digits.isEmpty,
                      after.dropFirst(digits.count).hasPrefix("$@"), let position = Int(digits), position >= 1 {
                result += position <= arguments.count ? arguments[position - 1] : ""
                rest = after.dropFirst(digits.count + 2)
            } else {
                result += "%"
                rest = after
            }
        }
        return result + rest
    }
}
