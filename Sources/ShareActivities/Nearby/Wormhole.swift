import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Nearby's second way across: a magic-wormhole code, which works between
/// networks. The `wormhole` command does the work (run with an argument
/// vector, never a shell); share reads its code from what it prints and
/// hears when it is done.
///
/// Text and URLs go as `--text`; one file as itself; several files (and
/// any text, as `shared text.txt`) as a folder of links to them, which
/// wormhole sends as one zip. Bytes share holds (standard input) are
/// written to that folder first.
final class Wormhole: Sendable {
    /// What the sender says.
    enum Event: Sendable, Equatable {
        /// The code to type (or scan) on the other side.
        case code(String)
        /// It ended: 0 when the other side has it all, else its last words.
        case ended(status: Int32, words: String)
    }

    /// `[nearby] wormhole-relay` and `wormhole-transit`: the mailbox server and transit helper.
    struct Settings: Sendable, Equatable {
        var relay: String?
        var transit: String?
    }

    private let running: Subprocess.Running
    /// The folder made for several files, removed when done.
    private let folder: String?

    /// Starts `program send` for `items`; its news goes to `events` from a thread of its own.
    /// A folder for several files is made under `temporary`.
    init(program: String, items: [ShareItem], settings: Settings, temporary: String,
         events: @escaping @Sendable (Event) -> Void) throws(NearbyFailure) {
        var arguments: [String] = []
        if let relay = settings.relay { arguments += ["--relay-url", relay] }
        if let transit = settings.transit { arguments += ["--transit-helper", transit] }
        arguments += ["send", "--hide-progress"]
        let files = items.compactMap(\.fileItem)
        let texts = items.compactMap { item -> String? in
            switch item {
            case .text(let text): text
            case .url(let url): url.absoluteString
            case .image, .file: nil
            }
        }
        var folder: String?
        if files.isEmpty {
            arguments += ["--text", texts.joined(separator: "\n")]
        } else if files.count == 1, texts.isEmpty, case .path(let url) = files[0].storage {
            arguments.append(url.path)
        } else {
            let made = try Wormhole.folder(files: files, texts: texts, under: temporary)
            folder = made
            arguments.append(made)
        }
        do {
            running = try Subprocess.start(program, arguments: arguments)
        } catch {
            if let folder { Wormhole.remove(folder) }
            throw NearbyFailure(description: error.description)
        }
        self.folder = folder
        let running = running
        let started = BackgroundThread.start {
            var last = ""
            let status = running.lines { line in
                let words = line.trimmingWhitespace()
                guard !words.isEmpty else { return }
                if words.hasPrefix("Wormhole code is:") {
                    events(.code(words.dropFirst("Wormhole code is:".count).trimmingWhitespace()))
                } else {
                    last = words
                }
            }
            events(.ended(status: status, words: last))
        }
        if !started {
            running.stop()
            throw NearbyFailure(description: "no thread to read wormhole's output")
        }
    }

    deinit {
        running.stop()
        if let folder { Wormhole.remove(folder) }
    }

    /// Stops the sender (the share is done another way, or cancelled).
    func stop() { running.stop() }

    /// A new folder holding a link to each file (or the bytes share
    /// holds), named uniquely, and the texts as `shared text.txt`.
    private static func folder(files: [FileItem], texts: [String], under temporary: String) throws(NearbyFailure) -> String {
        var template = Array((temporary + "/share-wormhole-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw NearbyFailure(description: "cannot make a folder for wormhole: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made) + "/shared"
        guard mkdir(folder, 0o700) == 0 else {
            rmdir(made)
            throw NearbyFailure(description: "cannot make a folder for wormhole")
        }
        let names = ZipStream.uniqueNames(files.map(\.name) + (texts.isEmpty ? [] : ["shared text.txt"]))
        do {
            for (file, name) in zip(files, names) {
                let path = folder + "/" + name
                switch file.storage {
                case .path(let url):
                    guard symlink(url.path, path) == 0 else { throw NearbyFailure(description: "cannot link \(file.name) for wormhole") }
                case .data(let data):
                    try LocalFiles.replace(path, with: Array(data))
                }
            }
            if !texts.isEmpty { try LocalFiles.replace(folder + "/" + names[names.count - 1], with: Array(texts.joined(separator: "\n").utf8)) }
        } catch let failure as NearbyFailure {
            remove(folder)
            throw failure
        } catch {
            remove(folder)
            throw NearbyFailure(description: "cannot write for wormhole: \(ErrorText.sentence(error))")
        }
        return folder
    }

    /// Removes the folder made for wormhole (links and copies only) and its parent.
    private static func remove(_ folder: String) {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for entry in entries { unlink(folder + "/" + entry) }
        }
        rmdir(folder)
        rmdir(String(folder.dropLast("/shared".count)))
    }
}

/// Why Nearby could not do something, in words.
struct NearbyFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}
