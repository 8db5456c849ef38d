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
    }

    /// A damaged line (a hand edit, a disk error) is skipped with a warning
    /// naming it, kept in the file as it is, and costs no other pin.
    @Test func aLineThatIsNotATypeIsSkippedWithAWarningAndKept() throws {
        let fixtures = try Fixtures()
        let pins = PinsFile(stateHome: fixtures.root.appendingPathComponent("state/share").path)
        try FileManager.default.createDirectory(atPath: (pins.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let damaged: [UInt8] = Array("mail\nnot a type!\n".utf8) + [0xFF, 0xFE, 0x0A] + Array("print\n".utf8)
        try Data(damaged).write(to: URL(fileURLWithPath: pins.path))
        #expect(pins.read().types == [.mail, .print])
        #expect(pins.read().unreadable == [2, 3])

        let list = try fixtures.share("--list", "https://example.com")
        #expect(list.status == 0, "stderr: \(list.err)")
        #expect(list.err.contains("\(pins.path) lines 2, 3 are not an activity type"), "stderr: \(list.err)")
        #expect(list.out.hasPrefix("mail\t"), "the good pins still order the sheet: \(list.out)")

        #expect(try pins.toggle(.addToReadingList) == [.mail, .print, .addToReadingList])
        #expect(try pins.toggle(.mail) == [.print, .addToReadingList])
        let kept = try Data(contentsOf: URL(fileURLWithPath: pins.path))
        // CRLF line ends (a file synced from Windows) read the same.
        try Data("mail\r\nprint\r\n".utf8).write(to: URL(fileURLWithPath: pins.path))
        #expect(pins.read().types == [.mail, .print] && pins.read().unreadable.isEmpty)
        try kept.write(to: URL(fileURLWithPath: pins.path))
        let after = try Data(contentsOf: URL(fileURLWithPath: pins.path))
        #expect(Array(after) == Array("not a type!\n".utf8) + [0xFF, 0xFE, 0x0A] + Array("print\naddToReadingList\n".utf8),
                "the damaged lines stay as they were: \(Array(after))")
    }
}
