import CPortal
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// `--portal-request SOCKET`: share as share-portal starts it in a
/// terminal. The request comes over the socket (its fields, and each
/// attachment as a descriptor share-portal opened), Mail's compose screen
/// opens with it, and the result goes back the same way.
extension ShareCommand {
    static func portalRequest(_ socketPath: String, options: Options, console: Console, detector: any ContentTypeDetector,
                              applicationActivities: [any Activity]) -> Continuation {
        guard options.items.isEmpty else {
            return .exit(usage(Localization.text("--portal-request takes no items: share-portal sends them"), console))
        }
        let connection: Int32
        let handoff: PortalHandoff
        let descriptors: [Int32]
        do throws(PortalError) {
            connection = try PortalRequest.connect(socketPath)
            (handoff, descriptors) = try PortalHandoff.receive(from: connection)
        } catch {
            console.error("share: " + Localization.text("--portal-request %@: %@", socketPath, error.description) + "\n")
            return .exit(ExitCode.usage)
        }
        // Each attachment copied through its descriptor into a private folder, under its own name:
        // the compose screen lists files by path, and the application's path is never opened.
        let copies: PortalCopies
        do throws(PortalError) {
            copies = try PortalCopies(handoff.attachments, descriptors: descriptors, environment: console.environment)
        } catch {
            descriptors.forEach { _ = close($0) }
            close(connection)
            console.error("share: " + Localization.text("--portal-request %@: %@", socketPath, error.description) + "\n")
            return .exit(ExitCode.failed)
        }
        descriptors.forEach { _ = close($0) }
        var items: [ActivityItem] = []
        for path in copies.paths {
            do throws(ItemError) {
                items.append(.item(try ItemResolver(detector: detector).file(atPath: path)))
            } catch {
                copies.remove()
                close(connection)
                console.error("share: " + error.localizedMessage + "\n")
                return .exit(ExitCode.failed)
            }
        }
        var arguments = handoff.arguments
        if let config = options.configPath { arguments += ["--config", config] }
        if options.noColor { arguments.append("--no-color") }
        // The result share prints with --json is the answer; the rest goes to the terminal.
        let result = Mutex("")
        var answering = console
        answering.output = { text in result.withLock { $0 += text } }
        let run = start(arguments, console: answering, detector: detector, applicationActivities: applicationActivities, activityItems: items)
        return .activity {
            let code = await run.exitCode()
            let answer = result.withLock { $0 }
            try? LocalFiles.writeAll(answer.isEmpty ? #"{"outcome": "failed"}"# : answer, to: connection)
            close(connection)
            copies.remove()
            return code
        }
    }
}

enum PortalRequest {
    /// A connection to share-portal's socket at `path`, the user's own.
    static func connect(_ path: String) throws(PortalError) -> Int32 {
        let connection = try UnixSocket.connected(to: path)
        guard share_peer_uid(connection) == Int(getuid()) else {
            close(connection)
            throw PortalError("the socket is not this user's")
        }
        return connection
    }
}

/// The attachments of a request, copied from their descriptors into a
/// private folder (mode 0700, under `$TMPDIR`, else /tmp) by their names; a
/// second file of one name goes into a numbered folder of its own.
struct PortalCopies {
    let folder: String?
    let paths: [String]

    init(_ names: [String], descriptors: [Int32], environment: [String: String]) throws(PortalError) {
        guard !names.isEmpty else {
            folder = nil
            paths = []
            return
        }
        let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((base + "/share-portal-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw PortalError("cannot make a private folder in \(base): \(FileError(code: errno).reason)")
        }
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = made
        var paths: [String] = []
        do throws(PortalError) {
            for (index, (name, descriptor)) in zip(names, descriptors).enumerated() {
                // A name is a last path component; anything else is not the application's to choose.
                let safe = name.isEmpty || name == "." || name == ".." || name.contains("/") ? "attachment" : name
                var place = folder
                if paths.contains(folder + "/" + safe) {
                    place = folder + "/\(index + 1)"
                    if mkdir(place, 0o700) != 0 { throw PortalError("cannot make \(place): \(FileError(code: errno).reason)") }
                }
                let path = place + "/" + safe
                try Self.copy(descriptor, to: path)
                paths.append(path)
            }
        } catch {
            Self.removeTree(folder)
            throw error
        }
        self.folder = folder
        self.paths = paths
    }

    /// The bytes of `descriptor`, from its start, into a new file at `path`.
    static func copy(_ descriptor: Int32, to path: String) throws(PortalError) {
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw PortalError("cannot write \(path): \(FileError(code: errno).reason)") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw PortalError("cannot read \(PathText.lastComponent(of: path)): \(FileError(code: errno).reason)") }
            if count == 0 { break }
            do throws(FileError) {
                try LocalFiles.writeAll(Array(buffer.prefix(count)), to: output)
            } catch {
                throw PortalError("cannot write \(path): \(error.reason)")
            }
            offset += off_t(count)
        }
    }

    /// Removes the copies, once the compose screen has ended.
    func remove() {
        if let folder { Self.removeTree(folder) }
    }

    private static func removeTree(_ folder: String) {
        for file in LocalFiles.filesBelow(folder) { unlink(file) }
        for name in LocalFiles.names(inFolder: folder) ?? [] { rmdir(folder + "/" + name) }
        rmdir(folder)
    }
}
