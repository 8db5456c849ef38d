/// The lines of an editor's text, kept in blocks of a few hundred.
///
/// A copy of the text (an autosave's snapshot, taken on every pause in
/// typing) shares the blocks; the next keystroke then copies only the
/// block it edits and the short list of blocks, not one reference per
/// line, and dropping the snapshot frees only what it alone held. A line
/// is found by walking the block counts, which at 50,000 lines is a
/// couple of hundred additions.
public struct TextLines: RandomAccessCollection, Sendable, Equatable {
    /// Lines per block when blocks are made; a block that grows past
    /// twice this is split again.
    static let blockSize = 256

    private var blocks: [[String]]
    /// How many lines each block holds, apart from the blocks: finding a
    /// line reads this one small array, not the header of every block.
    private var counts: [Int]
    public private(set) var count: Int

    /// The lines given, at least one (an empty text is one empty line).
    public init(_ lines: [String]) {
        let lines = lines.isEmpty ? [""] : lines
        blocks = TextLines.chunked(lines[...])
        counts = blocks.map(\.count)
        count = lines.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> String {
        get {
            let (block, offset) = locate(index)
            return blocks[block][offset]
        }
        set {
            let (block, offset) = locate(index)
            blocks[block][offset] = newValue
        }
    }

    /// Walks the blocks in order: no lookup per line.
    public struct Iterator: IteratorProtocol {
        fileprivate var blocks: IndexingIterator<[[String]]>
        fileprivate var current: IndexingIterator<[String]>?

        public mutating func next() -> String? {
            while true {
                if let line = current?.next() { return line }
                guard let block = blocks.next() else { return nil }
                current = block.makeIterator()
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(blocks: blocks.makeIterator(), current: nil) }

    /// The same lines, however they are cut into blocks; blocks that are
    /// the same arrays (a copy not edited since) are not read.
    public static func == (a: TextLines, b: TextLines) -> Bool { a.count == b.count && (a.blocks == b.blocks || a.elementsEqual(b)) }

    /// Replaces the lines in `range` with `new`; the text keeps at least one line.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with new: C) where C.Element == String {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "lines out of range")
        // As many lines as before (a keystroke within a line): each set in its block, none moved.
        if new.count == range.count {
            for (index, line) in zip(range, new) { self[index] = line }
            return
        }
        // The blocks holding the range (at least one, for an insertion at the end).
        let (first, firstOffset) = locate(Swift.min(range.lowerBound, count - 1))
        let start = range.lowerBound == count ? counts[first] : firstOffset
        var last = first
        var lastOffset = start + (range.count)
        while lastOffset > counts[last] {
            lastOffset -= counts[last]
            last += 1
        }
        let merged = Array(blocks[first...last].joined())
        // Within `merged`, the range starts at `start` and ends `range.count` later.
        var edited = Array(merged[..<start])
        edited.append(contentsOf: new)
        edited.append(contentsOf: merged[(start + range.count)...])
        count += new.count - range.count
        if count == 0 {
            blocks = [[""]]
            counts = [1]
            count = 1
            return
        }
        let rechunked = edited.count <= 2 * TextLines.blockSize ? (edited.isEmpty ? [] : [edited]) : TextLines.chunked(edited[...])
        blocks.replaceSubrange(first...last, with: rechunked)
        counts.replaceSubrange(first...last, with: rechunked.map(\.count))
    }

    /// Inserts `new` before line `index`.
    public mutating func insert<C: Collection>(contentsOf new: C, at index: Int) where C.Element == String {
        replaceSubrange(index..<index, with: new)
    }

    /// The block holding line `index`, and the line's place in it.
    private func locate(_ index: Int) -> (block: Int, offset: Int) {
        var remaining = index
        for (block, lines) in counts.enumerated() {
            if remaining < lines { return (block, remaining) }
            remaining -= lines
        }
        preconditionFailure("line \(index) of \(count)")
    }

    private static func chunked(_ lines: ArraySlice<String>) -> [[String]] {
        stride(from: lines.startIndex, to: lines.endIndex, by: blockSize).map {
            Array(lines[$0..<Swift.min($0 + blockSize, lines.endIndex)])
        }
    }
}
