import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import CGettext
import Synchronization

/// The words people read, in their language: GNU gettext's catalogs of the
/// domain `share` (`po/LANG.po`, compiled by `msgfmt`), chosen by
/// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` as in every GNU program.
/// A language without a catalog, or a locale the system does not have,
/// reads English.
///
/// Only what people read goes through here: screens, warnings and messages
/// of the command line. Machine-readable output (`--list`, `--json`, exit
/// codes, the history file) never does, so it stays the same in every
/// language.
///
/// Until a program calls ``followEnvironment()`` (the `share` command does
/// at start) everything reads English. The language applies to these
/// catalogs only: the process's own locale is never changed, so the C
/// library's words (`strerror`) and everything built from them stay as
/// they were.
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

    /// The environment's LC_MESSAGES, once followed: used for the catalog
    /// lookups only, through `uselocale` around each one.
    private struct Messages: @unchecked Sendable {
        let locale: locale_t
        /// The first language gettext tries: LANGUAGE's first, else the locale's (`ko` of ko_KR.UTF-8).
        let language: String
        /// Texts looked up so far, each as read (a screen asks for the same
        /// words every frame, and a catalog lookup reads the environment).
        var translations: [String: String] = [:]
    }

    private static let messages = Mutex<Messages?>(nil)

    /// Reads the language from the environment, from now on. Without a
    /// catalog folder, or when the system lacks the locale, it stays English.
    public static func followEnvironment() {
        // The locale's name as setlocale would read it: LC_ALL, else LC_MESSAGES, else LANG.
        let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { (variable: String) in getenv(variable).map { String(cString: $0) } }
            .first { !$0.isEmpty }
        // C and POSIX are English, and so is C.UTF-8 unless LANGUAGE asks for another: no
        // catalog is looked for then (each lookup would open files before the first frame).
        let asked = getenv("LANGUAGE").map { String(cString: $0) }.map { !$0.isEmpty } ?? false
        guard directory != nil, let name, name != "C", name != "POSIX", !(name.hasPrefix("C.") && !asked),
              let locale = newlocale(LC_MESSAGES_MASK, "", nil) else { return }
        let preferred = getenv("LANGUAGE").map { String(cString: $0) }?.split(separator: ":").first.map(String.init)
        let language = String((preferred ?? name).prefix { $0 != "_" && $0 != "." && $0 != "@" })
        _ = bound
        messages.withLock { current in
            if let old = current { freelocale(old.locale) }
            current = Messages(locale: locale, language: language)
        }
    }

    /// The language the catalogs are read in (`ko`), or `nil` for English
    /// before ``followEnvironment()`` or in the C locale. Plugins pick their
    /// `Name[xx]` by it.
    public static var language: String? { messages.withLock { $0?.language } }

    private static let bound: Bool = {
        guard let directory else { return false }
        bindtextdomain(domain, directory)
        bind_textdomain_codeset(domain, "UTF-8")
        return true
    }()

    /// Runs a catalog lookup in the followed language; `nil` when there is none.
    private static func lookUp(_ body: () -> String?) -> String? {
        messages.withLock { current in
            guard let current else { return nil }
            let previous = uselocale(current.locale)
            defer { uselocale(previous) }
            return body()
        }
    }

    /// `english` in the reader's language, or as it is.
    public static func text(_ english: String) -> String {
        // The empty string's translation is the catalog's header.
        guard !english.isEmpty else { return english }
        // dgettext hands back its argument when there is no translation:
        // that pointer lives only inside withCString.
        return messages.withLock { current in
            guard let locale = current?.locale else { return english }
            if let known = current?.translations[english] { return known }
            let previous = uselocale(locale)
            defer { uselocale(previous) }
            let translated = english.withCString { key in
                guard let translated = dgettext(domain, key), translated != UnsafeMutablePointer(mutating: key) else { return english }
                return String(cString: translated)
            }
            current?.translations[english] = translated
            return translated
        }
    }

    /// `english` marked as a message of the catalogs and handed back as it
    /// is, for a text that is kept in English (it may end up in `--json`)
    /// and put in the reader's language later, with ``text(_:)`` where it
    /// is shown (gettext's `N_`). The catalog test finds these as it finds
    /// the literals of ``text(_:)``.
    public static func marked(_ english: String) -> String { english }

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
        let chosen = lookUp {
            one.withCString { singular in
                other.withCString { plural in
                    guard let translated = dngettext(domain, singular, plural, UInt(max(0, count))),
                          translated != UnsafeMutablePointer(mutating: singular),
                          translated != UnsafeMutablePointer(mutating: plural) else { return nil }
                    return String(cString: translated)
                }
            }
        }
        return fill(chosen ?? english, arguments)
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
