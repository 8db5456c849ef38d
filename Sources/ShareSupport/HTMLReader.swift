import CXML

/// HTML read by libxml2's HTML parser, as a browser reads it: elements
/// implied and closed where the markup leaves them out, entities and
/// character references decoded, names in lower case. libxml2 is loaded
/// the first time HTML is read.
public enum HTMLReader {
    /// What a document holds, in order.
    public enum Event: Sendable, Equatable {
        /// An element begins (its name in lower case).
        case start(String)
        /// An element ends (an empty one right after its start).
        case end(String)
        /// Text, decoded.
        case text(String)
    }

    /// Why HTML could not be read: libxml2 is missing.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Hands each event of `html` to `visit`, in order, until it returns false.
    public static func read(_ html: String, _ visit: (Event) -> Bool) throws(Failure) {
        var html = html
        let failure = html.withUTF8 { read(UnsafeRawBufferPointer($0), encoding: "UTF-8", visit) }
        if let failure { throw failure }
    }

    /// Hands each event of the document `bytes` to `visit`, in order, until
    /// it returns false: the bytes in `encoding`, or as the document says
    /// (`<meta charset>`) when it is `nil`, else UTF-8.
    public static func read(_ bytes: [UInt8], encoding: String?, _ visit: (Event) -> Bool) throws(Failure) {
        let failure = bytes.withUnsafeBytes { read($0, encoding: encoding, visit) }
        if let failure { throw failure }
    }

    /// The reader the C callback reaches through its context.
    private final class Visitor {
        let visit: (Event) -> Bool
        init(_ visit: @escaping (Event) -> Bool) { self.visit = visit }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, encoding: String?, _ visit: (Event) -> Bool) -> Failure? {
        var error = [CChar](repeating: 0, count: 256)
        let code = withoutActuallyEscaping(visit) { visit in
            let visitor = Visitor(visit)
            return withExtendedLifetime(visitor) {
                share_html_walk(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, encoding, { kind, text, context in
                    guard let context else { return 1 }
                    let words = text.map { String(cString: $0) } ?? ""
                    let event: Event = switch Int(kind) {
                    case SHARE_HTML_START: .start(words)
                    case SHARE_HTML_END: .end(words)
                    default: .text(words)
                    }
                    return Unmanaged<Visitor>.fromOpaque(context).takeUnretainedValue().visit(event) ? 0 : 1
                }, Unmanaged.passUnretained(visitor).toOpaque(), &error, error.count)
            }
        }
        guard code != 0 else { return nil }
        return Failure(description: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
