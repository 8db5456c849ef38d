import FoundationEssentials
import ShareCore
import ShareSupport

/// A `.vcf` file read as bytes, so that a change to one property of one
/// card leaves every other byte as it was: the order, case, folding,
/// groups and unknown `X-` properties of every line, and every other card.
///
/// Lines end in CRLF or LF (whichever the file has); a line that starts
/// with a space or a tab continues the one before (RFC 6350 §3.2).
struct VCardFile {
    /// One content line, with its continuations.
    struct Property {
        /// Its bytes in the file, continuations and line end included.
        var range: Range<Int>
        /// The group before the name (`item1` of `item1.EMAIL`), if any.
        var group: String?
        /// The name, upper-cased (`PHOTO`).
        var name: String
        /// The parameters as written (`TYPE=PNG`), without the leading `;`.
        var parameters: [String]
        /// The value, unfolded, not unescaped.
        var value: String
    }

    /// One `BEGIN:VCARD` … `END:VCARD`.
    struct Card {
        /// Its bytes in the file, from `BEGIN` to the end of `END`'s line.
        var range: Range<Int>
        /// Its content lines, `BEGIN` and `END` included.
        var properties: [Property]

        /// The first value of `name`, unescaped.
        func value(_ name: String) -> String? {
            properties.first { $0.name == name }.map { VCardFile.unescape($0.value) }
        }

        /// Every value of `name`, unescaped.
        func values(_ name: String) -> [String] {
            properties.filter { $0.name == name }.map { VCardFile.unescape($0.value) }
        }

        /// `VERSION`, `3.0` when absent.
        var version: String { value("VERSION")?.trimmingWhitespace() ?? "3.0" }
    }

    /// The file's bytes as read.
    let bytes: [UInt8]
    /// Its cards, in order.
    let cards: [Card]

    /// Reads the cards in `bytes`; lines outside a card are kept but ignored.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var cards: [Card] = []
        var current: [Property]?
        var start = 0
        for property in VCardFile.properties(in: bytes) {
            if property.name == "BEGIN", property.value.uppercased() == "VCARD" {
                current = [property]
                start = property.range.lowerBound
            } else if current != nil {
                current!.append(property)
                if property.name == "END", property.value.uppercased() == "VCARD" {
                    cards.append(Card(range: start..<property.range.upperBound, properties: current!))
                    current = nil
                }
            }
        }
        self.cards = cards
    }

    /// The content lines of `bytes`.
    private static func properties(in bytes: [UInt8]) -> [Property] {
        // Physical lines: each ends after its LF (or at the end of the file).
        var lines: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append(start..<(index + 1))
            start = index + 1
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        // Logical lines: a line starting with a space or a tab continues the one before.
        var logical: [(range: Range<Int>, parts: [Range<Int>])] = []
        for line in lines {
            let first = bytes[line.lowerBound]
            if (first == 0x20 || first == 0x09), !logical.isEmpty {
                logical[logical.count - 1].range = logical[logical.count - 1].range.lowerBound..<line.upperBound
                logical[logical.count - 1].parts.append((line.lowerBound + 1)..<line.upperBound)
            } else {
                logical.append((line, [line]))
            }
        }
        return logical.compactMap { entry in
            var text: [UInt8] = []
            for part in entry.parts {
                var end = part.upperBound
                if end > part.lowerBound, bytes[end - 1] == 0x0A { end -= 1 }
                if end > part.lowerBound, bytes[end - 1] == 0x0D { end -= 1 }
                text += bytes[part.lowerBound..<end]
            }
            return parse(text, range: entry.range)
        }
    }

    /// `[group.]NAME[;param…]:value`; a colon inside a quoted parameter value is not the separator.
    private static func parse(_ text: [UInt8], range: Range<Int>) -> Property? {
        var quoted = false
        var colon: Int?
        for (index, byte) in text.enumerated() {
            if byte == 0x22 { quoted.toggle() } else if byte == 0x3A, !quoted { colon = index; break }
        }
        guard let colon else { return nil }
        let head = String(decoding: text[..<colon], as: UTF8.self)
        let value = String(decoding: text[(colon + 1)...], as: UTF8.self)
        var pieces = head.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var name = pieces.removeFirst()
        var group: String?
        if let dot = name.lastIndex(of: ".") {
            group = String(name[..<dot])
            name = String(name[name.index(after: dot)...])
        }
        return Property(range: range, group: group, name: name.uppercased(), parameters: pieces, value: value)
    }

    /// A text value without its escapes (`\,` `\;` `\\` `\n`).
    static func unescape(_ value: String) -> String {
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: - Changing a photo

    /// The file with card `index`'s photo set to `image`: its first `PHOTO`
    /// line replaced (keeping its group), any further ones removed, or a new
    /// one put before `END:VCARD`; every other byte as it was.
    ///
    /// The photo is written as the card's version writes it, folded at 75
    /// octets with CRLF: 3.0 `PHOTO;ENCODING=b;TYPE=PNG:…`, 4.0
    /// `PHOTO:data:image/png;base64,…`.
    func settingPhoto(ofCard index: Int, to image: [UInt8], type: VCardImageType) throws(VCardError) -> [UInt8] {
        let card = cards[index]
        let photos = card.properties.filter { $0.name == "PHOTO" }
        let line = try VCardFile.photoLine(image, type: type, version: card.version, group: photos.first?.group)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + line.count)
        output += bytes[..<card.range.lowerBound]
        var cursor = card.range.lowerBound
        var written = false
        for property in card.properties {
            let isPhoto = property.name == "PHOTO"
            let isEnd = property.name == "END" && property.range.upperBound == card.range.upperBound
            guard isPhoto || (isEnd && !written) else { continue }
            output += bytes[cursor..<property.range.lowerBound]
            if !written {
                output += line
                written = true
            }
            cursor = isPhoto ? property.range.upperBound : property.range.lowerBound
        }
        output += bytes[cursor...]
        return output
    }

    /// One folded `PHOTO` content line, CRLF at the end.
    static func photoLine(_ image: [UInt8], type: VCardImageType, version: String, group: String?) throws(VCardError) -> [UInt8] {
        let encoded = Data(image).base64EncodedString()
        let prefix = group.map { $0 + "." } ?? ""
        let text: String
        switch version {
        case "3.0": text = prefix + "PHOTO;ENCODING=b;TYPE=\(type.vcard3Name):" + encoded
        case "4.0": text = prefix + "PHOTO:data:\(type.mimeType);base64," + encoded
        default: throw VCardError("the card is vCard \(version); only vCard 3.0 and 4.0 cards can take a photo")
        }
        return fold(Array(text.utf8))
    }

    /// Lines of at most 75 octets (the first) and a space plus 74 (the
    /// rest), each ending in CRLF; never splits a UTF-8 sequence.
    static func fold(_ text: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        var first = true
        while index < text.count {
            let room = first ? 75 : 74
            var end = min(index + room, text.count)
            // Back off to the start of a UTF-8 sequence (never a continuation byte 10xxxxxx).
            while end < text.count, end > index + 1, text[end] & 0xC0 == 0x80 { end -= 1 }
            if !first { output.append(0x20) }
            output += text[index..<end]
            output += [0x0D, 0x0A]
            index = end
            first = false
        }
        return output
    }
}

/// The image formats a card's photo is written in.
enum VCardImageType: Sendable {
    case png
    case jpeg

    /// The MIME type (`image/png`), as 4.0's data URI names it.
    var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    /// The name 3.0's `TYPE` parameter uses (`PNG`).
    var vcard3Name: String { self == .png ? "PNG" : "JPEG" }
}

/// Why a card cannot take a photo.
struct VCardError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
