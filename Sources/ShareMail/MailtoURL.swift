import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// The fields of a `mailto:` URL (RFC 6068) that prefill Mail.
///
/// Only `to`, `cc`, `bcc`, `subject` and `body` are read; every other
/// header (and in particular any attachment header) is ignored, so a link
/// can never attach a file.
public struct MailtoURL: Sendable, Equatable {
    /// Recipients from the path and `to=` fields, in order.
    public var to: [String] = []
    /// `cc=` recipients.
    public var cc: [String] = []
    /// `bcc=` recipients.
    public var bcc: [String] = []
    /// The `subject=` field, if present.
    public var subject: String?
    /// The `body=` field, if present (line breaks as `%0D%0A`).
    public var body: String?

    /// Parses a `mailto:` URL.
    /// - Throws: ``MailtoError`` for a URL of another scheme or bad percent-encoding.
    public init(parsing text: String) throws(MailtoError) {
        guard text.count >= 7, text.prefix(7).lowercased() == "mailto:" else { throw .notMailto(text) }
        // Split on bytes, not characters: a delimiter followed by a
        // combining mark is one character with it.
        let rest = Array(text.utf8.dropFirst(7))
        func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        let question = rest.firstIndex(of: UInt8(ascii: "?"))
        to = try MailtoURL.addresses(string(rest[..<(question ?? rest.endIndex)]), in: text)
        let query = question.map { rest[($0 + 1)...] } ?? []
        for field in query.split(separator: UInt8(ascii: "&")) {
            let parts = field.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try MailtoURL.decode(string(parts[0]), in: text).lowercased()
            let value = try MailtoURL.decode(parts.count > 1 ? string(parts[1]) : "", in: text)
            switch name {
            case "to": to += MailtoURL.split(value)
            case "cc": cc += MailtoURL.split(value)
            case "bcc": bcc += MailtoURL.split(value)
            case "subject": subject = value
            case "body": body = value
            default: continue
            }
        }
    }

    private static func addresses(_ encoded: String, in text: String) throws(MailtoError) -> [String] {
        split(try decode(encoded, in: text))
    }

    /// The addresses of a comma list. Split on the comma's byte, not on
    /// characters: a comma followed by a combining mark is one character,
    /// and would otherwise join two addresses.
    private static func split(_ list: String) -> [String] {
        list.utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() }
            .filter { !$0.isEmpty }
    }

    /// Percent-decodes as UTF-8; `+` stays a plus sign (RFC 6068 §5).
    private static func decode(_ encoded: String, in text: String) throws(MailtoError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(encoded.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(UInt8.hexDigitValue), let low = iterator.next().flatMap(UInt8.hexDigitValue) else {
                throw .badEncoding(text)
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .badEncoding(text) }
        return decoded
    }

}

/// Why a `mailto:` URL could not be read.
public enum MailtoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL's scheme is not `mailto`.
    case notMailto(String)
    /// A `%` escape is malformed or the bytes are not UTF-8.
    case badEncoding(String)

    public var description: String {
        switch self {
        case .notMailto(let text): "not a mailto: URL: \(text)"
        case .badEncoding(let text): "bad percent-encoding in \(text) (each % needs two hex digits of UTF-8)"
        }
    }
}
