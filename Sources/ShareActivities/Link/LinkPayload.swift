import FoundationEssentials
import ShareCore
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// One file Link sends: where its bytes are read from, and the name and
/// type the place is told.
struct LinkUpload: Sendable, Equatable {
    var name: String
    var path: String
    var size: Int
    var contentType: String
}

/// What Link uploads for the items: text and URLs as one UTF-8 text file
/// (`shared.txt`, or named after the subject or title), each file as
/// itself, and several as one zip (Nearby's ``ZipStream``) unless the
/// place takes several (WebDAV, rclone, S3). Files on disk are sent from
/// where they are; only the text, stdin's bytes and the zip are written,
/// in a private folder removed once the upload ends.
enum LinkPayload {
    /// The stem of the text file's and the zip's names: the subject or title, made safe, else `shared`.
    static func baseName(subject: String?) -> String {
        let words = (subject ?? "").split(whereSeparator: \.isNewline).first.map { String($0).trimmingWhitespace() } ?? ""
        guard !words.isEmpty else { return "shared" }
        let safe = ZipStream.safeName(String(words.prefix(80)))
        return safe == "file" ? "shared" : safe
    }

    /// The files to send for `items`.
    static func uploads(_ items: [ShareItem], baseName: String, place: LinkPlace, folder: String) throws(LinkFailure) -> [LinkUpload] {
        var uploads: [LinkUpload] = []
        let lines = items.compactMap { item -> String? in
            switch item {
            case .text(let text): text
            case .url(let url): url.absoluteString
            case .image, .file: nil
            }
        }
        if !lines.isEmpty {
            var text = lines.joined(separator: "\n")
            if !text.hasSuffix("\n") { text += "\n" }
            uploads.append(try write(Array(text.utf8), name: baseName + ".txt", type: "text/plain; charset=utf-8", in: folder))
        }
        for file in items.compactMap(\.fileItem) {
            switch file.storage {
            case .path(let url):
                guard let stamp = FileStamp(ofFileAt: url.path) else {
                    throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(url.path): it is gone")
                }
                uploads.append(LinkUpload(name: file.name, path: url.path, size: Int(stamp.size), contentType: file.contentType))
            case .data(let data):
                uploads.append(try write(Array(data), name: ZipStream.safeName(file.name), type: file.contentType, in: folder))
            }
        }
        if place.kind == .termbin {
            // termbin keeps text: one text, as it is.
            guard uploads.count == 1, uploads[0].contentType.lowercased().hasPrefix("text/") else {
                let what = uploads.count == 1 ? "\(uploads[0].name) is \(uploads[0].contentType)" : "these are \(uploads.count) items"
                throw LinkFailure(code: ActivityError.Code.invalidInput,
                                  "\(place.name) is a termbin place, which takes one text; \(what): choose a paste, WebDAV, rclone or S3 place")
            }
        }
        guard uploads.count > 1, !place.takesSeveral else { return uploads }
        return [try zip(uploads, name: baseName + ".zip", in: folder)]
    }

    /// The files as one stored zip, written through ``ZipStream`` into `folder`.
    static func zip(_ uploads: [LinkUpload], name: String, in folder: String) throws(LinkFailure) -> LinkUpload {
        let members = uploads.map { NearbyContent.File(name: $0.name, type: $0.contentType, size: Int64($0.size), source: .path($0.path)) }
        let path = folder + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LinkFailure(code: ActivityError.Code.ioError, "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let stream: ZipStream
        do throws(NearbyFailure) { stream = try ZipStream(files: members) } catch {
            throw LinkFailure(code: ActivityError.Code.ioError, "cannot make the zip: \(error.description)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        var size = 0
        while true {
            let count: Int
            do throws(NearbyFailure) { count = try stream.read(into: buffer) } catch {
                throw LinkFailure(code: ActivityError.Code.ioError, "cannot make the zip: \(error.description)")
            }
            if count == 0 { break }
            do throws(FileError) { try LocalFiles.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: descriptor) } catch {
                throw LinkFailure(code: ActivityError.Code.ioError, "cannot write \(path): \(error.reason)")
            }
            size += count
        }
        return LinkUpload(name: name, path: path, size: size, contentType: "application/zip")
    }

    /// A private folder (mode 0700) for what is written before it is sent.
    static func temporaryFolder(environment: [String: String]) throws(LinkFailure) -> String {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/share-link-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw LinkFailure(code: ActivityError.Code.ioError, "cannot make a folder in \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Removes `folder` and the files in it.
    static func remove(_ folder: String) {
        for name in LocalFiles.names(inFolder: folder) ?? [] { unlink(folder + "/" + name) }
        rmdir(folder)
    }

    private static func write(_ bytes: [UInt8], name: String, type: String, in folder: String) throws(LinkFailure) -> LinkUpload {
        let path = folder + "/" + name
        do { try LocalFiles.replace(path, with: bytes) } catch {
            throw LinkFailure(code: ActivityError.Code.ioError, error.description)
        }
        return LinkUpload(name: name, path: path, size: bytes.count, contentType: type)
    }
}
