import ShareSupport

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

    /// Mastodon's length: user-perceived characters (grapheme clusters),
    /// a link as 23, and a mention of another server's account
    /// (`@kim@example.social`) as its name alone (`@kim`). Mastodon takes
    /// 500 unless the server says otherwise.
    public static func mastodon(_ text: String) -> Int {
        var length = 0
        forEachToken(text) { token, isLink in
            if isLink {
                length += linkLength
            } else if token.hasPrefix("@"), let second = token.dropFirst().firstIndex(of: "@"), second > token.index(after: token.startIndex) {
                length += token[..<second].count
            } else {
                length += token.count
            }
        }
        return length
    }

    /// Bluesky's length: user-perceived characters (grapheme clusters),
    /// each link as the composer shortens it (``shortened(_:)``). Bluesky
    /// takes 300.
    public static func bluesky(_ text: String) -> Int {
        var length = 0
        forEachToken(text) { token, isLink in length += isLink ? shortened(token).count : token.count }
        return length
    }

    /// A link as Bluesky's composer writes it in the post: host and path
    /// without the scheme (a path of `/` left out), a path with its query
    /// and fragment of more than 15 characters cut to 13 and `...`; the
    /// path as the browser's URL parser writes it, each byte of a
    /// character outside ASCII as `%XX`. (An internationalised host is
    /// counted as typed; the composer counts its `xn--` form.)
    static func shortened(_ link: Substring) -> String {
        let rest = link.drop { $0 != ":" }.dropFirst(3)  // a link here always starts http:// or https://
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let host = rest[..<hostEnd].lowercased()
        let after = rest[hostEnd...]
        let pathEnd = after.firstIndex { $0 == "?" || $0 == "#" } ?? after.endIndex
        let written = (after[..<pathEnd] == "/" ? "" : after[..<pathEnd]) + after[pathEnd...]
        // Each byte of a character outside ASCII as %XX.
        let path = PercentEncoding.encoded(written, keeping: { $0 < 0x80 })
        return path.count > 15 ? host + path.prefix(13) + "..." : host + path
    }

    /// Calls `body` with each piece of `text` in order, marking links: a
    /// link starts `http://` or `https://` (at a word's start or after a
    /// character that is not a letter, digit, `@`, `#` or `$`, as in
    /// `(https://…)`), has something after the scheme, and ends at a blank
    /// with its trailing punctuation left out (`.,;:!?'"»”’`, and a `)` it
    /// did not open). Blank and non-blank runs are separate pieces, so a
    /// piece never splits a grapheme. A bare `example.com` is not a link
    /// here (X and Bluesky may count it as one).
    static func forEachToken(_ text: String, _ body: (Substring, Bool) -> Void) {
        var index = text.startIndex
        while index < text.endIndex {
            let space = text[index].isWhitespace
            var end = text.index(after: index)
            while end < text.endIndex && text[end].isWhitespace == space { end = text.index(after: end) }
            if space {
                body(text[index..<end], false)
            } else {
                forEachPiece(of: text[index..<end], body)
            }
            index = end
        }
    }

    /// A word's pieces: text, the link in it (if any), and what follows, in turn.
    private static func forEachPiece(of word: Substring, _ body: (Substring, Bool) -> Void) {
        guard let start = linkStart(in: word) else { return body(word, false) }
        let link = linkEnd(word[start...])
        guard !link.isEmpty else { return body(word, false) }
        if word.startIndex < start { body(word[..<start], false) }
        body(link, true)
        if link.endIndex < word.endIndex { forEachPiece(of: word[link.endIndex...], body) }
    }

    /// Where a link starts in `word`, if one does.
    private static func linkStart(in word: Substring) -> Substring.Index? {
        var index = word.startIndex
        while index < word.endIndex {
            let rest = word[index...]
            let head = rest.prefix(8).lowercased()
            let scheme = head.hasPrefix("https://") ? 8 : head.hasPrefix("http://") ? 7 : 0
            if scheme > 0, !rest.dropFirst(scheme).isEmpty {
                if index == word.startIndex { return index }
                let before = word[word.index(before: index)]
                if !(before.isLetter || before.isNumber || "@#$＠＃".contains(before)) { return index }
            }
            index = word.index(after: index)
        }
        return nil
    }

    /// `candidate` (from a scheme to the word's end) without its trailing
    /// punctuation; empty when nothing is left after the scheme.
    private static func linkEnd(_ candidate: Substring) -> Substring {
        let scheme = candidate.prefix(8).lowercased().hasPrefix("https://") ? 8 : 7
        // Counted once, and kept as characters are dropped from the end.
        var length = candidate.count
        var open = 0, close = 0
        for character in candidate {
            if character == "(" { open += 1 } else if character == ")" { close += 1 }
        }
        var end = candidate.endIndex
        while length > scheme {
            let last = candidate[candidate.index(before: end)]
            if ".,;:!?'\"»”’".contains(last) {
                // trailing punctuation
            } else if last == ")" && open < close {
                close -= 1
            } else {
                break
            }
            end = candidate.index(before: end)
            length -= 1
        }
        return length > scheme ? candidate[..<end] : candidate.prefix(0)
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
