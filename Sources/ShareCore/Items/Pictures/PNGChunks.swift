/// A PNG file as its chunks, from `IHDR` to `IEND`, each checked as it is
/// read: its length fits in the file and its type is four letters.
/// Chunks are copied as they stand; only metadata is dropped, or EXIF
/// rewritten in place (with its checksum made again).
struct PNGChunks {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// One chunk: its type, its bytes (length to checksum) and its data.
    struct Chunk {
        var type: String
        var range: Range<Int>
        var data: Range<Int>
    }

    /// The file's bytes.
    let bytes: [UInt8]
    /// The chunks, `IHDR` first and `IEND` last.
    private(set) var chunks: [Chunk] = []
    /// Whatever follows `IEND`.
    private(set) var trailer: Range<Int> = 0..<0

    /// Text chunks' keywords whose text is metadata in another format
    /// (ImageMagick's hex-encoded EXIF, IPTC, XMP, Photoshop resources).
    private static let rawProfile = Array("Raw profile type ".utf8)
    /// The keyword of XMP in an `iTXt` chunk.
    private static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    /// Reads the chunks of `bytes`.
    ///
    /// - Throws: ``PictureMetadataError`` when the signature is missing,
    ///   the first chunk is not `IHDR`, a chunk's type is not four
    ///   letters or its length runs past the end, or there is no `IEND`.
    init(_ bytes: [UInt8]) throws(PictureMetadataError) {
        self.bytes = bytes
        guard bytes.starts(with: Self.signature) else { throw PictureMetadataError("the file does not start as a PNG") }
        var at = Self.signature.count
        while true {
            guard bytes.count - at >= 12 else { throw PictureMetadataError("the PNG ends at \(at) before its IEND chunk") }
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let typeBytes = bytes[(at + 4)..<(at + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw PictureMetadataError("the PNG has no chunk type at \(at + 4)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF, length <= bytes.count - at - 12 else {
                throw PictureMetadataError("the PNG's \(type) chunk at \(at) runs past the end of the file (\(length) bytes)")
            }
            if chunks.isEmpty && type != "IHDR" { throw PictureMetadataError("the PNG's first chunk is \(type), not IHDR") }
            let end = at + 12 + length
            chunks.append(Chunk(type: type, range: at..<end, data: (at + 8)..<(at + 8 + length)))
            at = end
            if type == "IEND" {
                trailer = end..<bytes.count
                return
            }
        }
    }

    /// The EXIF orientation of the `eXIf` chunk (1 to 8); 1 when there is none.
    var orientation: Int {
        guard let exif = chunks.first(where: { $0.type == "eXIf" }), let directories = TIFFDirectories(Array(bytes[exif.data])) else { return 1 }
        return directories.orientation
    }

    /// The picture with `removal` applied: chunks dropped or rewritten, the image data as it was.
    func removing(_ removal: MetadataRemoval) -> CleanedPicture {
        var removed: [PictureMetadata.Part] = []
        func note(_ part: PictureMetadata.Part) { if !removed.contains(part) { removed.append(part) } }
        var pieces: [ArraySlice<UInt8>] = [bytes[0..<Self.signature.count]]
        for chunk in chunks {
            switch (removal, chunk.type) {
            case (.all, "tEXt"), (.all, "zTXt"), (.all, "iTXt"): note(.text); continue
            case (.all, "eXIf"): note(.exif); continue
            case (.all, "tIME"): note(.time); continue
            case (.location, "eXIf"):
                guard let directories = TIFFDirectories(Array(bytes[chunk.data])) else { note(.unreadableEXIF); continue }
                if directories.hasGPS {
                    guard let cleaned = directories.withoutGPS() else { note(.unreadableEXIF); continue }
                    note(.gps)
                    pieces.append(Self.chunk("eXIf", cleaned)[...])
                    continue
                }
            case (.location, "tEXt"), (.location, "zTXt"), (.location, "iTXt"):
                if let part = placeInText(chunk) { note(part); continue }
            default: break
            }
            pieces.append(bytes[chunk.range])
        }
        if removal == .all && !trailer.isEmpty { note(.other) }
        let orientation = orientation
        guard !removed.isEmpty else { return CleanedPicture(format: .png, pieces: [bytes[...]], removed: [], orientation: orientation) }
        if removal == .location { pieces.append(bytes[trailer]) }
        return CleanedPicture(format: .png, pieces: pieces, removed: removed, orientation: orientation)
    }

    /// What a text chunk holds that may give a place: XMP that names one
    /// (or that is compressed, so cannot be read), or a raw profile of
    /// EXIF, IPTC or XMP; `nil` for plain text.
    private func placeInText(_ chunk: Chunk) -> PictureMetadata.Part? {
        let data = bytes[chunk.data]
        guard let keywordEnd = data.firstIndex(of: 0) else { return nil }
        let keyword = data[data.startIndex..<keywordEnd]
        if keyword.starts(with: Self.rawProfile) { return .other }
        guard chunk.type == "iTXt", keyword.elementsEqual(Self.xmpKeyword) else { return nil }
        // iTXt: keyword, 0, compressed flag, method, language, 0, translated keyword, 0, text.
        let flagAt = keywordEnd + 1
        guard flagAt < data.endIndex, data[flagAt] == 0 else { return .xmp }
        var at = flagAt + 2
        for _ in 0..<2 {
            guard at <= data.endIndex, let end = data[at...].firstIndex(of: 0) else { return .xmp }
            at = end + 1
        }
        return PlaceNames.inXMP(data[min(at, data.endIndex)...]) ? .xmp : nil
    }

    /// A chunk of `type` holding `data`, with its checksum.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = data.count
        let typed = Array(type.utf8) + data
        let crc = CRC32.checksum(typed)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320, reflected).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

// MARK: - Size, and metadata carried into a new encoding

extension PNGChunks {
    /// The width and height `IHDR` gives.
    var dimensions: (width: Int, height: Int)? { Self.dimensions(atStartOf: bytes) }

    /// The width and height the `IHDR` of the PNG that `bytes` start
    /// gives: it is the first chunk, so the first 24 bytes are enough.
    static func dimensions(atStartOf bytes: [UInt8]) -> (width: Int, height: Int)? {
        func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8), number(8) >= 8 else { return nil }
        let width = number(16), height = number(20)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// `encoded` (a PNG made anew from this one's pixels, turned upright and
    /// resized) with this one's text, time and EXIF (saying upright, with
    /// the new size) put back before its image data. With `onlyColour`,
    /// nothing is carried: a new PNG states its colours itself.
    func carrying(into encoded: [UInt8], width: Int, height: Int, onlyColour: Bool) throws(PictureMetadataError) -> [UInt8] {
        let target = try PNGChunks(encoded)
        guard !onlyColour else { return encoded }
        var carried: [UInt8] = []
        for chunk in chunks {
            switch chunk.type {
            case "tEXt", "zTXt", "iTXt", "tIME":
                carried += bytes[chunk.range]
            case "eXIf":
                guard var directories = TIFFDirectories(Array(bytes[chunk.data])) else { continue }
                directories.setUpright()
                directories.setPixelSize(width: width, height: height)
                carried += Self.chunk("eXIf", directories.bytes)
            default:
                continue
            }
        }
        let split = target.chunks.first { $0.type == "IDAT" }?.range.lowerBound ?? target.chunks.last?.range.lowerBound ?? encoded.count
        return Array(encoded[..<split]) + carried + encoded[split...]
    }
}
