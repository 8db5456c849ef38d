import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// The Mustachify example (seed 002) end to end: `example-mustachify` in a
/// real terminal (tmux), posting a real PNG with libcurl to a real image
/// service on 127.0.0.1 (`Tests/Support/mustache_service.py`, which draws a
/// mustache with PIL), judged by the screen, what the service received, the
/// file kept next to the original (decoded by PIL), the exit status and the
/// completion object on stdout (SPEC §3, §6).
@Suite struct MustachifyEndToEndTests {
    /// The original image's colour, and the mustache's (the service's `MUSTACHE`).
    static let face = [200, 60, 40]
    static let mustache = [34, 24, 16]

    // MARK: - Done

    @Test func doneKeepsTheMustachedImageNextToTheOriginal() throws {
        let world = try World()
        let service = try MustacheService(directory: world.fixtures.root)
        defer { service.stop() }
        let session = try world.pickMustachify(service: service.url)

        let screen = try session.waitFor("✓ Mustachified")
        #expect(screen.contains("64×64 PNG") && screen.contains("Done saves it as face-mustache.png"), "screen:\n\(screen.text)")
        let colors = try session.capture(colors: true)
        #expect(colors.isSelected("[ Done ]"), "Done is enabled and has the focus; screen:\n\(colors.text)")
        #expect(!Self.isDim("[ Done ]", in: colors), "Done is not dim once the image arrived; screen:\n\(colors.text)")
        // The returned image is drawn in the palette: the face and the mustache are different colours.
        #expect(Self.backgroundColors(colors).count >= 2, "the image is drawn; screen:\n\(colors.text)")

        let requests = try service.waitForRequests(1)
        #expect(requests.count == 1, "requests: \(requests)")
        let request = try #require(requests.first)
        #expect(request.method == "POST" && request.path == "/mustachify" && request.contentType == "image/png",
                "request: \(request)")
        #expect(request.status == 200)
        #expect(try service.body(of: request) == Data(contentsOf: world.image), "the service received the image's bytes")
        let kept = world.fixtures.files.appendingPathComponent("face-mustache.png")
        #expect(!FileManager.default.fileExists(atPath: kept.path), "nothing is kept before Done")

        try session.send("Enter")
        let result = try Self.expectEnd(session, status: 0, outcome: "performed")
        #expect(result["error"] is NSNull, "stdout: \(session.stdout)")
        let returned = try #require(result["returnedItems"] as? [[String: Any]], "stdout: \(session.stdout)")
        try #require(returned.count == 1, "one returned item; stdout: \(session.stdout)")
        let item = returned[0]
        #expect(item["kind"] as? String == "image" && item["contentType"] as? String == "image/png"
                && item["name"] as? String == "face-mustache.png", "stdout: \(session.stdout)")
        let value = try #require(item["value"] as? String, "stdout: \(session.stdout)")
        #expect(URL(fileURLWithPath: value).resolvingSymlinksInPath().path == kept.resolvingSymlinksInPath().path,
                "the returned item is the kept file; stdout: \(session.stdout)")
        #expect(session.stderr.isEmpty, "stderr: \(session.stderr)")

        // Kept next to the original: a PNG the size of the original, with the mustache in the middle.
        let keptBytes = try Data(contentsOf: kept)
        #expect(keptBytes != (try Data(contentsOf: world.image)), "the kept image differs from the original")
        #expect(keptBytes == (try service.reply(to: request)), "the kept bytes are what the service returned")
        let after = try ImageTool.describe(kept)
        #expect(after.format == "PNG" && after.width == 64 && after.height == 64, "kept: \(after)")
        #expect(after.center == Self.mustache, "the middle pixel is the mustache's colour: \(after)")
        #expect(after.corner == Self.face, "a corner is untouched: \(after)")
        let before = try ImageTool.describe(world.image)
        #expect(before.center == Self.face && before.corner == Self.face, "the original is unchanged: \(before)")
        let left = try world.temporaryFiles()
        #expect(left.isEmpty, "the temporary image is removed: \(left)")
    }

    // MARK: - Service errors

    enum ServiceFailure: String, CaseIterable, CustomTestStringConvertible {
        /// The service answers 400.
        case rejected
        /// Nothing listens on the port: connection refused.
        case unreachable

        /// What the error says, on the screen and in the completion object.
        var words: String {
            self == .rejected ? "answered 400: the mustache service is refusing work today" : "cannot reach the service"
        }

        /// The completion object's error code.
        var code: String { self == .rejected ? "service-rejected" : "service-unreachable" }
    }

    @Test(arguments: ServiceFailure.allCases)
    func aServiceErrorIsShownAndOnlyCancelIsLeft(failure: ServiceFailure) throws {
        let world = try World()
        // Rejected: a service that answers 400 to everything. Unreachable: a port bound but not listening.
        let service = failure == .rejected ? try MustacheService(directory: world.fixtures.root, arguments: ["--fail", "400"]) : nil
        defer { service?.stop() }
        let closedPort = try ClosedPort()
        let url = service?.url ?? "http://127.0.0.1:\(closedPort.port)/mustachify"
        let session = try world.pickMustachify(service: url)

        let screen = try session.waitFor("Mustachify failed")
        // The message may be wrapped: compare with the lines joined.
        let shown = screen.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains(failure.words), "screen:\n\(screen.text)")
        let colors = try session.capture(colors: true)
        #expect(Self.isDim("[ Done ]", in: colors), "Done is disabled (dim); screen:\n\(colors.text)")
        #expect(!colors.isSelected("[ Done ]"), "screen:\n\(colors.text)")

        // Enter and d on Done do nothing: Tab, sent after them, is handled, and the program still runs.
        try session.send("Enter")
        try session.send("d")
        try session.send("Tab")
        try session.waitUntil("the focus on Cancel", colors: true) { $0.isSelected("[ Cancel ]") }
        #expect(!session.hasExited, "Enter on a disabled Done ended the program; stdout: \(session.stdout)")

        try session.send("Escape")
        let result = try Self.expectEnd(session, status: 3, outcome: "failed")
        #expect((result["returnedItems"] as? [Any])?.isEmpty == true, "stdout: \(session.stdout)")
        let error = try #require(result["error"] as? [String: Any], "stdout: \(session.stdout)")
        #expect(error["code"] as? String == failure.code, "error: \(error)")
        let message = try #require(error["message"] as? String)
        #expect(message.contains(failure.words), "error: \(error)")
        #expect(session.stderr.contains(message), "the message is on stderr: \(session.stderr)")
        if let service {
            let requests = try service.requests()
            #expect(requests.count == 1 && requests.first?.status == 400 && requests.first?.contentType == "image/png",
                    "the image reached the service: \(requests)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.fixtures.files.appendingPathComponent("face-mustache.png").path))
        let left = try world.temporaryFiles()
        #expect(left.isEmpty, "temporary files: \(left)")
        withExtendedLifetime(closedPort) {}
    }

    // MARK: - Cancel

    enum CancelMoment: String, CaseIterable, CustomTestStringConvertible {
        /// Esc while the service holds the request.
        case whileWaiting
        /// c once the image arrived.
        case afterTheImageArrived

        /// The service's options: it holds the request while waiting.
        var serviceArguments: [String] { self == .whileWaiting ? ["--hold"] : [] }
    }

    @Test(arguments: CancelMoment.allCases)
    func cancelEndsCancelledAndKeepsNothing(moment: CancelMoment) throws {
        let world = try World()
        let service = try MustacheService(directory: world.fixtures.root, arguments: moment.serviceArguments)
        defer { service.stop() }
        let session = try world.pickMustachify(service: service.url)

        switch moment {
        case .whileWaiting:
            try session.waitFor("Mustachifying…")
            // The request is at the service, which will not answer.
            #expect(try service.waitForRequests(1).first?.status == nil)
            let colors = try session.capture(colors: true)
            #expect(colors.contains("Mustachifying…"), "still waiting; screen:\n\(colors.text)")
            #expect(Self.isDim("[ Done ]", in: colors), "Done is disabled while waiting; screen:\n\(colors.text)")
            try session.send("Escape")
        case .afterTheImageArrived:
            try session.waitFor("✓ Mustachified")
            try session.send("c")
        }

        let result = try Self.expectEnd(session, status: 1, outcome: "cancelled")
        #expect((result["returnedItems"] as? [Any])?.isEmpty == true, "no returned item; stdout: \(session.stdout)")
        #expect(result["error"] is NSNull, "stdout: \(session.stdout)")
        #expect(session.stderr.isEmpty, "stderr: \(session.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: world.fixtures.files.path)
        #expect(!names.contains { $0.contains("mustache") }, "nothing kept next to the original: \(names)")
        let left = try world.temporaryFiles()
        #expect(left.isEmpty, "temporary files: \(left)")
    }

    // MARK: - Helpers

    /// One test's world: the fixtures, a 64×64 solid PNG in their folder, and a TMPDIR of its own.
    struct World {
        let fixtures: Fixtures
        let image: URL
        let temporary: URL

        init() throws {
            fixtures = try Fixtures()
            image = fixtures.files.appendingPathComponent("face.png")
            try ImageTool.solid(at: image, width: 64, height: 64, rgb: MustachifyEndToEndTests.face)
            temporary = fixtures.root.appendingPathComponent("tmp", isDirectory: true)
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        }

        /// What the program left in its TMPDIR.
        func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        }

        /// Starts `example-mustachify --service URL --json face.png` at 100×30, picks
        /// Mustachify in the picker, and returns the session once the result view is up.
        func pickMustachify(service: String) throws -> TmuxSession {
            let binary = try Share.binary().deletingLastPathComponent().appendingPathComponent("example-mustachify")
            try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                         "no \(binary.path); build it: swift build --product example-mustachify")
            let command = [binary.path, "--service", service, "--json", image.path].map(TmuxSession.quote).joined(separator: " ")
            var environment = fixtures.environment
            environment["TMPDIR"] = temporary.path
            let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files, environment: environment)

            // The tile, found by its title, with its text-art icon above it.
            let picker = try session.waitFor("Mustachify")
            let tile = try #require(picker.find("Mustachify"), "screen:\n\(picker.text)")
            #expect(picker.lines[max(0, tile.row - 3)..<tile.row].contains { $0.contains("▀██▄▄██▀") },
                    "the icon is above the title; screen:\n\(picker.text)")
            // Application activities lead their row (SPEC §2): Mustachify is the first
            // tile of the action row, which Tab (next row) selects.
            if !(try session.capture(colors: true)).isSelected("Mustachify") {
                try session.send("Tab")
                try session.waitUntil("the selection on Mustachify", colors: true) { $0.isSelected("Mustachify") }
            }
            try session.send("Enter")
            try session.waitFor("[ Cancel ]")
            return session
        }
    }

    /// The completion object on stdout: exactly one JSON line.
    static func completion(_ session: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let out = session.stdout
        #expect(out.hasSuffix("\n") && out.filter { $0 == "\n" }.count == 1, "one JSON line: \(out)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        return try #require(object, "stdout: \(out)", sourceLocation: sourceLocation)
    }

    /// Waits for the program to exit with `status`; returns its completion
    /// object, which must be Mustachify's and end in `outcome`, completed
    /// only when performed.
    static func expectEnd(_ session: TmuxSession, status: Int32, outcome: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(try session.waitForExit() == status, "stdout: \(session.stdout) stderr: \(session.stderr)", sourceLocation: sourceLocation)
        let result = try completion(session, sourceLocation: sourceLocation)
        #expect(result["activityType"] as? String == "com.nshipster.mustachify", "stdout: \(session.stdout)", sourceLocation: sourceLocation)
        #expect(result["outcome"] as? String == outcome && result["completed"] as? Bool == (outcome == "performed"),
                "stdout: \(session.stdout)", sourceLocation: sourceLocation)
        return result
    }

    /// Whether `text` is drawn dim in a colour capture: the last SGR before it on its line has attribute 2.
    static func isDim(_ text: String, in screen: Screen) -> Bool {
        guard let line = screen.lines.first(where: { $0.contains(text) }), let range = line.range(of: text) else { return false }
        guard let last = line[..<range.lowerBound].matches(of: /\x1B\[([0-9;]*)m/).last else { return false }
        return last.output.1.split(separator: ";").contains("2")
    }

    /// The 256-colour palette backgrounds a colour capture uses.
    static func backgroundColors(_ screen: Screen) -> Set<Int> {
        Set(screen.text.matches(of: /48;5;([0-9]+)/).compactMap { Int($0.output.1) })
    }
}

/// `Tests/Support/mustache_service.py` for one test: an HTTP image service on
/// 127.0.0.1 that draws a mustache on a POSTed PNG or JPEG (PIL), run under
/// Debian's `/usr/bin/python3` (python3-pil).
///
/// ``init(directory:arguments:)`` returns once the service printed
/// `READY <port>`. Each request is on disk before it is answered, so once
/// the client has its answer, ``requests()`` sees it. The service serves
/// until its stdin closes: ``stop()``.
final class MustacheService {
    /// One request the service received, as it recorded it.
    struct Request: Decodable, CustomStringConvertible {
        var number: Int = 0
        var method: String
        var path: String
        var contentType: String?
        var length: Int
        var sha256: String
        /// The status answered; `nil` for a request held unanswered.
        var status: Int?

        enum CodingKeys: String, CodingKey {
            case method, path, length, sha256, status
            case contentType = "content_type"
        }

        var description: String { "#\(number) \(method) \(path) \(contentType ?? "-") \(length) B → \(status.map(String.init) ?? "held")" }
    }

    static let python = ServerScript.python
    static let support = ServerScript.support

    /// The port on 127.0.0.1.
    var port: Int { server.port }
    /// Where requests are recorded.
    let directory: URL
    private let server: ServerScript

    /// The URL the example posts to.
    var url: String { "http://127.0.0.1:\(port)/mustachify" }

    /// Starts the service, recording into a fresh folder under `base`.
    /// - Parameter arguments: `--fail STATUS` or `--hold`.
    init(directory base: URL, arguments: [String] = []) throws {
        let name = "mustache-\(UUID().uuidString.prefix(8))"
        directory = base.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = try ServerScript(script: "mustache_service.py", arguments: [directory.path] + arguments,
                                  logFile: base.appendingPathComponent(name + ".log"))
    }

    /// Closes the service's stdin and waits for it to exit.
    func stop() { server.stop() }

    /// The requests recorded so far, in order.
    func requests() throws -> [Request] {
        let numbers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .compactMap { $0.hasSuffix(".json") ? Int($0.dropLast(5)) : nil }.sorted()
        return try numbers.map { number in
            var request = try JSONDecoder().decode(Request.self, from: Data(contentsOf: directory.appendingPathComponent("\(number).json")))
            request.number = number
            return request
        }
    }

    /// Polls until `count` requests are recorded (or the deadline passes); returns them.
    func waitForRequests(_ count: Int, timeout: Double = TmuxSession.defaultTimeout) throws -> [Request] {
        var found: [Request] = []
        return try eventually("\(count) request(s)", timeout: timeout, report: { "have \(found); stderr:\n\(log)" }) {
            found = try requests()
            return found.count >= count ? found : nil
        }
    }

    /// The bytes the service received with `request`.
    func body(of request: Request) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("\(request.number).body"))
    }

    /// The bytes the service sent back for `request`, when it returned an image.
    func reply(to request: Request) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent("\(request.number).reply"))
    }

    /// The service's stderr so far.
    var log: String { server.log }
}

/// Makes and inspects images with `Tests/Support/image_tool.py` (PIL).
enum ImageTool {
    /// What PIL sees in an image file.
    struct Facts: Decodable, Equatable {
        var format: String
        var width: Int
        var height: Int
        var mode: String
        /// The RGB of the centre pixel and of a corner pixel.
        var center: [Int]
        var corner: [Int]
    }

    static func solid(at url: URL, width: Int, height: Int, rgb: [Int]) throws {
        let run = try tool(["solid", url.path, String(width), String(height)] + rgb.map(String.init))
        try #require(run.status == 0, "image_tool.py solid failed: \(run.err)")
    }

    static func describe(_ url: URL) throws -> Facts {
        let run = try tool(["describe", url.path])
        try #require(run.status == 0, "image_tool.py describe \(url.path) failed: \(run.err)")
        return try JSONDecoder().decode(Facts.self, from: run.stdout)
    }

    private static func tool(_ arguments: [String]) throws -> ShareRun {
        try Share.run(MustacheService.python, [MustacheService.support.appendingPathComponent("image_tool.py").path] + arguments,
                      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"],
                      directory: MustacheService.support)
    }
}

/// A TCP port on 127.0.0.1 that is bound but not listening: connecting is refused.
final class ClosedPort {
    private(set) var port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0, "socket(): errno \(errno)")
        self.descriptor = descriptor
        port = 0  // set below; from here on deinit closes the socket, even when a check fails
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0, "bind(): errno \(errno)")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        try #require(named == 0, "getsockname(): errno \(errno)")
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
