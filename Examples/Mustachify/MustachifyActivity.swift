import Foundation
import ShareCore
import ShareSupport
import ShareTerminal

/// Posts one image to the mustache service and shows what comes back,
/// with Done (keep it) and Cancel: NSHipster's `UIActivity` example.
@MainActor
final class MustachifyActivity: Activity {
    /// The service's URL.
    let service: String
    /// Whether the result view may use colours (`--no-color`, `NO_COLOR`).
    let colors: Bool
    /// The image and its bytes, from `prepare`.
    private var image: FileItem?
    private var body = Data()

    init(service: String, colors: Bool) {
        self.service = service
        self.colors = colors
    }

    var activityType: ActivityType { ActivityType(rawValue: "com.nshipster.mustachify") }
    var activityTitle: String { "Mustachify" }
    var activityImage: ActivityImage { .textArt(["▄▄      ▄▄", " ▀██▄▄██▀ "]) }
    var activityCategory: ActivityCategory { .action }
    var supportedKinds: Set<ItemKind> { [.image] }

    /// Exactly one image, of a type the service takes.
    func canPerform(with items: [ShareItem]) -> Bool {
        guard items.count == 1, case .image(let file) = items[0] else { return false }
        return MustachifyActivity.acceptedTypes.contains(file.contentType.lowercased())
    }

    static let acceptedTypes: Set<String> = ["image/png", "image/jpeg"]

    func prepare(with items: [ShareItem]) async throws {
        guard let file = items.first?.fileItem else {
            throw ActivityError(code: "no-image", message: "Mustachify was handed no image")
        }
        switch file.storage {
        case .data(let data): body = data
        case .path(let url):
            do { body = try Data(contentsOf: url) } catch {
                throw ActivityError(code: "unreadable", message: "cannot read \(url.path): \(error.localizedDescription)")
            }
        }
        guard !body.isEmpty else { throw ActivityError(code: "no-image", message: "\(file.name) is empty") }
        image = file
    }

    func perform(_ session: ActivitySession) async {
        guard let image else {
            session.fail(ActivityError(code: "no-image", message: "Mustachify was handed no image"))
            return
        }
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal(wantColors: colors) } catch {
            session.fail(ActivityError(code: ActivityError.Code.noTerminal,
                                       message: "Mustachify shows the result on the terminal, and there is none: \(error.message)"))
            return
        }
        let request = MustacheRequest(service: service, body: body, contentType: image.contentType)
        let size = terminal.size
        let screen = ResultScreen(itemName: image.name,
                                  requestLine: "posting \(ByteCount.words(Int64(body.count))) to \(service)",
                                  destinationName: MustachifyActivity.destination(near: image)?.lastPathComponent,
                                  width: size.width, height: size.height, colors: terminal.colors)
        let ending = ResultPresenter(terminal: terminal, request: request, screen: screen).run { data throws(ActivityError) in
            try MustachifyActivity.keep(data, near: image)
        }
        terminal.end()

        switch ending {
        case .kept(let item): session.finish(.performed, returnedItems: [item])
        case .cancelled: session.finish(.cancelled)
        case .failed(let error): session.fail(error)
        }
    }

    // MARK: - Keeping the result

    /// The folder the result goes in: the original's, or the working directory for bytes from stdin.
    static func folder(of image: FileItem) -> URL {
        image.path?.deletingLastPathComponent() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// The first free name next to the original: `face-mustache.png`, then `face-mustache-2.png` …
    static func destination(near image: FileItem) -> URL? {
        let folder = folder(of: image)
        let stem = (image.name as NSString).deletingPathExtension
        let base = stem.isEmpty || stem.hasPrefix(".") ? "image" : stem
        for number in 1...999 {
            let url = folder.appendingPathComponent(number == 1 ? "\(base)-mustache.png" : "\(base)-mustache-\(number).png")
            var status = stat()
            if lstat(url.path, &status) != 0 && errno == ENOENT { return url }  // not even a dangling link
        }
        return nil
    }

    /// Saves the returned PNG next to the original, never over another file.
    static func keep(_ data: Data, near image: FileItem) throws(ActivityError) -> ShareItem {
        guard let url = destination(near: image) else {
            throw ActivityError(code: "save-failed", message: "no free name for the result next to \(image.name)")
        }
        do {
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            throw ActivityError(code: "save-failed", message: "cannot save \(url.path): \(error.localizedDescription)")
        }
        return .image(FileItem(name: url.lastPathComponent, contentType: "image/png", size: Int64(data.count), storage: .path(url)))
    }
}
