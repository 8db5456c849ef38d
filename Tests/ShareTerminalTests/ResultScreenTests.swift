import ShareCore
import Testing
@testable import ShareTerminal

/// The result screen: what an activity gave back, links as links, `c`
/// copies it all, the keys scroll a long output, and Enter closes.
struct ResultScreenTests {
    static let lines = ["Mustache added to 2 pictures", "https://example.com/mustache/face-2.png", "saved in ~/Pictures"]

    @Test func theOutputWithItsLinkAt80x24() {
        let state = ResultState(title: "Mustachify", lines: Self.lines, width: 80, height: 24)
        let frame = ResultView.view(state)
        assertSnapshot(frame, named: "result-80x24")
        expectWellFormed(frame)
        #expect(frame.lines[0].hasPrefix(" Mustachify"))
        #expect(frame.lines[2] == " Mustache added to 2 pictures")
        #expect(frame.hyperlinks.map(\.url) == ["https://example.com/mustache/face-2.png"])
        #expect(frame.lines[23].contains("c copy") && frame.lines[23].contains("Enter close"))
    }

    @Test func keysCopyScrollAndClose() {
        var state = ResultState(title: "Lines", lines: (1...40).map { "line \($0)" }, width: 60, height: 12)
        #expect(ResultView.view(state).shows("▼") && !ResultView.view(state).shows("line 9"))
        #expect(ResultUpdate.update(&state, .pageDown).isEmpty)
        #expect(state.scroll == 8 && ResultView.view(state).shows("line 9") && ResultView.view(state).shows("▲"))
        for _ in 0..<10 { _ = ResultUpdate.update(&state, .pageDown) }
        #expect(state.scroll == 32, "the end: the last 8 lines")
        #expect(ResultView.view(state).shows("line 40") && !ResultView.view(state).shows("▼"))
        #expect(ResultUpdate.update(&state, .character("c")) == [.copy((1...40).map { "line \($0)" }.joined(separator: "\n"))])
        ResultUpdate.show("Copied", isError: false, in: &state)
        #expect(ResultView.view(state).lines[10] == " Copied")
        #expect(ResultUpdate.update(&state, .up).isEmpty && state.scroll == 31 && state.status == nil)
        #expect(ResultUpdate.update(&state, .enter) == [.close])
        #expect(ResultUpdate.update(&state, .escape) == [.close])
    }
}
