import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

/// The Options line of the preview header and its chooser (`o`): what the
/// options before sharing will remove, said for the selected activity.
struct PickerOptionsTests {
    /// The realistic tiles sharing two photos, with the options as given.
    func state(_ options: SharingOptions = SharingOptions(), width: Int = 80, height: Int = 24) -> PickerState {
        var state = PickerState(header: PickerHeader.describing(Fixture.items), tiles: Fixture.realistic, width: width, height: height)
        state.options = PickerOptions(options: options, pictures: 2, offersLink: false)
        return state
    }

    func send(_ events: [InputEvent], to state: inout PickerState) -> [PickerEffect] {
        events.flatMap { PickerUpdate.update(&state, $0) }
    }

    @Test func theLineSaysWhatGoesForTheSelectedActivity() {
        var state = state()
        // Mail is private: the place stays; Twitter is public: it goes.
        #expect(PickerView.view(state).lines[3].contains("Options: location kept (o)"))
        _ = send([.right, .right], to: &state)
        #expect(state.selection == .postToTwitter)
        let frame = PickerView.view(state)
        #expect(frame.lines[3].contains("Options: location removed from 2 photos (o)"), "\(frame.lines[3])")
        assertSnapshot(frame, named: "picker-options-line-80x24")
    }

    @Test func theChooserChangesTheOptionsAndTheLineFollows() {
        var state = state()
        #expect(send([.character("o")], to: &state).isEmpty)
        #expect(state.options?.isOpen == true)
        assertSnapshot(PickerView.view(state), named: "picker-options-chooser-80x24")
        // Down twice to "Location always removed", Enter; then all metadata, then the size twice.
        _ = send([.down, .down, .enter], to: &state)
        #expect(state.options?.options.location == .strip)
        _ = send([.down, .enter, .down, .enter, .enter], to: &state)
        #expect(state.options?.options.removesMetadata == true && state.options?.options.longestSide == 1024)
        #expect(state.selection == .mail, "keys in the chooser never move the selection")
        _ = send([.escape], to: &state)
        #expect(state.options?.isOpen == false)
        #expect(PickerView.view(state).lines[3].contains("all metadata removed from 2 photos · resized to 1024 pixels"))
        // Picking reads the options the chooser left.
        #expect(send([.enter], to: &state) == [.pick(.mail)])
    }

    @Test func choosingALocationTurnsAllMetadataOff() {
        var options = PickerOptions(options: SharingOptions(), pictures: 1, offersLink: true)
        #expect(options.rows.count == 6)
        options.cursor = 3
        options.chooseHighlighted()
        #expect(options.options.removesMetadata)
        #expect(options.label(of: .location(.auto)).hasPrefix("( ) "), "no location choice is marked while all metadata goes")
        options.cursor = 1
        options.chooseHighlighted()
        #expect(!options.options.removesMetadata && options.options.location == .keep)
        options.cursor = 5
        options.chooseHighlighted()
        #expect(options.options.asLink && options.summary(for: .mail) == "location kept · sent as a link")
        // The sizes go round: off, 2048, 1024, 640, off.
        options.cursor = 4
        var sizes: [Int?] = []
        for _ in 0..<4 {
            options.chooseHighlighted()
            sizes.append(options.options.longestSide)
        }
        #expect(sizes == [2048, 1024, 640, nil])
    }

    @Test func withoutPicturesThereIsNoLineAndOOpensNothing() {
        var state = PickerState(header: Fixture.header, tiles: Fixture.realistic, width: 80, height: 24)
        #expect(send([.character("o")], to: &state).isEmpty)
        #expect(state.options == nil)
        #expect(!PickerView.view(state).lines[3].contains("Options"))
    }
}
