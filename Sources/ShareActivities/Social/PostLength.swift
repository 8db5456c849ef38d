/// How each service counts a post against its limit, as its own composer
/// counts it (the number the person sees there is the number shown here).
public enum PostLength {
    /// What a link counts as on X and Mastodon, however long it is.
    public static let linkLength = 23

    /// X's weighted length (its open counting rules): a link counts 23; an
    /// emoji, however many code points make it, counts 2; every other code
    /// point counts 1 in Latin, Greek, Cyrillic, Hebrew, Arabic, Indic and
    /// the like (U+0000–U+10FF) and in common punctuation (U+2000–U+200D,
    /// U+2010–U+201F, U+2032–U+2037), and 2 elsewhere (Korean, Chinese,
    /// Japanese). X takes 280.
    public static func x(_ text: String) -> Int {
        var length = 0
        forEachToken(text) { token, isLink in
            if isLink {
                length += linkLength
                return
            }
            for character in token {
                if isEmoji(character) {
                    length += 2
                    continue
                }
                for scalar in character.unicodeScalars { length += singleWidth(scalar) ? 1 : 2 }
            }
        }
        return length
    }

    /// Mastodon's length: code points, a link as 23, and a mention of
    /// another server's account (`@kim@example.social`) as its name alone
    /// (`@kim`). Mastodon takes 500 unless the server says otherwise.
    public static func mastodon(_ text: String) -> Int {
        var length = 0
        forEachToken(text) { token, isLink in
            if isLink {
                length += linkLength
            } else if token.hasPrefix("@"), let second = token.dropFirst().firstIndex(of: "@"), second > token.index(after: token.startIndex) {
                length += token[..<second].unicodeScalars.count
            } else {
                length += token.unicodeScalars.count
            }
        }
        return length
    }

    /// Bluesky's length: user-perceived characters (grapheme clusters),
    /// links in full. Bluesky takes 300.
    public static func graphemes(_ text: String) -> Int { text.count }

    /// Calls `body` with each run of `text` in order: whitespace runs and
    /// words, a word that starts `http://` or `https://` marked as a link.
    static func forEachToken(_ text: String, _ body: (Substring, Bool) -> Void) {
        var start = text.startIndex
        var inSpace: Bool?
        var index = text.startIndex
        func flush(upTo end: String.Index) {
            guard start < end else { return }
            let token = text[start..<end]
            let lowered = token.prefix(8).lowercased()
            let isLink = inSpace == false && (lowered.hasPrefix("http://") || lowered.hasPrefix("https://"))
                && token.count > (lowered.hasPrefix("https://") ? 8 : 7)
            body(token, isLink)
        }
        while index < text.endIndex {
            let space = text[index].isWhitespace
            if space != inSpace {
                flush(upTo: index)
                start = index
                inSpace = space
            }
            index = text.index(after: index)
        }
        flush(upTo: text.endIndex)
    }

    /// Whether `character` is drawn as an emoji (an emoji by default, or
    /// made one by U+FE0F, a skin tone or a joiner sequence).
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if first.properties.isEmojiPresentation { return true }
        return first.properties.isEmoji && scalars.count > 1
            && scalars.contains { $0.value == 0xFE0F || $0.value == 0x200D || $0.properties.isEmojiModifier || $0.value == 0x20E3 }
    }

    /// The code points X counts as 1.
    private static func singleWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0000...0x10FF, 0x2000...0x200D, 0x2010...0x201F, 0x2032...0x2037: true
        default: false
        }
    }
}
