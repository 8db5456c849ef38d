/// One lexical unit of an address list: an atom, a quoted string, a domain
/// literal or a special, with the whitespace and comments before it.
struct AddressToken {
    /// What the token is.
    enum Kind: Equatable {
        /// A run of `atext` (may hold non-ASCII characters).
        case atom
        /// A quoted string; ``AddressToken/text`` is its content, unescaped.
        case quoted
        /// A domain literal; ``AddressToken/text`` includes the brackets.
        case literal
        /// One of `< > @ , ; : .`.
        case special(Unicode.Scalar)
        /// The end of the input (carries the trailing comments).
        case end
    }

    /// What the token is.
    var kind: Kind
    /// The token's value: atom text, unquoted string content, literal, or the special.
    var text: String
    /// Whether whitespace or a comment separates this token from the previous one.
    var spaceBefore: Bool
    /// The comments between the previous token and this one, unescaped.
    var comments: [String]
    /// Offset of the token's first Unicode scalar in the input.
    var start: Int
    /// Offset just past the token's last Unicode scalar in the input.
    var end: Int

    /// Whether the token is the special `character`.
    func isSpecial(_ character: Unicode.Scalar) -> Bool {
        kind == .special(character)
    }

    /// Whether the token can be part of a phrase or a local part (atom, quoted string or `.`).
    var isWordOrDot: Bool {
        switch kind {
        case .atom, .quoted, .special("."): return true
        default: return false
        }
    }
}

/// Splits an address list into ``AddressToken``s (RFC 5322 §3.2).
///
/// Rejects line breaks, NUL and control characters anywhere (inside quotes
/// and comments too), unbalanced quotes, parentheses and brackets, and a
/// backslash outside quotes and comments.
enum AddressLexer {
    /// The tokens of `input`, ending with an ``AddressToken/Kind/end`` token.
    static func tokens(of input: String) throws(AddressError) -> [AddressToken] {
        try AddressCharacters.rejectControls(in: input, what: "an address", input: input)
        let scalars = Array(input.unicodeScalars)
        var tokens: [AddressToken] = []
        var index = 0
        var space = false
        var comments: [String] = []

        func add(_ kind: AddressToken.Kind, _ text: String, from start: Int, to end: Int) {
            tokens.append(AddressToken(kind: kind, text: text, spaceBefore: space, comments: comments, start: start, end: end))
            space = false
            comments = []
        }

        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t":
                space = true
                index += 1
            case "(":
                let (text, next) = try comment(in: scalars, at: index, input: input)
                comments.append(text)
                space = true
                index = next
            case ")":
                throw AddressError(
                    input: input,
                    message: "unbalanced parentheses: ')' has no matching '('; remove it, or put a name containing ')' in double quotes"
                )
            case "\"":
                let (text, next) = try quotedString(in: scalars, at: index, input: input)
                add(.quoted, text, from: index, to: next)
                index = next
            case "[":
                let next = try domainLiteralEnd(in: scalars, at: index, input: input)
                add(.literal, String(String.UnicodeScalarView(scalars[index..<next])), from: index, to: next)
                index = next
            case "]":
                throw AddressError(
                    input: input,
                    message: "unbalanced brackets: ']' has no matching '['; remove it, or put a name containing ']' in double quotes"
                )
            case "\\":
                throw AddressError(
                    input: input,
                    message: "a backslash is only allowed inside double quotes or comments; quote the name or local part that contains it"
                )
            case "<", ">", "@", ",", ";", ":", ".":
                add(.special(scalar), String(scalar), from: index, to: index + 1)
                index += 1
            default:
                let start = index
                while index < scalars.count, AddressCharacters.isAtext(scalars[index]) {
                    index += 1
                }
                guard index > start else {
                    throw AddressError(
                        input: input,
                        message: "character \(AddressError.codePoint(scalar)) is not allowed here; put it in double quotes or remove it"
                    )
                }
                add(.atom, String(String.UnicodeScalarView(scalars[start..<index])), from: start, to: index)
            }
        }
        add(.end, "", from: scalars.count, to: scalars.count)
        return tokens
    }

    /// Reads a (possibly nested) comment starting at the `(` at `start`.
    /// Returns its content, with quoted-pairs unescaped and nested
    /// parentheses kept, and the offset after its closing `)`.
    private static func comment(
        in scalars: [Unicode.Scalar], at start: Int, input: String
    ) throws(AddressError) -> (String, Int) {
        var depth = 1
        var index = start + 1
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\\":
                guard index < scalars.count else { break }
                text.append(scalars[index])
                index += 1
            case "(":
                depth += 1
                text.append(scalar)
            case ")":
                depth -= 1
                if depth == 0 { return (String(text), index) }
                text.append(scalar)
            default:
                text.append(scalar)
            }
        }
        throw AddressError(
            input: input,
            message: "unbalanced parentheses: a comment opened with '(' is never closed; add the missing ')'"
        )
    }

    /// Reads a quoted string starting at the `"` at `start`. Returns its
    /// content, unescaped, and the offset after the closing `"`.
    private static func quotedString(
        in scalars: [Unicode.Scalar], at start: Int, input: String
    ) throws(AddressError) -> (String, Int) {
        var index = start + 1
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\\":
                guard index < scalars.count else { break }
                text.append(scalars[index])
                index += 1
            case "\"":
                return (String(text), index)
            default:
                text.append(scalar)
            }
        }
        throw AddressError(
            input: input,
            message: "unbalanced double quote: a '\"' is never closed; add the closing '\"' (write \\\" for a quote inside quotes)"
        )
    }

    /// The offset after the `]` closing the domain literal that starts at `start`.
    private static func domainLiteralEnd(
        in scalars: [Unicode.Scalar], at start: Int, input: String
    ) throws(AddressError) -> Int {
        var index = start + 1
        while index < scalars.count {
            switch scalars[index] {
            case "]":
                return index + 1
            case "[", "\\":
                throw AddressError(
                    input: input,
                    message: "'\(scalars[index])' is not allowed inside a domain literal; write an IP address as [192.0.2.1] or [IPv6:2001:db8::1]"
                )
            default:
                index += 1
            }
        }
        throw AddressError(
            input: input,
            message: "unbalanced brackets: a '[' is never closed; add the missing ']', or put a name containing '[' in double quotes"
        )
    }
}
