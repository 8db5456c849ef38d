/// EXIF's TIFF structure (JPEG's `APP1 Exif`, PNG's `eXIf`), read and
/// changed in place: entries are removed or values overwritten without
/// moving any data, so every offset in it stays right.
///
/// Every read is checked against the bytes there are; a chain of
/// directories that loops, or points outside, ends where it goes wrong.
struct TIFFDirectories {
    /// The TIFF data, from its byte-order mark (`II` or `MM`).
    private(set) var bytes: [UInt8]
    /// Whether numbers are little-endian (`II`).
    private let little: Bool

    /// Tags this reader knows.
    enum Tag {
        static let orientation = 0x0112
        static let exifDirectory = 0x8769
        static let gpsDirectory = 0x8825
        static let pixelWidth = 0xA002
        static let pixelHeight = 0xA003
    }

    /// One entry of a directory: where it is, its tag, type and count, and
    /// where its 4-byte value field is.
    struct Entry {
        var position: Int
        var tag: Int
        var type: Int
        var count: Int
        /// The value field: the value itself when it fits in 4 bytes, else its offset.
        var field: Int
    }

    /// The most directories followed in a chain: EXIF has two (the image
    /// and its thumbnail); a chain longer than this is broken.
    private static let longestChain = 16

    /// Reads the TIFF header of `bytes`; `nil` when it is not one or its
    /// first directory does not fit.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49 && bytes[1] == 0x49 && bytes[2] == 42 && bytes[3] == 0 {
            little = true
        } else if bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0 && bytes[3] == 42 {
            little = false
        } else {
            return nil
        }
        self.bytes = bytes
        guard let first = number(at: 4, size: 4), entries(at: first) != nil else { return nil }
    }

    // MARK: - Reading

    /// The unsigned number of `size` bytes (2 or 4) at `offset`, in the data's byte order; `nil` past the end.
    func number(at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { return nil }
        var value = 0
        for index in 0..<size {
            let byte = Int(bytes[little ? offset + size - 1 - index : offset + index])
            value = value << 8 | byte
        }
        return value
    }

    /// The entries of the directory at `offset`; `nil` when its entries do not fit.
    func entries(at offset: Int) -> [Entry]? {
        guard offset >= 8, let count = number(at: offset, size: 2), offset + 2 + count * 12 <= bytes.count else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let position = offset + 2 + index * 12
            guard let tag = number(at: position, size: 2), let type = number(at: position + 2, size: 2),
                  let items = number(at: position + 4, size: 4) else { return nil }
            entries.append(Entry(position: position, tag: tag, type: type, count: items, field: position + 8))
        }
        return entries
    }

    /// The offsets of the chain of directories from the first (the image's,
    /// then its thumbnail's), each once, as far as they can be read.
    func chain() -> [Int] {
        var offsets: [Int] = []
        var next = number(at: 4, size: 4)
        while let offset = next, offset != 0, !offsets.contains(offset), offsets.count < Self.longestChain,
              let entries = entries(at: offset) {
            offsets.append(offset)
            next = number(at: offset + 2 + entries.count * 12, size: 4)
        }
        return offsets
    }

    /// The entry of `tag` in the directory at `offset`, if it is there.
    func entry(_ tag: Int, inDirectoryAt offset: Int) -> Entry? {
        entries(at: offset)?.first { $0.tag == tag }
    }

    /// The size in bytes of one value of a TIFF type; `nil` for a type TIFF does not define.
    static func size(ofType type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// Where an entry's values are, when they are not in its value field
    /// and lie wholly inside the data.
    func outOfLineValues(of entry: Entry) -> Range<Int>? {
        guard let size = Self.size(ofType: entry.type) else { return nil }
        let (length, overflow) = size.multipliedReportingOverflow(by: entry.count)
        guard !overflow, length > 4, let offset = number(at: entry.field, size: 4), offset <= bytes.count,
              length <= bytes.count - offset else { return nil }
        return offset..<(offset + length)
    }

    /// A SHORT or LONG value of the entry (the first of its values).
    func integer(of entry: Entry) -> Int? {
        switch entry.type {
        case 3: number(at: entry.field, size: 2)
        case 4, 13: number(at: entry.field, size: 4)
        default: nil
        }
    }

    /// The orientation of the first directory (1 to 8), 1 when it has none or it is out of range.
    var orientation: Int {
        guard let first = chain().first, let entry = entry(Tag.orientation, inDirectoryAt: first), entry.type == 3,
              let value = integer(of: entry), (1...8).contains(value) else { return 1 }
        return value
    }

    /// Whether a directory of the chain points to a GPS directory.
    var hasGPS: Bool {
        chain().contains { entry(Tag.gpsDirectory, inDirectoryAt: $0) != nil }
    }

    // MARK: - Changing

    /// Removes every pointer to a GPS directory from the chain and zeroes
    /// the GPS directories and their values, so that no reader finds the
    /// place and no byte of it is left. Returns whether there was one.
    mutating func removeGPS() -> Bool {
        var removed = false
        for directory in chain() {
            while let entry = entry(Tag.gpsDirectory, inDirectoryAt: directory) {
                let target = integer(of: entry)
                remove(entry, fromDirectoryAt: directory)
                if let target { zeroDirectory(at: target) }
                removed = true
            }
        }
        return removed
    }

    /// The data without its GPS (``removeGPS()``), when what is left reads
    /// as TIFF with no GPS pointer; `nil` when it does not (a GPS directory
    /// that overlapped the others took them with it): the caller then
    /// removes the EXIF whole.
    func withoutGPS() -> [UInt8]? {
        var copy = self
        _ = copy.removeGPS()
        guard let again = TIFFDirectories(copy.bytes), !again.hasGPS else { return nil }
        return copy.bytes
    }

    /// Sets the first directory's orientation to 1 (upright), where it has one.
    mutating func setUpright() {
        guard let first = chain().first, let entry = entry(Tag.orientation, inDirectoryAt: first), entry.type == 3 else { return }
        put(1, at: entry.field, size: 2)
    }

    /// Sets the picture's size in EXIF's own directory (`PixelXDimension`,
    /// `PixelYDimension`) where it is given, after the picture was resized.
    mutating func setPixelSize(width: Int, height: Int) {
        guard let first = chain().first, let pointer = entry(Tag.exifDirectory, inDirectoryAt: first),
              let exif = integer(of: pointer), let entries = entries(at: exif) else { return }
        for entry in entries where entry.tag == Tag.pixelWidth || entry.tag == Tag.pixelHeight {
            let value = entry.tag == Tag.pixelWidth ? width : height
            if entry.type == 3, value <= 0xFFFF { put(value, at: entry.field, size: 2) }
            if entry.type == 4 { put(value, at: entry.field, size: 4) }
        }
    }

    /// Takes `entry` out of the directory at `offset`: the entries after it
    /// move up one place, the pointer to the next directory follows them,
    /// and the 12 bytes freed at the end are zeroed.
    private mutating func remove(_ entry: Entry, fromDirectoryAt offset: Int) {
        guard let count = number(at: offset, size: 2), count > 0 else { return }
        let end = offset + 2 + count * 12
        // The pointer to the next directory, where there is one.
        let tail = min(end + 4, bytes.count)
        bytes.replaceSubrange(entry.position..<tail, with: bytes[(entry.position + 12)..<tail] + [UInt8](repeating: 0, count: 12))
        put(count - 1, at: offset, size: 2)
    }

    /// Zeroes the directory at `offset` and the values its entries point to,
    /// as far as they lie inside the data.
    private mutating func zeroDirectory(at offset: Int) {
        guard let entries = entries(at: offset) else { return }
        for entry in entries {
            if let values = outOfLineValues(of: entry) { zero(values) }
        }
        zero(offset..<min(offset + 2 + entries.count * 12 + 4, bytes.count))
    }

    /// Zeroes `range`, never the header (the byte order and the first directory's offset).
    private mutating func zero(_ range: Range<Int>) {
        for index in max(8, range.lowerBound)..<max(8, range.upperBound) { bytes[index] = 0 }
    }

    private mutating func put(_ value: Int, at offset: Int, size: Int) {
        guard offset >= 0, offset + size <= bytes.count else { return }
        for index in 0..<size {
            let shift = 8 * (little ? index : size - 1 - index)
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
