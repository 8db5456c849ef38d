import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// Why the options could not be applied to an item: nothing was shared.
public struct SharingOptionsError: Error, Sendable, CustomStringConvertible {
    /// What went wrong with which item, and what to do.
    public var message: String

    public var description: String { message }
}

/// The options before sharing applied to the items an activity receives,
/// once it is picked: pictures whose location or metadata goes, or that
/// are scaled down, are replaced by changed copies in a private folder
/// (mode 0700) that is removed when share exits. The originals are never
/// touched; a copy keeps its original's name, so a mail's attachment, a
/// saved picture and a plugin's `%f` carry it.
@MainActor
public final class SharingAdjuster: ItemAdjusting {
    /// The options as chosen (the picker's Options line may change them before a pick).
    public var options: SharingOptions
    /// The copies made, by path, and the original each stands for.
    private var originals: [String: ShareItem] = [:]
    /// The private folder of the copies, once one is made.
    private var folder: String?
    /// Where the folder is made (`$TMPDIR`, else /tmp).
    private let temporaryBase: String
    /// What the activities were made from: Link's places are read from it when `--as-link` needs them.
    private let context: ActivityContext
    /// Link's places, read on first use (never before the picker's first frame).
    private lazy var links = LinkAccess(context: context, placeName: context.request(for: LinkActivity.self).place)
    /// What was done in the last run.
    public private(set) var done = Done()
    /// Pictures let through unchecked in the last run, in words.
    public private(set) var warnings: [String] = []

    /// What the options did to the items of a run.
    public struct Done: Sendable, Equatable {
        /// Pictures whose location was found and removed.
        public var locationRemoved = 0
        /// Pictures whose metadata was all removed.
        public var metadataRemoved = 0
        /// Pictures scaled down, and the longest side they were scaled to.
        public var resized = 0
        public var longestSide = 0
        /// Links the activity got in place of files (`--as-link`), and the place that gave them.
        public var links = 0
        public var place = ""

        /// Nothing done.
        public init() {}
    }

    /// An adjuster for `options`; copies go under `$TMPDIR` of the
    /// context's environment, links to its `[link]` places (`--place` names one).
    public init(options: SharingOptions, context: ActivityContext) {
        self.options = options
        temporaryBase = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.context = context
    }

    /// Whether `--as-link` can be offered: the config has a Link place (a `[link.NAME]` section).
    public var offersLink: Bool { !context.subsections("link").isEmpty }

    // MARK: - ItemAdjusting

    public func adjusted(_ items: [ShareItem], for activity: any Activity) async throws -> [ShareItem] {
        done = Done()
        warnings = []
        let asLink = options.asLink && activity.activityType != .link
        var removal = options.removal(for: activity.activityType)
        // Pictures that go to a Link place as well are treated as a public destination's.
        if asLink, let linked = options.removal(for: .link), removal != .all { removal = linked }
        let longestSide = options.longestSide
        var result = items
        // Only a place asked away by name fails on a picture whose format share cannot read;
        // the default (a public destination's) lets it pass, and says so.
        let asked = options.removesMetadata || options.location == .strip
        var jobs: [PictureJob] = []
        for index in items.indices {
            guard case .image(let file) = items[index] else { continue }
            if removal != nil && !asked && !Self.rewritable(file.contentType) {
                if !Self.formatsWithoutPlaces.contains(file.contentType.lowercased()) {
                    warnings.append(Localization.text("the location of %@ (%@) could not be checked; it was shared as it is",
                                                      ItemError.shown(file.name), file.contentType))
                }
                continue
            }
            jobs.append(PictureJob(index: index, file: file))
        }
        if !jobs.isEmpty && (removal != nil || longestSide != nil) {
            let root = try folderForCopies()
            let copies = try await Self.copies(of: jobs, removal: removal, longestSide: longestSide, in: root)
            // Pictures that had nothing to remove leave no folder behind, even if share is killed later.
            if originals.isEmpty && copies.isEmpty { removeCopies() }
            for copy in copies {
                let change = copy.change
                if change.removed.contains(where: \.isLocation) && removal == .location { done.locationRemoved += 1 }
                if removal == .all && (!change.removed.isEmpty || change.turned) { done.metadataRemoved += 1 }
                if change.resized != nil { done.resized += 1 }
                var file = copy.job.file
                file.storage = .path(URL(filePath: copy.path))
                file.size = Int64(copy.size)
                originals[copy.path] = items[copy.job.index]
                result[copy.job.index] = .image(file)
            }
        }
        if longestSide != nil { done.longestSide = longestSide ?? 0 }
        return asLink ? try await linked(result, for: activity) : result
    }

    /// `--as-link`: the files among `items` uploaded to a Link place (and
    /// `[link] fallback`'s), and their links in their place; texts and URLs stay.
    private func linked(_ items: [ShareItem], for activity: any Activity) async throws(SharingOptionsError) -> [ShareItem] {
        let files = items.filter { $0.fileItem != nil }
        guard let first = files.first?.fileItem else { return items }
        let kinds = SupportTable.descriptor(for: activity.activityType)?.kinds ?? activity.supportedKinds
        guard kinds.contains(.url) else {
            throw SharingOptionsError(message: Localization.text("--as-link: %@ takes no links; pick another activity, or share without --as-link",
                                                                 activity.localizedActivityTitle))
        }
        let shipment: LinkShipment
        do { shipment = try links.shipment(display: LiveDisplay(sink: { _ in }), heading: "Link", showsNews: false) } catch {
            throw SharingOptionsError(message: "--as-link: " + error.message)
        }
        let baseName = files.count == 1 ? first.name : "shared"
        let delivery = await Task.detached(priority: .userInitiated) { shipment.send(files, baseName: baseName) }.value
        switch delivery {
        case .failure(let failure):
            throw SharingOptionsError(message: Localization.text("--as-link: the upload failed: %@", failure.message))
        case .success(let delivery):
            done.links = delivery.files.count
            done.place = delivery.place.name
            // The links where the first file was; the other files gone, texts and URLs where they were.
            var result: [ShareItem] = []
            var placed = false
            for item in items {
                if item.fileItem == nil {
                    result.append(item)
                } else if !placed {
                    result += delivery.files.map { ShareItem.url($0.link) }
                    placed = true
                }
            }
            return result
        }
    }

    public func original(of item: ShareItem) -> ShareItem {
        guard let path = item.fileItem?.path?.path, let original = originals[path] else { return item }
        return original
    }

    // MARK: - The pictures

    /// One picture to copy: where it is among the items, and its file.
    struct PictureJob: Sendable {
        var index: Int
        var file: FileItem
    }

    /// A copy made: its picture, what was done (without the bytes), and where the copy is.
    struct PictureCopy: Sendable {
        var job: PictureJob
        var change: PictureChange
        var path: String
        var size: Int
    }

    /// The copies of `jobs` with the options applied, in the order of the
    /// items, made on as many threads as there are processors (decoding and
    /// turning a picture takes one for a tenth of a second); those that stay
    /// as they are have none. The first picture that fails (in the items'
    /// order among those tried) fails them all.
    nonisolated static func copies(of jobs: [PictureJob], removal: MetadataRemoval?, longestSide: Int?,
                                   in root: String) async throws(SharingOptionsError) -> [PictureCopy] {
        let width = max(1, min(jobs.count, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var made: [PictureCopy] = []
        var failure: (index: Int, error: SharingOptionsError)?
        await withTaskGroup(of: (Int, Result<PictureCopy?, SharingOptionsError>).self) { group in
            var next = 0
            while next < width {
                let job = jobs[next]
                group.addTask { (job.index, copy(job, removal: removal, longestSide: longestSide, in: root)) }
                next += 1
            }
            while let (index, outcome) = await group.next() {
                switch outcome {
                case .success(let copy?): made.append(copy)
                case .success(nil): break
                case .failure(let error):
                    if failure.map({ index < $0.index }) ?? true { failure = (index, error) }
                }
                guard failure == nil, next < jobs.count else { continue }
                let job = jobs[next]
                group.addTask { (job.index, copy(job, removal: removal, longestSide: longestSide, in: root)) }
                next += 1
            }
        }
        if let failure { throw failure.error }
        return made.sorted { $0.job.index < $1.job.index }
    }

    /// The copy of one picture with the options applied, written into a
    /// folder of its own under `root`; `nil` when it stays as it is.
    nonisolated static func copy(_ job: PictureJob, removal: MetadataRemoval?, longestSide: Int?,
                                 in root: String) -> Result<PictureCopy?, SharingOptionsError> {
        let file = job.file
        let name = ItemError.shown(file.name)
        let type = file.contentType.lowercased()
        guard rewritable(type) else {
            // Formats without metadata of places (GIF, BMP, the portable maps) go as they are.
            if removal == nil || formatsWithoutPlaces.contains(type) { return .success(nil) }
            return .failure(SharingOptionsError(message: removal == .all
                ? Localization.text("cannot remove the metadata from %@: share rewrites JPEG and PNG pictures, not %@; convert it, or share it without --no-metadata",
                                    name, type)
                : Localization.text("cannot remove the location from %@: share rewrites JPEG and PNG pictures, not %@; convert it, or share it with location = keep in [options]",
                                    name, type)))
        }
        let bytes: [UInt8]
        switch file.storage {
        case .data(let data): bytes = Array(data)
        case .path(let url):
            switch LocalFiles.contents(ofFile: url.path, limit: largestPicture) {
            case .success(let read): bytes = read
            case .failure(let failure):
                return .failure(SharingOptionsError(message: Localization.text("cannot read %@: %@", name, failure.reason)))
            }
        }
        var change: PictureChange
        do throws(PictureChangeError) { change = try PictureWork.change(bytes, removal: removal, longestSide: longestSide) } catch {
            let message = switch removal {
            case .location?: Localization.text("cannot remove the location from %@: %@; fix the file, or share it with location = keep in [options]",
                                               name, error.message)
            case .all?: Localization.text("cannot remove the metadata from %@: %@; fix the file, or share it without --no-metadata", name, error.message)
            case nil: Localization.text("cannot resize %@: %@; share it without --resize", name, error.message)
            }
            return .failure(SharingOptionsError(message: message))
        }
        guard let pieces = change.pieces else { return .success(nil) }
        change.pieces = nil
        do throws(SharingOptionsError) {
            let path = try write(pieces, named: file.name, in: root, index: job.index + 1)
            return .success(PictureCopy(job: job, change: change, path: path, size: pieces.reduce(0) { $0 + $1.count }))
        } catch {
            return .failure(error)
        }
    }

    /// Whether share rewrites pictures of `type`: JPEG and PNG.
    nonisolated static func rewritable(_ type: String) -> Bool {
        let type = type.lowercased()
        return type == "image/jpeg" || type == "image/png"
    }

    /// Image types that hold no EXIF, XMP or IPTC to remove (libmagic's names).
    nonisolated static let formatsWithoutPlaces: Set<String> = [
        "image/gif", "image/bmp", "image/x-ms-bmp", "image/x-portable-anymap", "image/x-portable-bitmap", "image/x-portable-graymap",
        "image/x-portable-pixmap", "image/x-portable-greymap", "image/x-icon", "image/vnd.microsoft.icon", "image/x-tga", "image/x-targa", "image/tga",
        "image/x-xpixmap", "image/x-xpmi", "image/x-xbitmap", "image/x-pcx",
    ]

    /// The largest picture read: 256 MiB.
    nonisolated static let largestPicture = 256 << 20

    // MARK: - The copies

    /// The private folder of the copies (mode 0700, from `mkdtemp`), made on first use.
    private func folderForCopies() throws(SharingOptionsError) -> String {
        if let folder { return folder }
        var template = Array((temporaryBase + "/share-options-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SharingOptionsError(message: Localization.text("cannot make a private folder in %@: %@", temporaryBase,
                                                                 String(cString: strerror(errno))))
        }
        let root = String(cString: made)
        folder = root
        TemporaryFolders.removeAtExit(root)
        return root
    }

    /// Writes `pieces`, one after another, as a file named `name` in the
    /// private folder `root`; when a picture of that name is there already
    /// (two of one name from two folders), in a folder of its own named by
    /// the item's place, `index`. Folders only for the clashes: each one made
    /// and removed again is a journal entry, and on a disk that discards
    /// what is freed, a wait (500 pictures, 0.8 s in bench/options).
    nonisolated static func write(_ pieces: [ArraySlice<UInt8>], named name: String, in root: String,
                                  index: Int) throws(SharingOptionsError) -> String {
        let safeName = name.isEmpty || name == "." || name == ".." ? "picture" : name.replacing("/", with: "_")
        var path = root + "/" + safeName
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        // A folder of its own, under a name no file of the share holds ("3", else "3-1"…).
        var attempt = 0
        while descriptor < 0 && errno == EEXIST && attempt < 100 {
            let holder = root + "/" + (attempt == 0 ? String(index) : "\(index)-\(attempt)")
            attempt += 1
            guard mkdir(holder, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw SharingOptionsError(message: Localization.text("cannot write %@: %@", holder, String(cString: strerror(errno))))
            }
            path = holder + "/" + safeName
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else {
            throw SharingOptionsError(message: Localization.text("cannot write %@: %@", path, String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        for piece in pieces {
            let failure = piece.withUnsafeBytes { buffer -> FileError? in
                do throws(FileError) { try LocalFiles.writeAll(buffer, to: descriptor) } catch { return error }
                return nil
            }
            if let failure { throw SharingOptionsError(message: Localization.text("cannot write %@: %@", path, failure.reason)) }
        }
        return path
    }

    /// Removes the copies and their folder now (share removes them at exit in any case).
    public func removeCopies() {
        guard let folder else { return }
        TemporaryFolders.remove(folder)
        self.folder = nil
        originals = [:]
    }

    // MARK: - Words

    /// What the options did, in a line for the person ("Location removed from 2 photos"); `nil` when nothing.
    public var summary: String? {
        var parts: [String] = []
        if done.locationRemoved > 0 {
            parts.append(Localization.plural("Location removed from %@ photo", "Location removed from %@ photos", count: done.locationRemoved,
                                             String(done.locationRemoved)))
        }
        if done.metadataRemoved > 0 {
            parts.append(Localization.plural("Metadata removed from %@ photo", "Metadata removed from %@ photos", count: done.metadataRemoved,
                                             String(done.metadataRemoved)))
        }
        if done.resized > 0 {
            parts.append(Localization.plural("%@ photo resized to %@ pixels", "%@ photos resized to %@ pixels", count: done.resized,
                                             String(done.resized), String(done.longestSide)))
        }
        if done.links > 0 {
            parts.append(Localization.plural("Uploaded to %@: the activity got %@ link", "Uploaded to %@: the activity got %@ links",
                                             count: done.links, done.place, String(done.links)))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

/// Private folders removed when the process exits (through `exit`), as
/// well as when their owner removes them first.
enum TemporaryFolders {
    private static let folders = Mutex<[String]>([])
    private static let registered = Mutex(false)

    /// Removes `folder` and what is in it when share exits.
    static func removeAtExit(_ folder: String) {
        folders.withLock { $0.append(folder) }
        let first = registered.withLock { done in
            defer { done = true }
            return !done
        }
        if first { atexit { TemporaryFolders.removeAll() } }
    }

    /// Removes every folder still registered.
    static func removeAll() {
        for folder in folders.withLock({ $0 }) { removeTree(folder) }
    }

    /// Removes `folder` now and forgets it.
    static func remove(_ folder: String) {
        folders.withLock { $0.removeAll { $0 == folder } }
        removeTree(folder)
    }

    /// Removes a folder of files and folders (the copies' layout: two levels).
    private static func removeTree(_ path: String) {
        for name in LocalFiles.names(inFolder: path) ?? [] {
            let child = path + "/" + name
            if unlink(child) != 0 { removeTree(child) }
        }
        rmdir(path)
    }
}
