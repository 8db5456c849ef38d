import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Save to Pictures: images, and images behind URLs, copied into the
/// pictures folder (`XDG_PICTURES_DIR` of `user-dirs.dirs`, else `~/Pictures`).
///
/// The bytes are written to a hidden temporary file in that folder,
/// flushed to disk, and only then linked under their final name, which is
/// never one that exists (`name-2.png`, `name-3.png` …: `link` fails
/// rather than replace). So no file is ever overwritten, and a kill leaves
/// no half-written picture under a real name. A URL is downloaded first
/// (``ImageDownload``) and kept only when its bytes are an image.
@MainActor
public final class SaveToPicturesActivity: SystemActivity {
    public nonisolated static var systemType: ActivityType { .saveToCameraRoll }
    public nonisolated static var errorCodes: [String] {
        [ActivityError.Code.saveFailed, ActivityError.Code.downloadFailed, ActivityError.Code.notAnImage]
    }

    private let locations: Locations
    private let detector: any ContentTypeDetector

    /// The activity for the context's locations and content-type detector.
    public init(context: ActivityContext) {
        locations = context.locations
        detector = context.detector
    }

    public var activityImage: ActivityImage { .glyph("▨") }

    /// Pictures, and web addresses to download them from; a `mailto:` or
    /// `tel:` URL is neither.
    public func refusal(of items: [ShareItem]) -> String? {
        let takes = items.contains { item in
            switch item {
            case .image: true
            case .url(let url): url.isWebAddress
            case .text, .file: false
            }
        }
        return takes ? nil : "Save to Pictures takes pictures and web addresses of pictures (http or https); this share has none"
    }

    public func perform(_ session: ActivitySession) async {
        let folder = SaveToPicturesActivity.picturesFolder(locations)
        if let failure = LocalFiles.createFolders(folder, mode: 0o755) {
            session.fail(ActivityError(code: ActivityError.Code.saveFailed, message: "cannot create \(folder): \(failure.reason)"))
            return
        }
        var saved: [ShareItem] = []
        for item in session.items {
            do {
                switch item {
                case .image(let file): saved.append(try save(file, in: folder))
                case .url(let url) where url.isWebAddress:
                    let detector = self.detector
                    saved.append(try await Task.detached { try ImageDownload.save(url, in: folder, detector: detector) }.value)
                default: continue
                }
            } catch let error as ActivityError {
                let kept = saved.compactMap { $0.fileItem?.path?.path }
                session.fail(ActivityError(code: error.code,
                                           message: error.message + (kept.isEmpty ? "" : " (saved before it: \(kept.joined(separator: ", ")))")))
                return
            } catch {
                session.fail(ActivityError(code: ActivityError.Code.saveFailed, message: ErrorText.sentence(error)))
                return
            }
        }
        // Undone by removing each picture, while it is still the one saved.
        let undo = saved.compactMap { item -> UndoAction? in
            guard let path = item.fileItem?.path?.path, let digest = SHA256.hex(ofFile: path) else { return nil }
            return .removeFile(path: path, digest: digest)
        }
        let paths = saved.compactMap { $0.fileItem?.path?.path }.map { PathText.abbreviating($0, home: locations.home) }
        session.finish(.performed, returnedItems: saved, undo: undo,
                       summary: paths.count == 1 ? Localization.text("Saved %@", paths[0])
                           : Localization.plural("Saved %@ picture in %@", "Saved %@ pictures in %@", count: paths.count,
                                                 String(paths.count), PathText.abbreviating(folder, home: locations.home)))
    }

    /// Copies an image (a file, or bytes from standard input) into `folder`.
    private func save(_ file: FileItem, in folder: String) throws(ActivityError) -> ShareItem {
        let temporary = try PictureFile(in: folder)
        switch file.storage {
        case .path(let url): try temporary.copy(from: url.path)
        case .data(let data): try temporary.write(Array(data))
        }
        let path = try temporary.keep(as: file.name)
        return .image(FileItem(name: PathText.lastComponent(of: path), contentType: file.contentType, size: file.size,
                               storage: .path(URL(fileURLWithPath: path))))
    }

    // MARK: - The pictures folder

    /// `XDG_PICTURES_DIR` from `$XDG_CONFIG_HOME/user-dirs.dirs` (shell
    /// syntax: `"$HOME/Bilder"` or an absolute path), else `~/Pictures`.
    public static func picturesFolder(_ locations: Locations) -> String {
        let home = locations.home
        if case .success(let bytes) = LocalFiles.contents(ofFile: locations.userConfig + "/user-dirs.dirs"),
           let text = String(validating: bytes, as: UTF8.self) {
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingWhitespace()
                guard trimmed.hasPrefix("XDG_PICTURES_DIR=") else { continue }
                var value = String(trimmed.dropFirst("XDG_PICTURES_DIR=".count))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                if value.hasPrefix("$HOME/") { return home + value.dropFirst(5) }
                if value == "$HOME" { break }  // the home folder itself means "not set", as xdg-user-dirs reads it
                if value.hasPrefix("/") { return value }
            }
        }
        return home + "/Pictures"
    }
}

/// A hidden temporary file in the pictures folder, kept under a name that
/// is free, or removed.
struct PictureFile: ~Copyable {
    let folder: String
    let path: String
    private let descriptor: Int32

    /// Makes `.share-XXXXXX.part` in `folder`, readable by the owner only until kept.
    init(in folder: String) throws(ActivityError) {
        var template = Array((folder + "/.share-XXXXXX.part").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard descriptor >= 0 else {
            throw ActivityError(code: ActivityError.Code.saveFailed,
                                message: "cannot write in \(folder): \(String(cString: strerror(errno)))")
        }
        self.folder = folder
        self.descriptor = descriptor
        path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(ActivityError) {
        try bytes.withBytes { raw throws(ActivityError) in try write(raw) }
    }

    /// Appends `bytes` (from a download).
    func write(_ bytes: UnsafeRawBufferPointer) throws(ActivityError) {
        do { try LocalFiles.writeAll(bytes, to: descriptor) } catch {
            throw ActivityError(code: ActivityError.Code.saveFailed, message: "cannot write in \(folder): \(error.reason)")
        }
    }

    /// Appends the whole file at `source`.
    func copy(from source: String) throws(ActivityError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw ActivityError(code: ActivityError.Code.saveFailed, message: "cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw ActivityError(code: ActivityError.Code.saveFailed, message: "cannot read \(source): \(String(cString: strerror(errno)))")
            }
            let problem: ActivityError? = buffer.withUnsafeBytes { bytes in
                do throws(ActivityError) {
                    try write(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                    return nil
                } catch {
                    return error
                }
            }
            if let problem { throw problem }
        }
    }

    /// Flushes the bytes to disk and links them under `name` in the folder,
    /// or `name-2`, `name-3` … when taken; returns the path kept.
    consuming func keep(as name: String) throws(ActivityError) -> String {
        guard fsync(descriptor) == 0 else {
            throw ActivityError(code: ActivityError.Code.saveFailed, message: "cannot write in \(folder): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o644)
        let safe = PictureFile.safeName(name)
        let dot = safe.lastIndex(of: ".").flatMap { $0 == safe.startIndex ? nil : $0 }
        let stem = dot.map { String(safe[..<$0]) } ?? safe
        let suffix = dot.map { String(safe[$0...]) } ?? ""
        for number in 1...9999 {
            let candidate = folder + "/" + (number == 1 ? safe : "\(stem)-\(number)\(suffix)")
            if link(path, candidate) == 0 {
                // The folder's entry on disk too.
                let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if directory >= 0 { fsync(directory); close(directory) }
                return candidate
            }
            guard errno == EEXIST else {
                throw ActivityError(code: ActivityError.Code.saveFailed,
                                    message: "cannot save \(candidate): \(String(cString: strerror(errno)))")
            }
        }
        throw ActivityError(code: ActivityError.Code.saveFailed, message: "no free name for \(safe) in \(folder)")
    }

    /// A file name without folders, control characters or a leading dot.
    static func safeName(_ name: String) -> String {
        var text = String(String.UnicodeScalarView(name.unicodeScalars.map { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
        while text.hasPrefix(".") { text.removeFirst() }
        return text.isEmpty ? "image" : String(text.prefix(200))
    }
}

extension ActivityError.Code {
    /// Save to Pictures: the picture could not be written in the pictures folder.
    public static let saveFailed = "save-failed"

    /// Save to Pictures: the URL could not be downloaded (refused, too large, too slow, too many redirects).
    public static let downloadFailed = "download-failed"

    /// Save to Pictures: the URL's bytes are not an image.
    public static let notAnImage = "not-an-image"
}
