import CThumbnail
#if canImport(Glibc)
import Glibc
#endif
import ShareCore

/// What was done to one picture before it was shared.
struct PictureChange: Sendable {
    /// The new picture, in pieces written one after another (``CleanedPicture/pieces``); `nil` when it stays as it is.
    var pieces: [ArraySlice<UInt8>]?
    /// The metadata removed.
    var removed: [PictureMetadata.Part] = []
    /// Whether it was turned upright (its EXIF orientation applied to the pixels).
    var turned = false
    /// Its new size, when it was scaled down.
    var resized: (width: Int, height: Int)?

    /// Nothing done.
    static let none = PictureChange(pieces: nil)
}

/// Why a picture could not be changed as asked: the words say what is wrong with it.
struct PictureChangeError: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The changes themselves: metadata rewritten in Swift (``PictureMetadata``),
/// pixels turned and scaled through libjpeg-turbo and libpng (`CThumbnail`).
/// Pure functions of the bytes, run off the main actor.
enum PictureWork {
    /// The quality a JPEG is encoded at when its own cannot be told.
    static let defaultQuality = 90

    /// `bytes` (a JPEG or PNG) with `removal` applied and scaled down to
    /// `longestSide`; ``PictureChange/none`` when neither changes anything.
    ///
    /// A picture is decoded only when it must be: to be scaled down, or to
    /// be turned upright when its orientation goes with the rest of its
    /// metadata and its blocks cannot be moved losslessly.
    static func change(_ bytes: [UInt8], removal: MetadataRemoval?, longestSide: Int?) throws(PictureChangeError) -> PictureChange {
        // Read once: a JPEG's reading goes through its whole scan.
        let reading = Result { () throws(PictureMetadataError) in try PictureReading(bytes) }
        let orientation = (try? reading.get())?.orientation ?? 1
        let size = (try? reading.get())?.dimensions
        var cleaned: CleanedPicture?
        if let removal {
            do { cleaned = try reading.get().removing(removal) } catch { throw PictureChangeError(error.message) }
        }
        let removed = cleaned?.removed ?? []
        let quality = (try? reading.get())?.jpegQuality ?? defaultQuality
        if let longestSide, size.map({ max($0.width, $0.height) > longestSide }) ?? true {
            let encoded = try rework(bytes, orientation: orientation, longestSide: longestSide, quality: quality)
            do {
                let carried = try PictureMetadata.carrying(from: bytes, removing: removal, into: encoded.bytes, width: encoded.width,
                                                           height: encoded.height)
                return PictureChange(pieces: [carried[...]], removed: removed, turned: orientation != 1, resized: (encoded.width, encoded.height))
            } catch {
                throw PictureChangeError(error.message)
            }
        }
        if removal == .all && orientation != 1 {
            // Turned upright first, so that the picture stands as it did with its orientation gone.
            var upright = PictureFormat(sniffing: bytes) == .jpeg ? turnLosslessly(bytes, orientation: orientation) : nil
            if upright == nil {
                let encoded = try rework(bytes, orientation: orientation, longestSide: 0, quality: quality)
                upright = try? PictureMetadata.carrying(from: bytes, removing: .all, into: encoded.bytes, width: encoded.width,
                                                        height: encoded.height)
            }
            guard let upright, let bare = try? PictureMetadata.removing(.all, from: upright) else {
                throw PictureChangeError("it could not be turned upright")
            }
            return PictureChange(pieces: bare.pieces, removed: removed, turned: true)
        }
        guard let cleaned, cleaned.changed else { return .none }
        return PictureChange(pieces: cleaned.pieces, removed: removed)
    }

    /// A JPEG turned upright without decoding (libjpeg-turbo's lossless
    /// transform); `nil` when its edge blocks are partial or it cannot be read.
    static func turnLosslessly(_ bytes: [UInt8], orientation: Int) -> [UInt8]? {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: 256)
        let capacity = error.count
        let status = bytes.withUnsafeBufferPointer { buffer in
            share_jpeg_turn(buffer.baseAddress, buffer.count, Int32(orientation), &output, &size, &error, capacity)
        }
        guard status == 0, let output else { return nil }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The picture decoded, turned by `orientation`, scaled so its longest
    /// side is at most `longestSide` (0: its size kept) and encoded again
    /// in its own format (a JPEG at `quality`), without metadata.
    static func rework(_ bytes: [UInt8], orientation: Int, longestSide: Int,
                       quality: Int) throws(PictureChangeError) -> (bytes: [UInt8], width: Int, height: Int) {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var width: Int32 = 0, height: Int32 = 0
        var error = [CChar](repeating: 0, count: 256)
        let capacity = error.count
        let status = bytes.withUnsafeBufferPointer { buffer in
            share_image_rework(buffer.baseAddress, buffer.count, Int32(orientation), Int32(longestSide), Int32(quality), &output, &size,
                               &width, &height, &error, capacity)
        }
        guard status == 0, let output else {
            throw PictureChangeError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(output) }
        return (Array(UnsafeBufferPointer(start: output, count: size)), Int(width), Int(height))
    }
}
