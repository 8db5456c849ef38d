/// Base64 for MIME bodies: 76-character lines ending in CRLF (RFC 2045 §6.8).
///
/// Feed it input in any chunk sizes; it keeps the partial group and the
/// partial line between calls, so output is the same whatever the chunking
/// and memory stays flat for any input size.
struct Base64Encoder {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// 57 input bytes make one 76-character line.
    static let lineInput = 57

    private var carry: [UInt8] = []
    private var column = 0
    private var output: UnsafeMutableRawBufferPointer

    init() {
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    }

    /// Frees the scratch buffer; call once when done.
    mutating func release() { output.deallocate() }

    /// Encodes `input` and writes complete output to `sink`.
    mutating func encode(_ input: UnsafeRawBufferPointer, to sink: any ByteSink) throws(MailError) {
        guard !input.isEmpty else { return }
        var start = 0
        // Complete a group left over from the last call.
        if !carry.isEmpty {
            while carry.count < 3 && start < input.count { carry.append(input[start]); start += 1 }
            if carry.count < 3 { return }
            let group = carry
            carry.removeAll(keepingCapacity: true)
            try throwingMailError { try group.withUnsafeBytes { try encodeGroups($0, to: sink) } }
        }
        let whole = (input.count - start) / 3 * 3
        if whole > 0 {
            try encodeGroups(UnsafeRawBufferPointer(rebasing: input[start..<(start + whole)]), to: sink)
        }
        carry.append(contentsOf: input[(start + whole)...])
    }

    /// Writes the final partial group with padding, and the last line end.
    mutating func finish(to sink: any ByteSink) throws(MailError) {
        var tail: [UInt8] = []
        if !carry.isEmpty {
            let b0 = carry[0], b1 = carry.count > 1 ? carry[1] : 0
            tail.append(Self.alphabet[Int(b0 >> 2)])
            tail.append(Self.alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            tail.append(carry.count > 1 ? Self.alphabet[Int((b1 & 0x0F) << 2)] : UInt8(ascii: "="))
            tail.append(UInt8(ascii: "="))
            carry.removeAll()
            column += 4  // a line holds 19 groups, so the padded group always fits
        }
        if column > 0 {
            tail.append(contentsOf: [13, 10])
            column = 0
        }
        try sink.write(tail)
    }

    /// Encodes whole 3-byte groups, breaking lines at 76 characters.
    private mutating func encodeGroups(_ input: UnsafeRawBufferPointer, to sink: any ByteSink) throws(MailError) {
        let table = Self.alphabet
        var inIndex = 0
        let count = input.count
        var out = 0
        let capacity = output.count
        try throwingMailError { try table.withUnsafeBufferPointer { alphabet in
            while inIndex < count {
                if out > capacity - 80 {
                    try sink.write(UnsafeRawBufferPointer(rebasing: output[0..<out]))
                    out = 0
                }
                let b0 = input[inIndex], b1 = input[inIndex + 1], b2 = input[inIndex + 2]
                inIndex += 3
                output[out] = alphabet[Int(b0 >> 2)]
                output[out + 1] = alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)]
                output[out + 2] = alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)]
                output[out + 3] = alphabet[Int(b2 & 0x3F)]
                out += 4
                column += 4
                if column == 76 {
                    output[out] = 13
                    output[out + 1] = 10
                    out += 2
                    column = 0
                }
            }
        } }
        if out > 0 { try sink.write(UnsafeRawBufferPointer(rebasing: output[0..<out])) }
    }

    /// Base64 of `bytes` on one line, without line breaks (for encoded-words).
    static func encodeLine<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next(), b2 = iterator.next()
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            out.append(b1 == nil ? UInt8(ascii: "=") : alphabet[Int(((b1 ?? 0) & 0x0F) << 2 | (b2 ?? 0) >> 6)])
            out.append(b2 == nil ? UInt8(ascii: "=") : alphabet[Int((b2 ?? 0) & 0x3F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
