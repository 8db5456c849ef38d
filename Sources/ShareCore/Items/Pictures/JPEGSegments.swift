#if canImport(Glibc)
import Glibc
#endif

/// A JPEG file as its segments before the first scan, the scan (from the
/// first `SOS` to `EOI`, kept byte for byte), and whatever follows `EOI`.
///
/// The segments are checked as they are read: each starts with a marker
/// and its length fits in the file. The scan is walked only to find where
/// the image ends; a scan cut short ends at the end of the file.
struct JPEGSegments {
    /// One marker segment: its marker, its bytes (marker to end) and its payload (after the length).
    struct Segment {
        var marker: UInt8
        var range: Range<Int>
        var payload: Range<Int>
    }

    /// What a segment is, by its marker and the identifier its payload starts with.
    enum Kind {
        /// JFIF's header (`APP0 JFIF`): kept, decoders read its density and colour space.
        case jfif
        /// JFIF's extension (`APP0 JFXX`): a thumbnail.
        case jfifThumbnail
        /// EXIF (`APP1 Exif`): camera, times, orientation, GPS, a thumbnail.
        case exif
        /// An XMP packet (`APP1`, Adobe's namespace), and the pieces of one too large for a segment.
        case xmp, extendedXMP
        /// The ICC colour profile (`APP2 ICC_PROFILE`): kept, it is how the colours are meant.
        case iccProfile
        /// The Multi-Picture Format's index (`APP2 MPF`) of the pictures appended after the image.
        case multiPicture
        /// Photoshop's resources (`APP13`): IPTC.
        case photoshop
        /// Adobe's colour transform (`APP14 Adobe`): kept, decoders need it.
        case adobe
        /// A comment (`COM`).
        case comment
        /// Any other application segment (FlashPix, makers' data).
        case otherApplication
        /// What the decoder needs: tables, the frame header, restart interval.
        case structure
    }

    /// The file's bytes.
    let bytes: [UInt8]
    /// The segments between `SOI` and the first `SOS`, in order.
    private(set) var segments: [Segment] = []
    /// From the first `SOS` marker to the end of `EOI` (or of the file, when the scan is cut short).
    private(set) var scan: Range<Int> = 0..<0
    /// What follows `EOI`: pictures a camera appends (MPF), or nothing.
    private(set) var trailer: Range<Int> = 0..<0

    private static let exifIdentifier = Array("Exif\u{0}".utf8)
    private static let xmpIdentifier = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    private static let extendedXMPIdentifier = Array("http://ns.adobe.com/xmp/extension/\u{0}".utf8)

    /// Reads the segments of `bytes` up to the first scan.
    ///
    /// - Throws: ``PictureMetadataError`` when the file does not start as a
    ///   JPEG, a byte stands where a marker must, a segment's length is
    ///   under 2 or runs past the end, or the file ends before a scan.
    init(_ bytes: [UInt8]) throws(PictureMetadataError) {
        self.bytes = bytes
        guard bytes.starts(with: [0xFF, 0xD8]) else { throw PictureMetadataError("the file does not start as a JPEG (no SOI marker)") }
        var at = 2
        while true {
            guard at < bytes.count else { throw PictureMetadataError("the JPEG ends before its image data (no SOS marker)") }
            guard bytes[at] == 0xFF else {
                throw PictureMetadataError("the JPEG has byte 0x\(Self.hex(bytes[at])) at \(at) where a marker must be")
            }
            // Fill bytes (more 0xFF) may come before a marker.
            var markerAt = at + 1
            while markerAt < bytes.count && bytes[markerAt] == 0xFF { markerAt += 1 }
            guard markerAt < bytes.count else { throw PictureMetadataError("the JPEG ends inside a marker at \(at)") }
            let marker = bytes[markerAt]
            let start = markerAt - 1
            switch marker {
            case 0x00, 0xD8:
                throw PictureMetadataError("the JPEG has a misplaced marker 0xFF\(Self.hex(marker)) at \(start)")
            case 0xD9:
                throw PictureMetadataError("the JPEG ends (EOI at \(start)) before any image data")
            case 0x01, 0xD0...0xD7:
                // A marker without a length: kept as it stands.
                segments.append(Segment(marker: marker, range: start..<(markerAt + 1), payload: (markerAt + 1)..<(markerAt + 1)))
                at = markerAt + 1
                continue
            default:
                break
            }
            guard bytes.count - markerAt >= 3 else { throw PictureMetadataError("the JPEG ends inside the segment at \(start)") }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            guard length >= 2 else {
                throw PictureMetadataError("the JPEG's segment 0xFF\(Self.hex(marker)) at \(start) has a length of \(length), under 2")
            }
            let end = markerAt + 1 + length
            guard end <= bytes.count else {
                throw PictureMetadataError("the JPEG's segment 0xFF\(Self.hex(marker)) at \(start) runs past the end of the file "
                    + "(\(length) bytes, \(bytes.count - markerAt - 1) left)")
            }
            if marker == 0xDA {
                let finish = Self.endOfImage(bytes, scanAt: start) ?? bytes.count
                scan = start..<finish
                trailer = finish..<bytes.count
                return
            }
            segments.append(Segment(marker: marker, range: start..<end, payload: (markerAt + 3)..<end))
            at = end
        }
    }

    /// Where the image that scans from `start` ends: past its `EOI`, or
    /// `nil` when the file ends first. Entropy-coded data is skipped to the
    /// next marker (`0xFF` then neither `0x00` nor a restart marker); the
    /// segments between the scans of a progressive JPEG by their lengths.
    static func endOfImage(_ bytes: [UInt8], scanAt start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let count = buffer.count
            var at = start
            while true {
                // `at` is the 0xFF of a marker.
                var markerAt = at + 1
                while markerAt < count && buffer[markerAt] == 0xFF { markerAt += 1 }
                guard markerAt < count else { return nil }
                let marker = buffer[markerAt]
                if marker == 0xD9 { return markerAt + 1 }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    at = markerAt + 1
                } else {
                    guard count - markerAt >= 3 else { return nil }
                    let length = Int(buffer[markerAt + 1]) << 8 | Int(buffer[markerAt + 2])
                    guard length >= 2, markerAt + 1 + length <= count else { return nil }
                    at = markerAt + 1 + length
                    if marker != 0xDA {
                        guard at < count, buffer[at] == 0xFF else { return nil }
                        continue
                    }
                }
                // Entropy-coded data: on to the next 0xFF that starts a marker.
                while true {
                    guard at < count, let found = memchr(base + at, 0xFF, count - at) else { return nil }
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    var next = index + 1
                    while next < count && buffer[next] == 0xFF { next += 1 }
                    guard next < count else { return nil }
                    let byte = buffer[next]
                    if byte == 0x00 || (0xD0...0xD7).contains(byte) {
                        at = next + 1
                        continue
                    }
                    at = next - 1
                    break
                }
            }
        }
    }

    /// What `segment` is.
    func kind(of segment: Segment) -> Kind {
        let payload = bytes[segment.payload]
        switch segment.marker {
        case 0xE0:
            if payload.starts(with: Array("JFIF\u{0}".utf8)) { return .jfif }
            if payload.starts(with: Array("JFXX\u{0}".utf8)) { return .jfifThumbnail }
            return .otherApplication
        case 0xE1:
            if payload.starts(with: Self.exifIdentifier) { return .exif }
            if payload.starts(with: Self.xmpIdentifier) { return .xmp }
            if payload.starts(with: Self.extendedXMPIdentifier) { return .extendedXMP }
            return .otherApplication
        case 0xE2:
            if payload.starts(with: Array("ICC_PROFILE\u{0}".utf8)) { return .iccProfile }
            if payload.starts(with: Array("MPF\u{0}".utf8)) { return .multiPicture }
            return .otherApplication
        case 0xED: return payload.starts(with: PhotoshopResources.identifier) ? .photoshop : .otherApplication
        case 0xEE: return payload.starts(with: Array("Adobe".utf8)) ? .adobe : .otherApplication
        case 0xE3...0xEF: return .otherApplication
        case 0xFE: return .comment
        default: return .structure
        }
    }

    /// The TIFF data of an `APP1 Exif` segment (after `Exif` and two bytes).
    private func tiff(of segment: Segment) -> [UInt8] {
        Array(bytes[segment.payload].dropFirst(Self.exifIdentifier.count + 1))
    }

    /// The EXIF orientation (1 to 8), from the first `APP1 Exif` segment; 1 when there is none.
    var orientation: Int {
        guard let exif = segments.first(where: { kind(of: $0) == .exif }), let directories = TIFFDirectories(tiff(of: exif)) else { return 1 }
        return directories.orientation
    }

    // MARK: - Removing

    /// The picture with `removal` applied: segments dropped or rewritten, the scan as it was.
    func removing(_ removal: MetadataRemoval) -> CleanedPicture {
        var removed: [PictureMetadata.Part] = []
        var kept: [ArraySlice<UInt8>] = []
        func note(_ part: PictureMetadata.Part) { if !removed.contains(part) { removed.append(part) } }
        // Under `location`, extended XMP goes with a main packet that names a place, or when it names one itself.
        let extendedXMP = segments.filter { kind(of: $0) == .extendedXMP }
        let extendedHasPlace = extendedXMP.contains { PlaceNames.inXMP(bytes[$0.payload]) }
        let mainXMPHasPlace = segments.contains { kind(of: $0) == .xmp && PlaceNames.inXMP(bytes[$0.payload]) }
        let trailerGoes = !trailer.isEmpty && (removal == .all || trailerHasPlace())
        for segment in segments {
            let kind = kind(of: segment)
            let whole = bytes[segment.range]
            switch (removal, kind) {
            case (_, .jfif), (_, .iccProfile), (_, .adobe), (_, .structure):
                kept.append(whole)
            case (.all, .exif): note(.exif)
            case (.all, .xmp), (.all, .extendedXMP): note(.xmp)
            case (.all, .jfifThumbnail), (.all, .multiPicture): note(.thumbnail)
            case (.all, .photoshop): note(.iptc)
            case (.all, .comment): note(.comment)
            case (.all, .otherApplication): note(.other)
            case (.location, .exif):
                guard let directories = TIFFDirectories(tiff(of: segment)) else { note(.unreadableEXIF); continue }
                if directories.hasGPS {
                    guard let cleaned = directories.withoutGPS() else { note(.unreadableEXIF); continue }
                    note(.gps)
                    let head = bytes[segment.range.lowerBound..<(segment.payload.lowerBound + Self.exifIdentifier.count + 1)]
                    kept.append((Array(head) + cleaned)[...])
                } else {
                    kept.append(whole)
                }
            case (.location, .xmp):
                if PlaceNames.inXMP(bytes[segment.payload]) { note(.xmp) } else { kept.append(whole) }
            case (.location, .extendedXMP):
                if mainXMPHasPlace || extendedHasPlace { note(.xmp) } else { kept.append(whole) }
            case (.location, .photoshop):
                guard let resources = PhotoshopResources(bytes[segment.payload]) else { note(.iptc); continue }
                if let rewritten = resources.withoutPlace() {
                    for part in rewritten.removed { note(part) }
                    kept.append(Self.segment(segment.marker, rewritten.bytes)[...])
                } else {
                    kept.append(whole)
                }
            case (.location, .multiPicture):
                // Its offsets point into the pictures after the image: they go together.
                if !trailerGoes { kept.append(whole) }
            case (.location, .jfifThumbnail), (.location, .comment), (.location, .otherApplication):
                kept.append(whole)
            }
        }
        if trailerGoes { note(removal == .all ? (bytes[trailer].starts(with: [0xFF, 0xD8]) ? .thumbnail : .other) : .gps) }
        let orientation = orientation
        guard !removed.isEmpty else { return CleanedPicture(format: .jpeg, pieces: [bytes[...]], removed: [], orientation: orientation) }
        let pieces = [bytes[0..<2]] + kept + [bytes[scan]] + (trailerGoes ? [] : [bytes[trailer]])
        return CleanedPicture(format: .jpeg, pieces: pieces, removed: removed, orientation: orientation)
    }

    /// Whether the pictures appended after the image (MPF) have EXIF with a
    /// GPS directory, or EXIF that cannot be read.
    private func trailerHasPlace() -> Bool {
        let data = bytes[trailer]
        var at = data.startIndex
        let marker: [UInt8] = [0xFF, 0xE1]
        while at + 4 < data.endIndex {
            guard let found = data[at...].firstIndex(of: 0xFF) else { return false }
            at = found + 1
            guard data[found...].starts(with: marker), data.endIndex - found >= 4 else { continue }
            let length = Int(data[found + 2]) << 8 | Int(data[found + 3])
            let payload = (found + 4)..<min(found + 2 + max(length, 2), data.endIndex)
            guard data[payload].starts(with: Self.exifIdentifier) else { continue }
            guard let directories = TIFFDirectories(Array(data[payload].dropFirst(Self.exifIdentifier.count + 1))) else { return true }
            if directories.hasGPS { return true }
        }
        return false
    }

    /// A segment of `marker` holding `payload` (at most 65,533 bytes).
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)] + payload
    }

    /// A byte as two upper-case hex digits, for messages (`E1`).
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

// MARK: - Size, quality, and metadata carried into a new encoding

extension JPEGSegments {
    /// The width and height its frame header (`SOF`) gives; `nil` without one, or with a height of 0.
    var dimensions: (width: Int, height: Int)? {
        let frames: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]
        guard let frame = segments.first(where: { frames.contains($0.marker) }), frame.payload.count >= 5 else { return nil }
        let at = frame.payload.lowerBound
        let height = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
        let width = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
        return height > 0 && width > 0 ? (width, height) : nil
    }

    /// The luminance table of JPEG's Annex K, which libjpeg scales by its quality setting.
    private static let standardLuminance = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    /// The quality (1 to 100) libjpeg's scaling would give the first
    /// quantization table's values, estimated from their sum against
    /// Annex K's; `nil` when there is no table 0.
    var estimatedQuality: Int? {
        for segment in segments where segment.marker == 0xDB {
            var at = segment.payload.lowerBound
            while at < segment.payload.upperBound {
                let precision = Int(bytes[at] >> 4), table = bytes[at] & 15
                let size = precision == 0 ? 64 : 128
                guard segment.payload.upperBound - at - 1 >= size else { break }
                if table == 0 {
                    var sum = 0
                    for index in 0..<64 {
                        sum += precision == 0 ? Int(bytes[at + 1 + index]) : Int(bytes[at + 1 + 2 * index]) << 8 | Int(bytes[at + 2 + 2 * index])
                    }
                    let scale = Double(sum) * 100 / Double(Self.standardLuminance.reduce(0, +))
                    let quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale
                    return min(100, max(1, Int(quality.rounded())))
                }
                at += 1 + size
            }
        }
        return nil
    }

    /// `encoded` (a JPEG made anew from this one's pixels, turned upright
    /// and resized to `width` × `height`) with this one's metadata put back
    /// after its JFIF header: EXIF (saying upright, with the new size), XMP,
    /// IPTC, comments, makers' segments and the ICC profile. Thumbnails,
    /// MPF's index and Adobe's segment (which speaks of the old encoding)
    /// are not carried. With `onlyColour`, only the ICC profile is.
    func carrying(into encoded: [UInt8], width: Int, height: Int, onlyColour: Bool) throws(PictureMetadataError) -> [UInt8] {
        let target = try JPEGSegments(encoded)
        var carried: [UInt8] = []
        for segment in segments {
            switch kind(of: segment) {
            case .iccProfile:
                carried += bytes[segment.range]
            case .exif where !onlyColour:
                guard var directories = TIFFDirectories(tiff(of: segment)) else { continue }
                directories.setUpright()
                directories.setPixelSize(width: width, height: height)
                carried += bytes[segment.range.lowerBound..<(segment.payload.lowerBound + Self.exifIdentifier.count + 1)] + directories.bytes
            case .xmp, .extendedXMP, .photoshop, .comment, .otherApplication:
                if !onlyColour { carried += bytes[segment.range] }
            case .jfif, .jfifThumbnail, .exif, .multiPicture, .adobe, .structure:
                continue
            }
        }
        // After the new file's own JFIF header, before its tables.
        let header = target.segments.prefix { target.kind(of: $0) == .jfif }
        let split = header.last?.range.upperBound ?? 2
        return Array(encoded[..<split]) + carried + encoded[split...]
    }
}
