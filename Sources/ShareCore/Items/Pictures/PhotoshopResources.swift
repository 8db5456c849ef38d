/// Photoshop's image resources (a JPEG's `APP13 Photoshop 3.0`), where
/// IPTC lives, and sometimes copies of EXIF and XMP: read, and written
/// again without the place.
struct PhotoshopResources {
    /// The segment's identifier, before the resources.
    static let identifier = Array("Photoshop 3.0\u{0}".utf8)

    /// One resource: its bytes as they stand (signature to padding), and
    /// where its data is among them.
    struct Resource {
        var id: Int
        var raw: ArraySlice<UInt8>
        var data: Range<Int>
    }

    /// The resource numbers that matter here.
    enum ID {
        static let iptc = 0x0404
        static let exif = 0x0422
        static let exifThird = 0x0423
        static let xmp = 0x0424
    }

    var resources: [Resource] = []

    /// Reads the resources after the identifier; `nil` when one does not fit.
    init?(_ segment: ArraySlice<UInt8>) {
        guard segment.starts(with: Self.identifier) else { return nil }
        var at = segment.startIndex + Self.identifier.count
        while at < segment.endIndex {
            // Some writers pad the end with zeros.
            if segment[at] == 0 && segment[at...].allSatisfy({ $0 == 0 }) { break }
            let start = at
            guard segment.endIndex - at >= 7 else { return nil }
            let id = Int(segment[at + 4]) << 8 | Int(segment[at + 5])
            let nameLength = Int(segment[at + 6])
            at += 6 + (1 + nameLength + 1) / 2 * 2
            guard segment.endIndex - at >= 4 else { return nil }
            let size = segment[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            at += 4
            guard size <= segment.endIndex - at else { return nil }
            let data = at..<(at + size)
            at += size
            // The padding to an even size, when the writer put it there.
            if size % 2 == 1 && at < segment.endIndex { at += 1 }
            resources.append(Resource(id: id, raw: segment[start..<at], data: data))
        }
    }

    /// The segment without the place: IPTC's place datasets removed, a copy
    /// of EXIF without its GPS directory, an XMP copy that names a place
    /// removed. `nil` when nothing changed; the parts removed otherwise.
    func withoutPlace() -> (bytes: [UInt8], removed: [PictureMetadata.Part])? {
        var removed: [PictureMetadata.Part] = []
        var output = Self.identifier
        for resource in resources {
            let data = resource.raw[resource.data]
            switch resource.id {
            case ID.iptc:
                if let records = IPTCRecords(data) {
                    if records.hasPlace {
                        output += Self.resource(like: resource, data: records.withoutPlace())
                        removed.append(.iptcLocation)
                        continue
                    }
                } else {
                    // Records that cannot be read may hold a place: they go.
                    removed.append(.iptc)
                    continue
                }
            case ID.exif, ID.exifThird:
                let tiff = TIFFDirectories(Array(data))
                if let tiff, tiff.hasGPS {
                    if let cleaned = tiff.withoutGPS() {
                        output += Self.resource(like: resource, data: cleaned[...])
                        removed.append(.gps)
                    } else {
                        removed.append(.unreadableEXIF)
                    }
                    continue
                } else if tiff == nil {
                    removed.append(.unreadableEXIF)
                    continue
                }
            case ID.xmp:
                if PlaceNames.inXMP(data) {
                    removed.append(.xmp)
                    continue
                }
            default: break
            }
            output += resource.raw
        }
        return removed.isEmpty ? nil : (output, removed)
    }

    /// A resource with the signature, number and name of `resource` and `data`, padded to an even size.
    private static func resource(like resource: Resource, data: ArraySlice<UInt8>) -> [UInt8] {
        let head = resource.raw[resource.raw.startIndex..<(resource.data.lowerBound - 4)]
        let size = data.count
        var bytes = Array(head) + [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16),
                                   UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size)]
        bytes += data
        if size % 2 == 1 { bytes.append(0) }
        return bytes
    }
}

/// IPTC's Information Interchange Model records (Photoshop resource 0x0404).
struct IPTCRecords {
    /// One dataset: its record and dataset numbers, and its bytes (tag to data).
    struct DataSet {
        var record: UInt8
        var number: UInt8
        var raw: ArraySlice<UInt8>
    }

    var dataSets: [DataSet] = []
    /// What follows the last dataset (zeros some writers pad with).
    var tail: ArraySlice<UInt8> = []

    /// Reads the datasets; `nil` when one does not fit or a tag is not where one must be.
    init?(_ bytes: ArraySlice<UInt8>) {
        var at = bytes.startIndex
        while at < bytes.endIndex {
            if bytes[at] == 0 && bytes[at...].allSatisfy({ $0 == 0 }) { tail = bytes[at...]; break }
            guard bytes[at] == 0x1C, bytes.endIndex - at >= 5 else { return nil }
            let start = at
            var length = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
            at += 5
            if length & 0x8000 != 0 {
                // The extended form: the length's own length, then the length.
                let size = length & 0x7FFF
                guard size <= 4, bytes.endIndex - at >= size else { return nil }
                length = bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) }
                at += size
            }
            guard length <= bytes.endIndex - at else { return nil }
            at += length
            dataSets.append(DataSet(record: bytes[start + 1], number: bytes[start + 2], raw: bytes[start..<at]))
        }
    }

    /// Whether a dataset gives a place.
    var hasPlace: Bool { dataSets.contains(where: Self.givesPlace) }

    /// The records without the datasets that give a place.
    func withoutPlace() -> ArraySlice<UInt8> {
        var bytes: [UInt8] = []
        for dataSet in dataSets where !Self.givesPlace(dataSet) { bytes += dataSet.raw }
        return (bytes + tail)[...]
    }

    private static func givesPlace(_ dataSet: DataSet) -> Bool {
        dataSet.record == 2 && PlaceNames.iptcDatasets.contains(dataSet.number)
    }
}
