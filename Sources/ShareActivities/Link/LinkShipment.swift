import FoundationEssentials
import ShareCore
import ShareSupport

/// What one upload to a place gave: the file as it went (its name, size
/// and SHA-256) and its link.
struct LinkedFile: Sendable, Equatable {
    var name: String
    var size: Int
    /// The SHA-256 of the bytes sent, in hex.
    var sha256: String
    var link: URL
    /// What `share --undo` can delete of it.
    var leftover = LinkLeftover()
}

/// An upload through a place and, while it fails, the `[link] fallback`
/// places in turn: what Link does, and what Mail and Message do with
/// files too big for their servers. It runs off the main actor; a stop
/// (the display cancelled) ends it without trying the next place.
struct LinkShipment: Sendable {
    /// The places in the order they are tried.
    let places: [LinkPlace]
    let environment: [String: String]
    let display: LiveDisplay
    /// The screen's heading (`Link`, `Mail`).
    let heading: String
    /// Whether there is a screen for the news.
    let showsNews: Bool

    /// `place`, then the fallback places of `settings` other than it.
    init(place: LinkPlace, settings: LinkSettings, environment: [String: String], display: LiveDisplay, heading: String, showsNews: Bool) {
        places = [place] + settings.fallback.compactMap(settings.place).filter { $0.name != place.name }
        self.environment = environment
        self.display = display
        self.heading = heading
        self.showsNews = showsNews
    }

    /// What a shipment gave: the place that served, its files, and the
    /// places that failed before it (`dav: why`).
    struct Delivery: Sendable {
        var place: LinkPlace
        var files: [LinkedFile]
        var failed: [String]
    }

    /// Uploads `items` as the place takes them (one text file, each file,
    /// or one zip), named after `baseName`. With `digests`, each file's
    /// SHA-256 is read from disk before it goes (Mail writes it beside the link).
    func send(_ items: [ShareItem], baseName: String, digests: Bool = false) -> Result<Delivery, LinkFailure> {
        var failed: [String] = []
        for (index, place) in places.enumerated() {
            do throws(LinkFailure) {
                let folder = try LinkPayload.temporaryFolder(environment: environment)
                defer { LinkPayload.remove(folder) }
                let uploads = try LinkPayload.uploads(items, baseName: baseName, place: place, folder: folder)
                var sums: [String] = []
                if digests {
                    for upload in uploads {
                        if display.isCancelled { throw LinkFailure.stop }
                        guard let sum = SHA256.hex(ofFile: upload.path) else {
                            throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(upload.path)")
                        }
                        sums.append(sum)
                    }
                }
                let uploader = LinkUploader(place: place, environment: environment, display: display, heading: heading, showsNews: showsNews)
                let links = try uploader.upload(uploads)
                let files = zip(uploads, links).enumerated().map { offset, pair in
                    LinkedFile(name: pair.0.name, size: pair.0.size, sha256: digests ? sums[offset] : "", link: pair.1.link, leftover: pair.1.leftover)
                }
                return .success(Delivery(place: place, files: files, failed: failed))
            } catch {
                guard !error.stopped, index + 1 < places.count else {
                    var last = error
                    if !failed.isEmpty { last.message += " (tried before: " + failed.joined(separator: "; ") + ")" }
                    return .failure(last)
                }
                failed.append("\(place.name): \(error.message)")
            }
        }
        return .failure(LinkFailure(code: ActivityError.Code.noPlace, "no place to upload to"))
    }
}
