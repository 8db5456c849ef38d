import Foundation
@testable import ShareCore
import Testing

/// Pictures built byte by byte, so that every segment and offset is known.
enum PictureBytes {
    /// A big- or little-endian number of `size` bytes.
    static func number(_ value: Int, size: Int, little: Bool = false) -> [UInt8] {
        (0..<size).map { index in UInt8(truncatingIfNeeded: value >> (8 * (little ? index : size - 1 - index))) }
    }

    /// A JPEG segment.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + number(payload.count + 2, size: 2) + payload
    }

    /// TIFF data with IFD0 (Make "Cam", the orientation, and a GPS pointer
    /// when `gps`), then a GPS directory with a latitude (a RATIONAL triple, out of line).
    static func tiff(orientation: Int = 1, gps: Bool = true, little: Bool = false) -> [UInt8] {
        func n(_ value: Int, _ size: Int) -> [UInt8] { number(value, size: size, little: little) }
        let entryCount = gps ? 3 : 2
        let ifd0 = 8
        let ifd0End = ifd0 + 2 + entryCount * 12 + 4
        let make = ifd0End                     // "Cam\0" fits in the value field; kept for the layout
        let gpsIFD = make
        let gpsEnd = gpsIFD + 2 + 2 * 12 + 4
        let latitude = gpsEnd
        var bytes: [UInt8] = (little ? [0x49, 0x49, 42, 0] : [0x4D, 0x4D, 0, 42]) + n(ifd0, 4)
        bytes += n(entryCount, 2)
        bytes += n(0x010F, 2) + n(2, 2) + n(4, 4) + Array("Cam\u{0}".utf8)
        bytes += n(0x0112, 2) + n(3, 2) + n(1, 4) + n(orientation, 2) + [0, 0]
        if gps { bytes += n(0x8825, 2) + n(4, 2) + n(1, 4) + n(gpsIFD, 4) }
        bytes += n(0, 4)
        guard gps else { return bytes }
        bytes += n(2, 2)
        bytes += n(0x0001, 2) + n(2, 2) + n(2, 4) + Array("N\u{0}\u{0}\u{0}".utf8)
        bytes += n(0x0002, 2) + n(5, 2) + n(3, 4) + n(latitude, 4)
        bytes += n(0, 4)
        bytes += n(37, 4) + n(1, 4) + n(33, 4) + n(1, 4) + n(5940, 4) + n(100, 4)
        return bytes
    }

    static let jfif = segment(0xE0, Array("JFIF\u{0}".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
    static func exif(_ tiff: [UInt8]) -> [UInt8] { segment(0xE1, Array("Exif\u{0}\u{0}".utf8) + tiff) }
    static func xmp(_ text: String) -> [UInt8] {
        segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8) + Array(text.utf8))
    }
    static let placeXMP = xmp("<x:xmpmeta><rdf:Description photoshop:City=\"Seoul\" dc:format=\"image/jpeg\"/></x:xmpmeta>")
    static let plainXMP = xmp("<x:xmpmeta><rdf:Description xmp:Rating=\"5\"/></x:xmpmeta>")
    static let icc = segment(0xE2, Array("ICC_PROFILE\u{0}".utf8) + [1, 1] + Array(repeating: 7, count: 20))
    static let adobe = segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1])
    static let comment = segment(0xFE, Array("shot at home".utf8))
    static let tables = segment(0xDB, [0] + Array(repeating: 1, count: 64))
    static let frame = segment(0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0])

    /// IPTC records: a keyword, a city and a country.
    static let iptc: [UInt8] = {
        func dataSet(_ number: UInt8, _ text: String) -> [UInt8] { [0x1C, 2, number] + PictureBytes.number(text.utf8.count, size: 2) + Array(text.utf8) }
        return dataSet(25, "kept") + dataSet(90, "Seoul") + dataSet(101, "Korea")
    }()

    /// Photoshop's resources: IPTC (0x0404) and another resource kept as it is.
    static func photoshop(_ records: [UInt8] = iptc) -> [UInt8] {
        func resource(_ id: Int, _ data: [UInt8]) -> [UInt8] {
            Array("8BIM".utf8) + number(id, size: 2) + [0, 0] + number(data.count, size: 4) + data + (data.count % 2 == 1 ? [0] : [])
        }
        return segment(0xED, Array("Photoshop 3.0\u{0}".utf8) + resource(0x0404, records) + resource(0x03ED, [0, 72, 0, 1, 0, 1, 0, 72, 0, 1, 0, 1]))
    }

    /// A scan: the SOS header, then entropy-coded bytes with a stuffed 0xFF, a restart marker and fill, then EOI.
    static let scan: [UInt8] = segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD9]

    /// A whole JPEG with every kind of metadata, and a trailer after EOI when asked.
    static func camera(orientation: Int = 1, gps: Bool = true, trailer: [UInt8] = []) -> [UInt8] {
        [0xFF, 0xD8] + jfif + exif(tiff(orientation: orientation, gps: gps)) + placeXMP + icc + photoshop() + adobe + comment
            + tables + frame + scan + trailer
    }

    /// The bytes from the first SOS marker to the end.
    static func scanPart(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        guard let index = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }) else { return [] }
        return bytes[index...]
    }

    /// A PNG chunk with its CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { PNGChunks.chunk(type, data) }

    static let header = chunk("IHDR", number(2, size: 4) + number(2, size: 4) + [8, 2, 0, 0, 0])
    static let imageData = chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0, 0, 0, 4, 0, 1])

    /// A PNG with text, XMP that names a place, EXIF with GPS, and a time.
    static func png(orientation: Int = 1) -> [UInt8] {
        let xmpText = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<rdf:Description exif:GPSLatitude=\"37,33N\"/>".utf8)
        return PNGChunks.signature + header + chunk("tEXt", Array("Comment\u{0}hello".utf8)) + chunk("iTXt", xmpText)
            + chunk("eXIf", tiff(orientation: orientation, little: true)) + chunk("tIME", [7, 232, 1, 1, 10, 0, 0]) + imageData + chunk("IEND", [])
    }
}

/// Metadata removed from JPEG and PNG pictures without decoding them.
@Suite struct PictureMetadataTests {
    /// The size in pixels from a picture's header: of the whole file, or of
    /// its start only (Matrix reads a big picture's first 64 KiB for it).
    @Test func theSizeComesFromTheHeaderOfTheWholeFileOrItsStart() {
        func size(_ bytes: [UInt8]) -> [Int]? { PictureMetadata.dimensions(of: bytes).map { [$0.width, $0.height] } }
        let number = { (value: Int) in PictureBytes.number(value, size: 4) }
        let png = PNGChunks.signature + PictureBytes.chunk("IHDR", number(3) + number(2) + [8, 2, 0, 0, 0]) + PictureBytes.imageData
            + PictureBytes.chunk("IEND", [])
        #expect(size(png) == [3, 2])
        #expect(size(Array(png.prefix(24))) == [3, 2], "IHDR is the first chunk: 24 bytes say the size")
        #expect(size(Array(png.prefix(23))) == nil)
        let noHeader = PNGChunks.signature + PictureBytes.chunk("IDAT", number(3) + number(2) + [8, 2, 0, 0, 0])
        #expect(size(noHeader) == nil, "the first chunk is not IHDR")
        // A frame 32 wide and 16 high (SOF0 gives the height first).
        let frame = PictureBytes.segment(0xC0, [8, 0, 16, 0, 32, 1, 1, 0x11, 0])
        let jpeg = [0xFF, 0xD8] + PictureBytes.jfif + PictureBytes.tables + frame + PictureBytes.scan
        #expect(size(jpeg) == [32, 16])
        let scanAt = jpeg.count - PictureBytes.scan.count
        #expect(size(Array(jpeg.prefix(scanAt + 12))) == [32, 16], "cut inside the scan")
        #expect(size(Array(jpeg.prefix(scanAt - frame.count))) == nil, "cut before the frame header")
    }

    @Test func locationLeavesEverythingButThePlaceAndTheScanUnchanged() throws {
        let original = PictureBytes.camera(orientation: 6)
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.gps, .xmp, .iptcLocation])
        #expect(cleaned.removedLocation && cleaned.orientation == 6)
        #expect(PictureBytes.scanPart(cleaned.bytes) == PictureBytes.scanPart(original))
        let segments = try JPEGSegments(cleaned.bytes)
        let kinds = segments.segments.map { segments.kind(of: $0) }
        #expect(kinds == [.jfif, .exif, .iccProfile, .photoshop, .adobe, .comment, .structure, .structure])
        // EXIF: as long as before, Make and orientation kept, no GPS pointer, not a byte of the latitude left.
        let exif = try #require(segments.segments.first { segments.kind(of: $0) == .exif })
        let tiff = try #require(TIFFDirectories(Array(cleaned.bytes[exif.payload].dropFirst(6))))
        #expect(!tiff.hasGPS && tiff.orientation == 6)
        #expect(tiff.bytes.count == PictureBytes.tiff().count)
        let ifd0 = try #require(tiff.entries(at: 8))
        #expect(ifd0.map(\.tag) == [0x010F, 0x0112])
        #expect(!containsNumber(tiff.bytes, 5940), "the latitude's seconds are zeroed")
        #expect(tiff.chain() == [8], "the next-directory pointer moved up with the entries: \(tiff.chain())")
        // IPTC: the keyword stays, the city and country go.
        let photoshop = try #require(segments.segments.first { segments.kind(of: $0) == .photoshop })
        let text = String(decoding: cleaned.bytes[photoshop.payload], as: UTF8.self)
        #expect(text.contains("kept") && !text.contains("Seoul") && !text.contains("Korea"))
        #expect(String(decoding: cleaned.bytes, as: UTF8.self).contains("shot at home"), "a comment is no place")
    }

    func containsNumber(_ bytes: [UInt8], _ value: Int) -> Bool {
        let needle = PictureBytes.number(value, size: 4)
        return (0...(bytes.count - 4)).contains { Array(bytes[$0..<($0 + 4)]) == needle }
    }

    @Test func everythingLeavesWhatTheDecoderNeedsAndReportsTheOrientation() throws {
        let original = PictureBytes.camera(orientation: 8, trailer: [0xFF, 0xD8, 0xFF, 0xD9])
        let cleaned = try PictureMetadata.removing(.all, from: original)
        #expect(cleaned.orientation == 8)
        #expect(Set(cleaned.removed) == [.exif, .xmp, .iptc, .comment, .thumbnail])
        let expected = [0xFF, 0xD8] + PictureBytes.jfif + PictureBytes.icc + PictureBytes.adobe + PictureBytes.tables + PictureBytes.frame
            + PictureBytes.scan
        #expect(cleaned.bytes == expected)
    }

    @Test func aPictureWithoutAPlaceIsLeftAsItIs() throws {
        let original = [0xFF, 0xD8] + PictureBytes.jfif + PictureBytes.exif(PictureBytes.tiff(gps: false)) + PictureBytes.plainXMP
            + PictureBytes.photoshop(Array(PictureBytes.iptc.prefix(9))) + PictureBytes.tables + PictureBytes.frame + PictureBytes.scan
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(!cleaned.changed && cleaned.bytes == original)
    }

    @Test func littleEndianEXIFLosesItsGPSToo() throws {
        let original = [0xFF, 0xD8] + PictureBytes.exif(PictureBytes.tiff(orientation: 3, little: true)) + PictureBytes.frame + PictureBytes.scan
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.gps] && cleaned.orientation == 3)
        #expect(PictureMetadata.orientation(of: cleaned.bytes) == 3)
    }

    @Test func malformedSegmentsAreRefusedWithWhereAndWhat() {
        let start: [UInt8] = [0xFF, 0xD8]
        let cases: [([UInt8], String)] = [
            (start + [0xFF, 0xE1, 0x00, 0x01], "under 2"),
            (start + [0xFF, 0xE1, 0x10, 0x00, 1, 2, 3], "runs past the end"),
            (start + PictureBytes.jfif + [0x12, 0x34], "where a marker must be"),
            (start + [0xFF, 0xD9], "before any image data"),
            (start + PictureBytes.jfif, "ends before its image data"),
            ([0xFF, 0xD8, 0xFF], "ends inside"),
        ]
        for (bytes, words) in cases {
            #expect(throws: PictureMetadataError.self) { try PictureMetadata.removing(.all, from: bytes) }
            do {
                _ = try PictureMetadata.removing(.location, from: bytes)
            } catch {
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
    }

    @Test func everyCutOfAPictureIsReadOrRefusedNeverOverrun() {
        for picture in [PictureBytes.camera(orientation: 6, trailer: [0xFF, 0xD8, 0xFF, 0xE1, 0, 2]), PictureBytes.png(orientation: 6)] {
            for length in 0...picture.count {
                let cut = Array(picture.prefix(length))
                for removal in [MetadataRemoval.location, .all] {
                    if let cleaned = try? PictureMetadata.removing(removal, from: cut) {
                        #expect(cleaned.bytes.count <= cut.count)
                    }
                }
                _ = PictureMetadata.orientation(of: cut)
            }
        }
    }

    @Test func aSegmentOfTheLargestLengthIsRead() throws {
        let payload = Array("Exif\u{0}\u{0}".utf8) + PictureBytes.tiff() + Array(repeating: 0, count: 65_533 - 6 - PictureBytes.tiff().count)
        let big = PictureBytes.segment(0xE1, payload)
        #expect(big[2] == 0xFF && big[3] == 0xFF)
        let original = [0xFF, 0xD8] + big + PictureBytes.frame + PictureBytes.scan
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.gps] && cleaned.bytes.count == original.count)
    }

    @Test func directoriesThatLoopOrPointOutsideEndWithoutHarm() throws {
        var looping = PictureBytes.tiff(gps: false)
        // IFD0's next pointer back to IFD0 itself.
        looping.replaceSubrange(34..<38, with: PictureBytes.number(8, size: 4))
        #expect(TIFFDirectories(looping)?.chain() == [8])
        var outside = PictureBytes.tiff()
        // The GPS pointer far past the end, and a huge entry count in a copy.
        outside.replaceSubrange(42..<46, with: PictureBytes.number(0x7FFF_FFF0, size: 4))
        var directories = try #require(TIFFDirectories(outside))
        let removedOutside = directories.removeGPS()
        #expect(removedOutside)
        var selfPointing = PictureBytes.tiff()
        selfPointing.replaceSubrange(42..<46, with: PictureBytes.number(8, size: 4))
        var pointing = try #require(TIFFDirectories(selfPointing))
        let removedItself = pointing.removeGPS()
        #expect(removedItself)
        var counted = PictureBytes.tiff()
        counted.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        #expect(TIFFDirectories(counted) == nil)
        // Unreadable EXIF under `location` goes whole: it may hold a place.
        let original = [0xFF, 0xD8] + PictureBytes.exif(counted) + PictureBytes.frame + PictureBytes.scan
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.unreadableEXIF] && cleaned.removedLocation)
    }

    @Test func aGPSValuePointingAtTheHeaderLeavesTheHeaderAndNothingToRemoveAgain() throws {
        // The latitude's values said to start at offset 0, over the byte order: zeroing them must not unmake the TIFF.
        var tiff = PictureBytes.tiff()
        tiff.replaceSubrange(72..<76, with: PictureBytes.number(0, size: 4))
        let original = [0xFF, 0xD8] + PictureBytes.exif(tiff) + PictureBytes.frame + PictureBytes.scan
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.gps])
        #expect(!(try PictureMetadata.removing(.location, from: cleaned.bytes)).changed, "nothing is left to remove")
    }

    @Test func appendedPicturesGoWhenTheirEXIFHasAPlace() throws {
        let appended = [0xFF, 0xD8] + PictureBytes.exif(PictureBytes.tiff()) + PictureBytes.scan
        let mpf = PictureBytes.segment(0xE2, Array("MPF\u{0}".utf8) + [0x4D, 0x4D, 0, 42])
        let original = [0xFF, 0xD8] + mpf + PictureBytes.frame + PictureBytes.scan + appended
        let cleaned = try PictureMetadata.removing(.location, from: original)
        #expect(cleaned.removed == [.gps])
        #expect(cleaned.bytes == [0xFF, 0xD8] + PictureBytes.frame + PictureBytes.scan)
        let harmless = [0xFF, 0xD8] + PictureBytes.exif(PictureBytes.tiff(gps: false)) + PictureBytes.scan
        let kept = try PictureMetadata.removing(.location, from: [0xFF, 0xD8] + mpf + PictureBytes.frame + PictureBytes.scan + harmless)
        #expect(!kept.changed)
    }

    @Test func aProgressiveScanIsWalkedToItsEnd() throws {
        // Two scans with a table between them, then EOI and a trailer.
        let scans = PictureBytes.segment(0xDA, [1, 1, 0, 0, 0, 0]) + [0x01, 0xFF, 0x00] + PictureBytes.segment(0xC4, [0, 0xFF, 0xD9])
            + PictureBytes.segment(0xDA, [1, 1, 0, 1, 63, 0]) + [0x02, 0xFF, 0xD9]
        let original = [0xFF, 0xD8] + PictureBytes.comment + PictureBytes.frame + scans + [9, 9, 9]
        let cleaned = try PictureMetadata.removing(.all, from: original)
        #expect(cleaned.bytes == [0xFF, 0xD8] + PictureBytes.frame + scans)
    }

    @Test func pngLosesTextEXIFAndTimeOrOnlyThePlace() throws {
        let original = PictureBytes.png(orientation: 6)
        let all = try PictureMetadata.removing(.all, from: original)
        #expect(all.removed == [.text, .exif, .time] && all.orientation == 6)
        #expect(all.bytes == PNGChunks.signature + PictureBytes.header + PictureBytes.imageData + PictureBytes.chunk("IEND", []))
        let location = try PictureMetadata.removing(.location, from: original)
        #expect(location.removed == [.xmp, .gps])
        let chunks = try PNGChunks(location.bytes)
        #expect(chunks.chunks.map(\.type) == ["IHDR", "tEXt", "eXIf", "tIME", "IDAT", "IEND"])
        let exif = try #require(chunks.chunks.first { $0.type == "eXIf" })
        let stored = Array(location.bytes[exif.range.suffix(4)])
        #expect(stored == PictureBytes.number(Int(CRC32.checksum(Array(location.bytes[(exif.range.lowerBound + 4)..<(exif.range.upperBound - 4)]))), size: 4))
        #expect(TIFFDirectories(Array(location.bytes[exif.data]))?.hasGPS == false)
    }

    @Test func theChecksumIsPNGs() {
        // The IEND chunk's CRC, as every PNG has it.
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test func brokenPNGsAreRefused() {
        let cases: [[UInt8]] = [
            PNGChunks.signature,
            PNGChunks.signature + PictureBytes.imageData,
            PNGChunks.signature + PictureBytes.header,
            PNGChunks.signature + [0, 0, 0, 9, 0x31, 0x32, 0x33, 0x34] + Array(repeating: 0, count: 20),
            PNGChunks.signature + [0x7F, 0xFF, 0xFF, 0xFF] + Array("IHDR".utf8) + Array(repeating: 0, count: 20),
        ]
        for bytes in cases {
            #expect(throws: PictureMetadataError.self) { try PictureMetadata.removing(.all, from: bytes) }
        }
        #expect(throws: PictureMetadataError.self) { try PictureMetadata.removing(.all, from: Array("GIF89a".utf8)) }
    }
}
