import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

/// Fixed tiles for the picker's unit tests: custom types `com.example.a` …
/// with NATO-alphabet titles, so positions can be worked out by hand.
enum Fixture {
    static let words = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet",
                        "Kilo", "Lima", "Mike", "November", "Oscar", "Papa"]

    static let header = PickerHeader(title: "Sharing one thing", subtitle: "Text · 5 characters", icon: "¶")

    /// The type of the `index`th word: `com.example.a`, `com.example.b` …
    static func type(_ index: Int) -> ActivityType {
        ActivityType(rawValue: "com.example." + String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))))
    }

    /// `share` share-row tiles, then `action` action-row tiles, titled Alpha, Bravo, ….
    static func tiles(share: Int = 4, action: Int = 6) -> [PickerTile] {
        (0..<(share + action)).map { index in
            PickerTile(type: type(index), title: words[index], icon: [index % 2 == 0 ? "◆" : "●"],
                       category: index < share ? .share : .action)
        }
    }

    /// `count` tiles titled `Act 01` … `Act NN` (equal width, none a substring of another).
    static func numbered(_ count: Int, category: ActivityCategory = .action) -> [PickerTile] {
        (1...count).map { number in
            let label = number < 10 ? "0\(number)" : "\(number)"
            return PickerTile(type: ActivityType(rawValue: "com.example.act\(label)"), title: "Act \(label)",
                              icon: ["▪"], category: category)
        }
    }

    static func state(width: Int = 100, height: Int = 30, share: Int = 4, action: Int = 6, colors: Bool = true) -> PickerState {
        PickerState(header: header, tiles: tiles(share: share, action: action), width: width, height: height, colors: colors)
    }

    /// Realistic tiles: the system titles of SPEC §2 plus custom ones.
    static let realistic: [PickerTile] = [
        PickerTile(type: .mail, title: "Mail", icon: ["✉"], category: .share),
        PickerTile(type: .message, title: "Message", icon: ["💬"], category: .share),
        PickerTile(type: .postToTwitter, title: "Twitter", icon: ["🐦"], category: .share),
        PickerTile(type: ActivityType(rawValue: "com.nshipster.mustachify"), title: "Mustachify",
                   icon: [" ,,,,, ", "( o o )", "  \\_/  "], category: .share),
        PickerTile(type: .airDrop, title: "Nearby", icon: ["⇶"], category: .action),
        PickerTile(type: .addToReadingList, title: "Add to Reading List", icon: ["👓"], category: .action),
        PickerTile(type: .assignToContact, title: "Assign to Contact", icon: ["☺"], category: .action),
        PickerTile(type: .copyToPasteboard, title: "Copy", icon: ["⧉"], category: .action),
        PickerTile(type: .print, title: "Print", icon: ["⎙"], category: .action),
        PickerTile(type: .saveToCameraRoll, title: "Save to Pictures", icon: ["▣"], category: .action),
        PickerTile(type: ActivityType(rawValue: "com.example.upload"), title: "Upload to Drive", icon: ["⇪"], category: .action),
        PickerTile(type: ActivityType(rawValue: "com.example.translate"), title: "Translate", icon: ["文A"], category: .action),
    ]

    /// What is shared in the view tests: a text, a URL, an image and a file.
    static let items: [ShareItem] = [
        .text("Quarterly numbers,\nsee the attached report"),
        .url(URL(string: "https://example.com/q4/report?ref=share")!),
        .image(FileItem(name: "chart.png", contentType: "image/png", size: 48_213, storage: .data(Data()))),
        .file(FileItem(name: "Q4 Projections.pdf", contentType: "application/pdf", size: 1_234_567, storage: .data(Data()))),
    ]
}

/// Sends `events` to `state` in order; returns every effect they yielded.
@discardableResult
func send(_ events: InputEvent..., to state: inout PickerState) -> [PickerEffect] {
    events.flatMap { PickerUpdate.update(&state, $0) }
}

/// Types `text` one character at a time.
func typing(_ text: String, into state: inout PickerState) -> [PickerEffect] {
    text.flatMap { PickerUpdate.update(&state, .character($0)) }
}

extension PickerState {
    /// The selected tile's title.
    var selectedTitle: String? { tiles.first { $0.type == selection }?.title }
}

extension Frame {
    /// Every place `text` is drawn, in reading order, as the column and line
    /// of its first cell (continuation cells of wide characters skipped).
    func occurrences(of text: String) -> [(x: Int, y: Int)] {
        let needle = Array(text)
        guard !needle.isEmpty else { return [] }
        var found: [(x: Int, y: Int)] = []
        for y in 0..<height {
            var characters: [Character] = []
            var columns: [Int] = []
            for x in 0..<width where !self[x, y].text.isEmpty {
                for character in self[x, y].text {
                    characters.append(character)
                    columns.append(x)
                }
            }
            guard characters.count >= needle.count else { continue }
            for start in 0...(characters.count - needle.count) where Array(characters[start..<(start + needle.count)]) == needle {
                found.append((columns[start], y))
            }
        }
        return found
    }

    /// Where `text` is first drawn.
    func locate(_ text: String) -> (x: Int, y: Int)? { occurrences(of: text).first }

    /// Whether `text` is drawn anywhere.
    func shows(_ text: String) -> Bool { locate(text) != nil }

    /// The text of `count` cells from (x, y), continuation cells skipped.
    func text(x: Int, y: Int, count: Int) -> String {
        (max(0, x)..<min(width, x + count)).map { self[$0, y].text }.joined()
    }
}

/// Checks what every frame must satisfy: no line wider than the frame; a
/// wide grapheme always followed by its continuation cell and a continuation
/// cell always preceded by one (never split, never orphaned); no control
/// character in any cell.
func expectWellFormed(_ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) {
    for (y, line) in frame.lines.enumerated() {
        #expect(DisplayWidth.of(line) <= frame.width, "line \(y) is \(DisplayWidth.of(line)) columns: \(line)",
                sourceLocation: sourceLocation)
    }
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            let text = frame[x, y].text
            if text.isEmpty {
                #expect(x > 0 && DisplayWidth.of(frame[x - 1, y].text) == 2,
                        "continuation cell at (\(x), \(y)) without a wide character before it; line: \(frame.lines[y])",
                        sourceLocation: sourceLocation)
            } else if DisplayWidth.of(text) == 2 {
                #expect(x + 1 < frame.width && frame[x + 1, y].text.isEmpty,
                        "wide “\(text)” at (\(x), \(y)) lost its second half; line: \(frame.lines[y])",
                        sourceLocation: sourceLocation)
            }
            let controls = text.unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            #expect(controls.isEmpty, "control character in cell (\(x), \(y)): \(text.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }
}
