import CArchive
import FoundationEssentials
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// Several files as one zip, made as it is read: libarchive writes each
/// member (stored, not compressed: photos and PDFs are compressed
/// already, and a phone waits less for bytes than for a deflater) into a
/// small buffer that ``read(into:)`` drains, a piece of a file at a time.
/// No temporary copy, and memory stays flat whatever the files' size.
///
/// libarchive rather than libzip: libzip writes an archive to a file it
/// can seek in and only at close, while libarchive writes a stream (sizes
/// in data descriptors, Zip64 past 4 GiB).
final class ZipStream {
    private let library: UnsafePointer<share_archive>
    private var archive: OpaquePointer?
    private let files: [NearbyContent.File]
    private let names: [String]
    /// The next file to start; the file being read and how far.
    private var next = 0
    private var current: (descriptor: Int32, bytes: [UInt8]?, offset: Int64, size: Int64)?
    private var closed = false
    /// What libarchive wrote that is not read yet.
    fileprivate var pending: [UInt8] = []
    private var pendingStart = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(files: [NearbyContent.File]) throws(NearbyFailure) {
        var problem = [CChar](repeating: 0, count: 256)
        guard let library = share_archive_load(&problem, problem.count) else {
            throw NearbyFailure(description: "cannot load libarchive: " + String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.library = library
        self.files = files
        names = ZipStream.uniqueNames(files.map(\.name))
        guard let archive = library.pointee.archive_write_new() else { throw NearbyFailure(description: "libarchive has no memory") }
        self.archive = archive
        _ = library.pointee.archive_write_set_format_zip(archive)
        // Names in UTF-8, flagged as such (bit 11), so unzip and Python read 사진.png, not cp437.
        _ = library.pointee.archive_write_set_options(archive, "zip:compression=store,zip:hdrcharset=UTF-8")
        // Every write reaches the buffer at once, with no padding to a block.
        _ = library.pointee.archive_write_set_bytes_per_block(archive, 0)
        let opened = library.pointee.archive_write_open(archive, Unmanaged.passUnretained(self).toOpaque(), nil, { _, context, buffer, length in
            guard let context, let buffer else { return -1 }
            let stream = Unmanaged<ZipStream>.fromOpaque(context).takeUnretainedValue()
            stream.pending.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
            return la_ssize_t(length)
        }, nil)
        guard opened == ARCHIVE_OK else { throw NearbyFailure(description: errorText()) }
    }

    deinit {
        if let descriptor = current?.descriptor, descriptor >= 0 { close(descriptor) }
        if let archive { _ = library.pointee.archive_write_free(archive) }
    }

    /// Fills `buffer` with the next bytes of the zip; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(NearbyFailure) -> Int {
        while pending.count - pendingStart == 0 {
            if closed { return 0 }
            try produce()
        }
        let count = min(buffer.count, pending.count - pendingStart)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + pendingStart, byteCount: count)
        }
        pendingStart += count
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        return count
    }

    /// Has libarchive write the next piece: a header, a file's chunk, an entry's end, the central directory.
    private func produce() throws(NearbyFailure) {
        guard let archive else { throw NearbyFailure(description: "the zip is closed") }
        if var file = current {
            if file.offset < file.size {
                let wanted = Int(min(Int64(chunk.count), file.size - file.offset))
                let got: Int
                if let bytes = file.bytes {
                    chunk.replaceSubrange(0..<wanted, with: bytes[Int(file.offset)..<Int(file.offset) + wanted])
                    got = wanted
                } else {
                    got = chunk.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, wanted, off_t(file.offset)) }
                }
                guard got > 0 else {
                    throw NearbyFailure(description: "\(names[next - 1]) could not be read (\(got < 0 ? String(cString: strerror(errno)) : "it got shorter"))")
                }
                let written = chunk.withUnsafeBytes { library.pointee.archive_write_data(archive, $0.baseAddress, got) }
                guard written == got else { throw NearbyFailure(description: errorText()) }
                file.offset += Int64(got)
                current = file
                return
            }
            if file.descriptor >= 0 { close(file.descriptor) }
            current = nil
            guard library.pointee.archive_write_finish_entry(archive) == ARCHIVE_OK else { throw NearbyFailure(description: errorText()) }
            return
        }
        guard next < files.count else {
            guard library.pointee.archive_write_close(archive) == ARCHIVE_OK else { throw NearbyFailure(description: errorText()) }
            closed = true
            return
        }
        let file = files[next]
        var descriptor: Int32 = -1
        var bytes: [UInt8]?
        switch file.source {
        case .path(let path):
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw NearbyFailure(description: "\(file.name) could not be opened (\(String(cString: strerror(errno))))") }
        case .bytes(let data):
            bytes = data
        }
        let entry = library.pointee.archive_entry_new()
        defer { library.pointee.archive_entry_free(entry) }
        library.pointee.archive_entry_set_pathname_utf8(entry, names[next])
        library.pointee.archive_entry_set_size(entry, la_int64_t(file.size))
        library.pointee.archive_entry_set_filetype(entry, share_archive_regular_file())
        library.pointee.archive_entry_set_perm(entry, 0o644)
        library.pointee.archive_entry_set_mtime(entry, time(nil), 0)
        next += 1
        current = (descriptor, bytes, 0, file.size)
        guard library.pointee.archive_write_header(archive, entry) == ARCHIVE_OK else { throw NearbyFailure(description: errorText()) }
    }

    private func errorText() -> String {
        guard let archive, let text = library.pointee.archive_error_string(archive) else { return "libarchive failed" }
        return String(cString: text)
    }

    /// `names` as a zip's entries: each made safe (``safeName(_:)``) and
    /// unique whatever the case (`a.txt`, `a (2).txt`), at most 255 bytes.
    static func uniqueNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let safe = safeName(name)
            let dot = safe.lastIndex(of: ".").flatMap { $0 == safe.startIndex ? nil : $0 }
            let stem = dot.map { String(safe[..<$0]) } ?? safe
            let suffix = dot.map { String(safe[$0...]) } ?? ""
            var number = 1
            while true {
                let candidate = fitted(stem, number == 1 ? "" : " (\(number))", suffix)
                if used.insert(candidate.lowercased()).inserted { return candidate }
                number += 1
            }
        }
    }

    /// Characters no entry name keeps: separators (`\` is one on Windows),
    /// and what Windows and Android's file systems refuse.
    private static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// Names Windows keeps for devices, with or without an extension.
    private static let reserved: Set<String> = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// `name` as one plain entry that unpacks inside the receiver's folder
    /// on Linux, macOS, Windows and Android: separators, control
    /// characters and `: * ? " < > |` become `_`; trailing dots and spaces
    /// go (Windows drops them); a device name (`CON`, `nul.txt`) gets a
    /// `_` in front; nothing left (`..`) is `file`.
    static func safeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || refused.contains(scalar) ? "_" : scalar
        })
        while let last = scalars.last, last == "." || last == " " { scalars.removeLast() }
        var safe = String(scalars)
        if safe.isEmpty { return "file" }
        let device = safe.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if reserved.contains(device.trimmingWhitespace().uppercased()) { safe = "_" + safe }
        return safe
    }

    /// `stem`, `number` and `suffix` (the extension), the stem shortened
    /// as needed to fit a file system's 255 bytes, never ending in a dot
    /// or space.
    private static func fitted(_ stem: String, _ number: String, _ suffix: String) -> String {
        var stem = stem, suffix = suffix
        while (stem + number + suffix).utf8.count > 255 {
            if stem.isEmpty { suffix.removeLast() } else { stem.removeLast() }
        }
        var name = stem + number + suffix
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        return name.isEmpty ? "file" : name
    }
}
