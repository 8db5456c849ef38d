import Testing
@testable import ShareTerminal

struct TextLinesTests {
    /// Random replacements across block boundaries agree with a plain
    /// array doing the same, and a copy taken before is left as it was.
    @Test func replacementsAgreeWithAnArray() {
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(max(1, bound)))
        }
        var model = (0..<2000).map { "line \($0)" }
        var lines = TextLines(model)
        for step in 0..<400 {
            let before = lines, beforeModel = model
            let lower = next(model.count + 1)
            // Mostly short ranges, now and then one across several blocks.
            let length = min(model.count - lower, step % 50 == 0 ? next(900) : next(3))
            let new = (0..<(step % 7 == 0 ? next(700) : next(3))).map { "new \(step).\($0)" }
            model.replaceSubrange(lower..<(lower + length), with: new)
            if model.isEmpty { model = [""] }
            lines.replaceSubrange(lower..<(lower + length), with: new)
            #expect(lines.count == model.count)
            #expect(Array(lines) == model, "step \(step): \(lower)..<\(lower + length) with \(new.count)")
            #expect(Array(before) == beforeModel, "the copy taken before step \(step) is unchanged")
            if !model.isEmpty {
                let index = next(model.count)
                #expect(lines[index] == model[index])
            }
        }
        lines[5] = "edited"
        model[5] = "edited"
        #expect(Array(lines) == model && lines == TextLines(model))
    }

    @Test func anEmptyTextIsOneEmptyLine() {
        #expect(Array(TextLines([])) == [""])
        var lines = TextLines(["a", "b"])
        lines.replaceSubrange(0..<2, with: [String]())
        #expect(Array(lines) == [""] && lines.count == 1)
        lines.insert(contentsOf: ["x", "y"], at: 1)
        #expect(Array(lines) == ["", "x", "y"])
    }
}
