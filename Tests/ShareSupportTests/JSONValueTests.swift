import Foundation
import Testing
@testable import ShareSupport

struct JSONValueTests {
    @Test func keysKeepTheirOrderAndValuesAreEscaped() throws {
        let value = JSONValue.object([
            ("z", .number(1)), ("a", .bool(false)), ("text", .string("\"박\"\\\n\t\u{1}\u{2028}")), ("none", .null),
            ("list", .array([.string("x"), .number(-3)])),
        ])
        let text = value.serialized
        #expect(text == #"{"z":1,"a":false,"text":"\"박\"\\\n\t\u0001\u2028","none":null,"list":["x",-3]}"#)
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["text"] as? String == "\"박\"\\\n\t\u{1}\u{2028}")
    }
}
