import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Save to Pictures (SPEC §2): images, and images behind URLs, copied into
/// the XDG pictures folder, never over another file; URLs downloaded from
/// an HTTP server the test starts on 127.0.0.1.
@Suite struct SaveToPicturesTests {
    /// The `value`s of the completion's returned items.
    static func returnedPaths(_ run: ShareRun) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out)")
        let items = try #require(object["returnedItems"] as? [[String: Any]], "stdout: \(run.out)")
        return items.compactMap { $0["value"] as? String }
    }

    /// The names in `folder`, hidden ones too, sorted.
    static func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func anImageIsCopiedIntoTheFolderOfUserDirsAndNeverOverwritten() throws {
        let fixtures = try Fixtures()
        try "# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/사진\"\n"
            .write(to: fixtures.configHome.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        let pictures = fixtures.home.appendingPathComponent("사진")
        var saved: [String] = []
        for _ in 1...2 {
            let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", fixtures.png.path)
            #expect(run.status == 0, "stderr: \(run.err)")
            saved += try Self.returnedPaths(run)
        }
        let name = fixtures.png.deletingPathExtension().lastPathComponent
        #expect(saved == [pictures.appendingPathComponent("\(name).png").path, pictures.appendingPathComponent("\(name)-2.png").path])
        for path in saved {
            #expect(FileManager.default.contents(atPath: path) == FixtureBytes.png, "the bytes arrive unchanged: \(path)")
        }
        #expect(Self.names(pictures) == ["\(name)-2.png", "\(name).png"], "no temporary file is left behind")
    }

    @Test func withoutUserDirsTheFolderIsPicturesUnderHomeAndIsCreated() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let saved = try Self.returnedPaths(run)
        #expect(saved.count == 1 && saved.first?.hasPrefix(fixtures.home.appendingPathComponent("Pictures").path + "/") == true,
                "\(saved)")
    }

    @Test func anImageURLIsDownloadedThroughRedirectsAndATextPageIsRefused() throws {
        let fixtures = try Fixtures()
        let served = fixtures.root.appendingPathComponent("served", isDirectory: true)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try FixtureBytes.png.write(to: served.appendingPathComponent("face.png"))
        // An HTML page that the server calls image/png: the bytes decide.
        try Data("<!doctype html><title>not a picture</title>".utf8).write(to: served.appendingPathComponent("page.png"))
        let service = try MustacheService(directory: fixtures.root, arguments: ["--serve", served.path])
        defer { service.stop() }
        let base = "http://127.0.0.1:\(service.port)"
        let pictures = fixtures.home.appendingPathComponent("Pictures")

        let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", base + "/redirect/2/x/face.png")
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try Self.returnedPaths(run) == [pictures.appendingPathComponent("face.png").path])
        #expect(FileManager.default.contents(atPath: pictures.appendingPathComponent("face.png").path) == FixtureBytes.png)
        #expect(try service.requests().map(\.path) == ["/redirect/2/x/face.png", "/redirect/1/x/face.png", "/files/face.png"])

        let refused = try fixtures.share("--activity", "saveToCameraRoll", "--json", base + "/files/page.png")
        #expect(refused.status == 3, "stderr: \(refused.err)")
        #expect(refused.err.contains("is not an image") && refused.err.contains("text/html"), "stderr: \(refused.err)")
        #expect(Self.names(pictures) == ["face.png"], "nothing of the page is kept, not even a temporary file")

        let tooMany = try fixtures.share("--activity", "saveToCameraRoll", base + "/redirect/7/x/face.png")
        #expect(tooMany.status == 3, "stderr: \(tooMany.err)")
        #expect(tooMany.err.contains("more than 5 redirects"), "stderr: \(tooMany.err)")
        let missing = try fixtures.share("--activity", "saveToCameraRoll", base + "/files/gone.png")
        #expect(missing.status == 3 && missing.err.contains("404"), "stderr: \(missing.err)")
        #expect(Self.names(pictures) == ["face.png"])
    }
}
