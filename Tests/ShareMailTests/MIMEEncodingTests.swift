import Foundation
import Testing
@testable import ShareMail

/// Decodes `=?UTF-8?B?…?=` words back to bytes (test-side, independent of the writer).
private func decodeWord(_ word: String) -> [UInt8]? {
    guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return nil }
    let payload = String(word.dropFirst(10).dropLast(2))
    return Data(base64Encoded: payload).map(Array.init)
}

struct Base64EncoderTests {
    @Test(arguments: [0, 1, 2, 3, 56, 57, 58, 114, 1000, 100_003])
    func matchesFoundationWhateverTheChunking(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let input = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = Data(input).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
            + (size == 0 ? "" : "\r\n")
        for chunk in [1, 2, 7, 57, 4096, max(size, 1)] {
            let sink = DataSink()
            var encoder = Base64Encoder()
            var offset = 0
            while offset < input.count {
                let end = min(offset + chunk, input.count)
                try input[offset..<end].withUnsafeBytes { try encoder.encode($0, to: sink) }
                offset = end
            }
            try encoder.finish(to: sink)
            encoder.release()
            #expect(String(decoding: sink.data, as: UTF8.self) == expected, "size \(size), chunk \(chunk)")
        }
    }
}

struct QuotedPrintableTests {
    /// A small independent decoder: soft breaks and =XX escapes.
    private func decode(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "=") {
                if index + 2 < bytes.count && bytes[index + 1] == 13 && bytes[index + 2] == 10 { index += 3; continue }
                let hex = String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self)
                out.append(UInt8(hex, radix: 16) ?? 0)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    @Test func roundTripsAndKeepsLinesShort() {
        let text = "Héllo = wörld\t \r\n.hidden dot\r\nFrom the top\r\n" + String(repeating: "é", count: 100) + "\r\n"
            + String(repeating: "x", count: 200) + " \r\nlast"
        let encoded = QuotedPrintable.encode(text)
        #expect(decode(encoded) == Array(text.utf8))
        for line in encoded.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "\(line)")
            #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "trailing white space would be lost: \(line)")
            #expect(!line.hasPrefix("From ") && !line.hasPrefix("."), "\(line)")
        }
        #expect(!encoded.contains("\n") || encoded.components(separatedBy: "\r\n").joined().contains("\n") == false)
    }
}

struct HeaderEncodingTests {
    @Test func plainASCIISubjectsStayReadableAndFold() {
        let header = HeaderEncoding.unstructured(name: "Subject", value: "Quarterly projections for the fourth quarter, with the appendix and the notes")
        #expect(header == "Subject: Quarterly projections for the fourth quarter, with the appendix and\r\n the notes\r\n")
    }

    @Test func koreanSubjectsBecomeEncodedWordsThatNeverSplitACharacter() throws {
        let subject = "분기별 보고서 Q4 — 확인 부탁드립니다, 그리고 아주 긴 제목을 계속 이어서 씁니다 😀👨‍👩‍👧"
        let header = HeaderEncoding.unstructured(name: "Subject", value: subject)
        let lines = header.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count > 1)
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            #expect(line.utf8.count <= 78, "\(line)")
            let word = index == 0 ? String(line.dropFirst("Subject: ".count)) : String(line.dropFirst())
            #expect(word.utf8.count <= 75)
            let decoded = try #require(decodeWord(word), "\(word)")
            #expect(String(validating: decoded, as: UTF8.self) != nil, "word \(index) splits a UTF-8 sequence")
            bytes += decoded
        }
        #expect(String(decoding: bytes, as: UTF8.self) == subject)
    }

    @Test func textThatLooksLikeAnEncodedWordIsEncoded() {
        #expect(HeaderEncoding.unstructured(name: "Subject", value: "=?UTF-8?B?aGk=?=").hasPrefix("Subject: =?UTF-8?B?"))
        #expect(!HeaderEncoding.isPlain("a=?b"))
    }

    @Test func lineBreaksAndNULInHeaderValuesAreRejected() {
        for bad in ["Hi\r\nBcc: evil@example.com", "Hi\nthere", "Hi\rthere", "Hi\0there"] {
            #expect(throws: MailError.self) { try HeaderEncoding.checkValue(bad, field: "subject") }
        }
        #expect(throws: Never.self) { try HeaderEncoding.checkValue("Hi there — 안녕", field: "subject") }
    }

    @Test func phrasesAreAtomsQuotedOrEncoded() {
        #expect(HeaderEncoding.phrase("Kim Minsu", column: 1) == "Kim Minsu")
        #expect(HeaderEncoding.phrase("Lee, J", column: 1) == "\"Lee, J\"")
        #expect(HeaderEncoding.phrase("say \"hi\"", column: 1) == #""say \"hi\"""#)
        #expect(HeaderEncoding.phrase("박지성", column: 1) == "=?UTF-8?B?67CV7KeA7ISx?=")
        // Long names fold: atoms at their spaces, a long quoted string as encoded-words (found by fuzzing).
        let atoms = Array(repeating: "Kim", count: 400).joined(separator: " ")
        #expect(HeaderEncoding.phraseTokens(atoms).count == 400)
        let spaced = Array(repeating: "Lee  J", count: 200).joined(separator: " ")
        let tokens = HeaderEncoding.phraseTokens(spaced)
        #expect(tokens.count > 1 && tokens.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.utf8.count <= 75 })
        #expect(HeaderEncoding.phraseTokens("Lee,  J") == [#""Lee,  J""#])
    }

    @Test func fileNamesUseRFC2231ContinuationsThatFitTheLine() {
        let name = "보고서 첨부 파일 이름이 아주 길어요 정말로 긴 이름.pdf"
        let segments = HeaderEncoding.parameterSegments(name: "filename", value: name)
        #expect(segments.count > 1)
        #expect(segments[0].hasPrefix("filename*0*=UTF-8''"))
        for (index, segment) in segments.enumerated() {
            #expect(segment.utf8.count + 2 <= 78, "\(segment)")
            if index > 0 { #expect(segment.hasPrefix("filename*\(index)*=")) }
        }
        let joined = segments.map { String($0.split(separator: "=", maxSplits: 1)[1]) }.joined()
        #expect(String(joined.dropFirst("UTF-8''".count)).removingPercentEncoding == name)
        #expect(HeaderEncoding.parameterSegments(name: "filename", value: "Q4 Projections.pdf") == [#"filename="Q4 Projections.pdf""#])
    }
}
