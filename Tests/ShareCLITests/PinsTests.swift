import Foundation
import ShareCore
import Testing

/// Pins made from the picker live in `$XDG_STATE_HOME/share/pins`; the
/// config's `[picker] pinned` come first, and the config is never rewritten.
struct PinsTests {
    @Test func pinsOrderTheSheetAfterTheConfigsAndTogglingRemoves() throws {
        let fixtures = try Fixtures()
        let state = fixtures.root.appendingPathComponent("state/share").path
        let pins = PinsFile(stateHome: state)
        #expect(try pins.toggle(.addToReadingList) == [.addToReadingList])
        #expect(try pins.toggle(.mail) == [.addToReadingList, .mail])
        #expect(try String(contentsOfFile: pins.path, encoding: .utf8) == "addToReadingList\nmail\n")

        let config = try fixtures.writeConfig("[picker]\npinned = saveToCameraRoll, mail\n")
        let configBefore = try Data(contentsOf: config)
        let list = try fixtures.share("--config", config.path, "--list", "https://example.com")
        let types = list.out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(Array(types.prefix(3)) == ["saveToCameraRoll", "mail", "addToReadingList"], "stdout: \(list.out)")
        #expect(try Data(contentsOf: config) == configBefore, "the config is never rewritten")

        #expect(try pins.toggle(.addToReadingList) == [.mail])
        // A line that is not an activity type is skipped.
        try Data("mail\nnot a type!\n".utf8).write(to: URL(fileURLWithPath: pins.path))
        #expect(pins.read() == [.mail])
    }
}
