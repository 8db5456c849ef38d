/// What is taken out of a picture before it is shared.
public enum MetadataRemoval: Sendable, Equatable {
    /// Where it was taken: EXIF's GPS directory, XMP that names a place,
    /// IPTC's city, region and country. Everything else stays.
    case location
    /// Every piece of metadata: EXIF, XMP, IPTC, comments, PNG text and
    /// times, thumbnails and the pictures a camera appends. What a decoder
    /// needs to draw the picture as it was (JFIF, the ICC colour profile,
    /// Adobe's colour transform, the tables and the scan) stays.
    case all
}

/// A picture's bytes after ``PictureMetadata/removing(_:from:)``.
public struct CleanedPicture: Sendable, Equatable {
    /// The picture's format.
    public var format: PictureFormat
    /// The new picture in pieces, in order: segments or chunks written
    /// anew, and slices of the bytes given (the scan, the image data) that
    /// are not copied, so a large picture is written out without a second
    /// copy of it in memory.
    public var pieces: [ArraySlice<UInt8>]
    /// The new bytes, joined; the same as those given when nothing was removed.
    public var bytes: [UInt8] {
        if pieces.count == 1, let only = pieces.first { return Array(only) }
        var joined: [UInt8] = []
        joined.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { joined += piece }
        return joined
    }
    /// What was removed, in the order found (``PictureMetadata/Part``); empty when nothing was.
    public var removed: [PictureMetadata.Part]
    /// The EXIF orientation the picture had (1 to 8; 1 when it had none):
    /// with ``MetadataRemoval/all`` the picture no longer says it, so one
    /// other than 1 must be applied to the pixels to keep it upright.
    public var orientation: Int

    /// Whether anything was removed.
    public var changed: Bool { !removed.isEmpty }

    /// Whether a place was among what was removed.
    public var removedLocation: Bool { removed.contains { $0.isLocation } }

    /// A picture of `format` made of `pieces`.
    public init(format: PictureFormat, pieces: [ArraySlice<UInt8>], removed: [PictureMetadata.Part], orientation: Int) {
        self.format = format
        self.pieces = pieces
        self.removed = removed
        self.orientation = orientation
    }

    /// Equal when they say the same bytes, however those are cut into pieces.
    public static func == (left: CleanedPicture, right: CleanedPicture) -> Bool {
        left.format == right.format && left.removed == right.removed && left.orientation == right.orientation && left.bytes == right.bytes
    }
}

/// The picture formats whose metadata share rewrites.
public enum PictureFormat: Sendable, Equatable {
    /// JPEG (JFIF or EXIF), from its `SOI` marker.
    case jpeg
    /// PNG, from its eight-byte signature.
    case png

    /// The format of `bytes`, from their signature; `nil` for any other.
    public init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: PNGChunks.signature) {
            self = .png
        } else {
            return nil
        }
    }
}

/// Why a picture's metadata could not be rewritten: the file is not what
/// its format says (cut short, a length past its end). Nothing was written.
public struct PictureMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words that say where.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Metadata taken out of JPEG and PNG pictures without decoding them.
///
/// A JPEG's segments before its first scan are read one by one and those
/// that carry metadata are dropped or rewritten; the scan itself, from its
/// `SOS` marker to `EOI`, is copied byte for byte, so the picture decodes
/// to exactly the same pixels. A PNG's chunks are treated the same way,
/// its image data copied as it is. The readers check every length against
/// the bytes there are: a malformed file is an error, never a read past
/// its end.
public enum PictureMetadata {
    /// A piece of metadata found and removed.
    public enum Part: String, Sendable, Equatable {
        /// EXIF's GPS directory (latitude, longitude, altitude, time of fix).
        case gps = "GPS"
        /// An XMP packet (naming a place, for ``MetadataRemoval/location``).
        case xmp = "XMP"
        /// IPTC's place: city, sub-location, province or state, country.
        case iptcLocation = "IPTC location"
        /// EXIF as a whole (camera, times, settings, orientation, thumbnail).
        case exif = "EXIF"
        /// EXIF that could not be read: removed whole, since it may hold a place.
        case unreadableEXIF = "unreadable EXIF"
        /// IPTC or other Photoshop information as a whole.
        case iptc = "IPTC"
        /// A comment (JPEG `COM`).
        case comment = "comment"
        /// PNG text chunks (`tEXt`, `zTXt`, `iTXt`).
        case text = "text"
        /// PNG's modification time (`tIME`).
        case time = "time"
        /// A thumbnail (JFIF's extension) or the pictures a camera appends after the image (MPF).
        case thumbnail = "thumbnail"
        /// Another application segment (FlashPix, a maker's data).
        case other = "other metadata"

        /// Whether the part says where the picture was taken.
        public var isLocation: Bool { self == .gps || self == .iptcLocation || self == .xmp || self == .unreadableEXIF }
    }

    /// The picture in `bytes` with `removal` applied.
    ///
    /// - Throws: ``PictureMetadataError`` when the bytes are neither JPEG
    ///   nor PNG, or their structure is broken before the image data.
    public static func removing(_ removal: MetadataRemoval, from bytes: [UInt8]) throws(PictureMetadataError) -> CleanedPicture {
        try PictureReading(bytes).removing(removal)
    }

    /// The EXIF orientation of a JPEG or PNG (1 to 8), 1 when it has none
    /// or it cannot be read.
    public static func orientation(of bytes: [UInt8]) -> Int {
        (try? PictureReading(bytes))?.orientation ?? 1
    }
}

/// A JPEG's segments or a PNG's chunks, read once: what the options
/// before sharing ask of a picture (orientation, size, quality, the
/// picture without its metadata) without reading it again for each. A
/// JPEG is read to the end of its scan to find what follows it, so one
/// reading of a camera's 5 MB picture saves three more passes.
public struct PictureReading {
    private enum Structure {
        case jpeg(JPEGSegments)
        case png(PNGChunks)
    }

    private let structure: Structure

    /// Reads `bytes`.
    ///
    /// - Throws: ``PictureMetadataError`` when the bytes are neither JPEG
    ///   nor PNG, or their structure is broken before the image data.
    public init(_ bytes: [UInt8]) throws(PictureMetadataError) {
        switch PictureFormat(sniffing: bytes) {
        case .jpeg?: structure = .jpeg(try JPEGSegments(bytes))
        case .png?: structure = .png(try PNGChunks(bytes))
        case nil: throw PictureMetadataError("only JPEG and PNG pictures can be rewritten")
        }
    }

    /// The EXIF orientation (1 to 8), 1 when there is none.
    public var orientation: Int {
        switch structure {
        case .jpeg(let jpeg): jpeg.orientation
        case .png(let png): png.orientation
        }
    }

    /// The width and height a JPEG's frame header or a PNG's `IHDR` gives.
    public var dimensions: (width: Int, height: Int)? {
        switch structure {
        case .jpeg(let jpeg): jpeg.dimensions
        case .png(let png): png.dimensions
        }
    }

    /// The quality a JPEG was saved at (``PictureMetadata/jpegQuality(of:)``); `nil` for a PNG.
    public var jpegQuality: Int? {
        if case .jpeg(let jpeg) = structure { return jpeg.estimatedQuality }
        return nil
    }

    /// The picture with `removal` applied.
    public func removing(_ removal: MetadataRemoval) -> CleanedPicture {
        switch structure {
        case .jpeg(let jpeg): jpeg.removing(removal)
        case .png(let png): png.removing(removal)
        }
    }
}

// MARK: - Pictures encoded anew (turned upright, resized)

extension PictureMetadata {
    /// The width and height a JPEG's frame header or a PNG's `IHDR` gives,
    /// without decoding. `bytes` may be the file's start only: a PNG's
    /// first 24 bytes, a JPEG's up to its first scan.
    public static func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        if PictureFormat(sniffing: bytes) == .png { return PNGChunks.dimensions(atStartOf: bytes) }
        return (try? PictureReading(bytes))?.dimensions
    }

    /// The quality a JPEG was saved at (1 to 100), estimated from its
    /// luminance quantization table as libjpeg scales it; `nil` for a PNG
    /// or a JPEG without that table.
    public static func jpegQuality(of bytes: [UInt8]) -> Int? {
        guard PictureFormat(sniffing: bytes) == .jpeg else { return nil }
        return (try? PictureReading(bytes))?.jpegQuality
    }

    /// `encoded`, a picture made anew from the pixels of `original` (turned
    /// upright and resized to `width` × `height`, in the same format), with
    /// the metadata of `original` that `removal` leaves put back into it:
    /// EXIF saying upright and giving the new size, XMP, IPTC, comments,
    /// PNG text; with ``MetadataRemoval/all`` only a JPEG's ICC profile.
    ///
    /// - Throws: ``PictureMetadataError`` when either picture cannot be read.
    public static func carrying(from original: [UInt8], removing removal: MetadataRemoval?, into encoded: [UInt8],
                                width: Int, height: Int) throws(PictureMetadataError) -> [UInt8] {
        let source = removal == .location ? try removing(.location, from: original).bytes : original
        let onlyColour = removal == .all
        switch PictureFormat(sniffing: source) {
        case .jpeg?: return try JPEGSegments(source).carrying(into: encoded, width: width, height: height, onlyColour: onlyColour)
        case .png?: return try PNGChunks(source).carrying(into: encoded, width: width, height: height, onlyColour: onlyColour)
        case nil: throw PictureMetadataError("only JPEG and PNG pictures can be rewritten")
        }
    }
}
