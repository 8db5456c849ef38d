import Foundation
import Testing
@testable import ShareTerminal

/// Screen snapshots: a frame rendered as text (its lines, a separator, the
/// style map, the cursor) compared with a file under `Snapshots/`.
///
/// `RECORD_SNAPSHOTS=1 swift test …` writes the files and fails every
/// snapshot assertion it ran, so a re-record is never silent; run again
/// without it to compare.
enum Snapshot {
    /// `Tests/ShareTerminalTests/Snapshots`, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)

    /// Whether this run records snapshots instead of comparing them.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// The file a snapshot named `name` lives in.
    static func file(named name: String) -> URL { directory.appendingPathComponent(name + ".txt") }

    /// The text form of `frame`.
    ///
    /// The lines (right-trimmed, wide characters once), then a separator
    /// that gives the size and the style codes, then one line of style codes
    /// per row, then the cursor position.
    static func render(_ frame: Frame) -> String {
        var out = frame.lines
        out.append("──── \(frame.width)×\(frame.height) · styles: . plain  b bold  d dim  u underline  r reverse  R reverse+bold  c colour ────")
        out.append(contentsOf: frame.styleMap)
        if let cursor = frame.cursor {
            out.append("cursor: x \(cursor.x), y \(cursor.y)")
        } else {
            out.append("cursor: hidden")
        }
        return out.joined(separator: "\n") + "\n"
    }
}

/// Compares `frame` with the snapshot `Snapshots/<name>.txt` (or records it
/// when `RECORD_SNAPSHOTS=1`, failing so the re-record shows).
func assertSnapshot(_ frame: Frame, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = Snapshot.file(named: name)
    let actual = Snapshot.render(frame)
    if Snapshot.isRecording {
        do {
            try FileManager.default.createDirectory(at: Snapshot.directory, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("Recorded snapshot \(url.path). Read it, then run again without RECORD_SNAPSHOTS=1.",
                         sourceLocation: sourceLocation)
        } catch {
            Issue.record("Could not record snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("""
            No snapshot \(url.path).
            Record it with: RECORD_SNAPSHOTS=1 swift test --filter ShareTerminalTests
            then read the file and run again without RECORD_SNAPSHOTS.
            """, sourceLocation: sourceLocation)
        return
    }
    guard expected != actual else { return }
    let expectedLines = expected.components(separatedBy: "\n")
    let actualLines = actual.components(separatedBy: "\n")
    let common = min(expectedLines.count, actualLines.count)
    let line = (0..<common).first { expectedLines[$0] != actualLines[$0] } ?? common
    func show(_ lines: [String]) -> String { line < lines.count ? "“\(lines[line])”" : "(end of snapshot)" }
    Issue.record("""
        Snapshot \(name) differs from \(url.lastPathComponent) at line \(line + 1):
          expected: \(show(expectedLines))
          actual:   \(show(actualLines))
        Re-record with RECORD_SNAPSHOTS=1 if the change is intended.
        """, sourceLocation: sourceLocation)
}

/// Failed expectations show a frame as its lines, not as thousands of cells.
extension Frame: CustomTestStringConvertible {
    public var testDescription: String {
        "Frame \(width)×\(height):\n" + lines.enumerated().map { "\($0.offset < 10 ? " " : "")\($0.offset)│\($0.element)" }
            .joined(separator: "\n")
    }
}
