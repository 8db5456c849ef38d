import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Pictures made and read by programs other than share: Pillow and exiftool
/// (`Tests/Support/image_tool.py`), so that what share writes is judged by
/// the readers people use.
enum PictureTool {
    /// Runs image_tool.py with `arguments`; its standard output.
    @discardableResult
    static func run(_ arguments: [String], in folder: URL) throws -> String {
        let run = try Share.run(ServerScript.python, [ServerScript.support.appendingPathComponent("image_tool.py").path] + arguments,
                                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], directory: folder)
        try #require(run.status == 0, "image_tool.py \(arguments): \(run.err)")
        return run.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A picture as a phone leaves it (EXIF with GPS, XMP and IPTC naming a
    /// place, a comment, keywords, a JPEG's thumbnail), written to `name` in `folder`.
    static func camera(_ name: String, in folder: URL, width: Int = 64, height: Int = 48, orientation: Int = 1,
                       quality: Int = 90) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try run(["camera", url.path, String(width), String(height), String(orientation), String(quality)], in: folder)
        return url
    }

    /// Every tag exiftool reads, as `GROUP:NAME` → value (`exiftool -j -a -G1`), the file's own aside.
    static func tags(_ url: URL) throws -> [String: String] {
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/exiftool"), ["-j", "-a", "-G1", url.path],
                                environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], directory: url.deletingLastPathComponent())
        try #require(run.status == 0, "exiftool: \(run.err)")
        let array = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]], "exiftool: \(run.out)")
        var tags: [String: String] = [:]
        for (key, value) in array.first ?? [:] where !key.hasPrefix("System:") && !key.hasPrefix("ExifTool:") && key != "SourceFile" {
            tags[key] = "\(value)"
        }
        return tags
    }

    /// The tags that say where a picture was taken.
    static func places(_ tags: [String: String]) -> [String: String] {
        tags.filter { key, _ in ["GPS", "City", "Country", "Province", "Location"].contains { key.contains($0) } }
    }

    /// The SHA-256 of a JPEG's scan or a PNG's image data, as Python reads them.
    static func scan(_ url: URL) throws -> String { try run(["scan", url.path], in: url.deletingLastPathComponent()) }

    /// The original turned upright by its EXIF orientation, against the copy, pixel by pixel.
    struct Comparison: Decodable {
        var original: [Int]
        var copy: [Int]
        var max: Int?
        var mean: Double?
    }

    static func compare(_ original: URL, _ copy: URL) throws -> Comparison {
        try JSONDecoder().decode(Comparison.self, from: Data(try run(["compare", original.path, copy.path], in: copy.deletingLastPathComponent()).utf8))
    }
}

/// The options before sharing (SPEC §9): `--no-location`, `--no-metadata`,
/// `--resize` and `[options] location`, applied to what every activity
/// receives, judged by exiftool and Pillow.
@Suite struct SharingOptionsTests {
    /// The one picture Save to Pictures saved in this run.
    static func saved(_ fixtures: Fixtures, _ run: ShareRun) throws -> URL {
        #expect(run.status == 0, "stderr: \(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out)")
        let items = try #require(object["returnedItems"] as? [[String: Any]])
        return URL(fileURLWithPath: try #require(items.first?["value"] as? String, "\(items)"))
    }

    /// A plugin activity, `com.example.keep`, that writes the paths it is
    /// given to `paths.txt` in the fixtures' root and copies each file to
    /// `received/N/` (N from 1, in order, under the file's own name); the
    /// folder `received`.
    static func keepingPlugin(_ fixtures: Fixtures) throws -> URL {
        let received = fixtures.root.appendingPathComponent("received", isDirectory: true)
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        let script = fixtures.files.appendingPathComponent("keep.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(fixtures.root.path)/paths.txt\ni=0\nfor f in \"$@\"; do i=$((i+1)); mkdir \(received.path)/$i; cp \"$f\" \(received.path)/$i/; done\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[Activity]\nType=com.example.keep\nName=Keep\nAccepts=image;\nExec=\(script.path) %F\n"
            .write(to: folder.appendingPathComponent("keep.activity"), atomically: true, encoding: .utf8)
        return received
    }

    @Test func noLocationRemovesThePlaceAndNothingElseAndTheScanStaysTheSame() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files, orientation: 6)
        let before = try Data(contentsOf: photo)
        let originalTags = try PictureTool.tags(photo)
        #expect(PictureTool.places(originalTags).count >= 8, "the picture names its place: \(originalTags)")

        let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", "--no-location", photo.path)
        let copy = try Self.saved(fixtures, run)
        let tags = try PictureTool.tags(copy)
        #expect(PictureTool.places(tags).isEmpty, "no place is left: \(PictureTool.places(tags))")
        for kept in ["IFD0:Make", "IFD0:Orientation", "IPTC:Keywords", "File:Comment", "IFD1:ThumbnailImage"] {
            #expect(tags[kept] == originalTags[kept], "\(kept) stays: \(tags[kept] ?? "missing")")
        }
        #expect(try PictureTool.scan(copy) == PictureTool.scan(photo), "the compressed picture is byte for byte the same")
        #expect(try Data(contentsOf: photo) == before, "the original is never changed")
        #expect(copy.lastPathComponent == "market.jpg", "the copy keeps the original's name")
    }

    @Test func noMetadataRemovesEverythingAndTurnsThePictureUpright() throws {
        let fixtures = try Fixtures()
        // 64×48 turns losslessly (whole 16×16 blocks); 60×44 does not, and is decoded and encoded again.
        for (name, width, height, lossless) in [("whole.jpg", 64, 48, true), ("odd.jpg", 60, 44, false)] {
            let photo = try PictureTool.camera(name, in: fixtures.files, width: width, height: height, orientation: 6)
            let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", "--no-metadata", photo.path)
            let copy = try Self.saved(fixtures, run)
            let tags = try PictureTool.tags(copy)
            let metadata = tags.keys.filter { !$0.hasPrefix("File:") && !$0.hasPrefix("JFIF:") && !$0.hasPrefix("Composite:") }
            #expect(metadata.isEmpty, "\(name): nothing but the file's own is left: \(metadata.sorted())")
            #expect(tags["File:Comment"] == nil)
            let comparison = try PictureTool.compare(photo, copy)
            #expect(comparison.copy == [height, width] && comparison.original == comparison.copy, "\(name): upright: \(comparison)")
            // A lossless turn moves the blocks: only the decoder's rounding differs. A new encoding is near.
            #expect((comparison.mean ?? 99) < (lossless ? 1 : 3), "\(name): the same picture: \(comparison)")
        }
    }

    @Test func pngLosesItsTextAndEXIFWithItsImageDataUnchanged() throws {
        let fixtures = try Fixtures()
        let picture = try PictureTool.camera("screen.png", in: fixtures.files)
        let located = try Self.saved(fixtures, try fixtures.share("--activity", "saveToCameraRoll", "--json", "--no-location", picture.path))
        let locatedTags = try PictureTool.tags(located)
        #expect(PictureTool.places(locatedTags).isEmpty, "\(PictureTool.places(locatedTags))")
        #expect(locatedTags["IFD0:Make"] == "Share Test Camera" && locatedTags["PNG:Comment"] == "taken at home", "\(locatedTags)")
        #expect(try PictureTool.scan(located) == PictureTool.scan(picture))

        let bare = try Self.saved(fixtures, try fixtures.share("--activity", "saveToCameraRoll", "--json", "--no-metadata", picture.path))
        let bareTags = try PictureTool.tags(bare)
        let left = bareTags.keys.filter { !$0.hasPrefix("File:") && !$0.hasPrefix("Composite:") && !$0.hasPrefix("PNG:") }
        #expect(left.isEmpty, "\(left.sorted())")
        #expect(bareTags["PNG:Comment"] == nil && bareTags["PNG:ModifyDate"] == nil, "\(bareTags)")
        #expect(try PictureTool.scan(bare) == PictureTool.scan(picture))
    }

    @Test func autoKeepsThePlaceForPrivateActivitiesAndTheConfigCanStripIt() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        let kept = try Self.saved(fixtures, try fixtures.share("--activity", "saveToCameraRoll", "--json", photo.path))
        #expect(!PictureTool.places(try PictureTool.tags(kept)).isEmpty, "Save to Pictures is private: the place stays")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: photo))

        let config = fixtures.root.appendingPathComponent("options.conf")
        try "[options]\nlocation = strip\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try fixtures.share("--config", config.path, "--activity", "saveToCameraRoll", photo.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err.contains("Location removed from 1 photo"), "the share says what it removed: \(run.err)")
        let stripped = fixtures.home.appendingPathComponent("Pictures/market-2.jpg")
        #expect(PictureTool.places(try PictureTool.tags(stripped)).isEmpty)

        try "[options]\nlocation = nowhere\n".write(to: config, atomically: true, encoding: .utf8)
        let bad = try fixtures.share("--config", config.path, "--activity", "saveToCameraRoll", photo.path)
        bad.expectExit(2, saying: "options.conf:2", "location takes auto, keep or strip, not 'nowhere'")
    }

    @Test func aPluginsFilesAreTheChangedCopiesInOrderAndTheyAreGoneAfterTheShare() throws {
        let fixtures = try Fixtures()
        let photos = try ["market.jpg", "street.jpg", "plan.png", "turned.jpg"].enumerated().map { index, name in
            try PictureTool.camera(name, in: fixtures.files, width: 64 + 16 * index, height: 48, orientation: index == 3 ? 6 : 1)
        }
        let received = try Self.keepingPlugin(fixtures)
        let temporary = fixtures.root.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

        let run = try fixtures.share(["--activity", "com.example.keep", "--no-metadata"] + photos.map(\.path), changes: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err.contains("Metadata removed from 4 photos"), "stderr: \(run.err)")
        let paths = try String(contentsOf: fixtures.root.appendingPathComponent("paths.txt"), encoding: .utf8).split(separator: "\n")
        #expect(paths.map { $0.split(separator: "/").last.map(String.init) ?? "" } == photos.map(\.lastPathComponent), "in the items' order: \(paths)")
        #expect(paths.allSatisfy { $0.hasPrefix(temporary.path + "/share-options-") }, "\(paths)")
        for (index, photo) in photos.enumerated() {
            let tags = try PictureTool.tags(received.appendingPathComponent("\(index + 1)/\(photo.lastPathComponent)"))
            #expect(tags.keys.filter { $0.hasPrefix("IFD") || $0.hasPrefix("GPS") || $0.hasPrefix("XMP") || $0.hasPrefix("IPTC") }.isEmpty,
                    "\(photo.lastPathComponent): \(tags)")
        }
        #expect(try PictureTool.compare(photos[3], received.appendingPathComponent("4/turned.jpg")).copy == [48, 112], "the turned one upright")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the private folder is removed at exit")

        // One broken picture among them fails the share, and names it.
        let cut = try fixtures.file("cut.jpg", try Data(contentsOf: photos[0]).prefix(200))
        let refused = try fixtures.share(["--activity", "com.example.keep", "--no-location"] + photos.map(\.path) + [cut.path],
                                         changes: ["TMPDIR": temporary.path])
        refused.expectExit(3, saying: "cannot remove the location from cut.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "nothing is left behind")
    }

    @Test func aMailsAttachmentIsTheChangedCopy() throws {
        let world = try MailWorld()
        let photo = try PictureTool.camera("market.jpg", in: world.fixtures.files, orientation: 3)
        let run = try world.share(["--activity", "mail", "--save-draft", "--to", "park@example.com", "--subject", "market", "--no-metadata",
                                   photo.path])
        #expect(run.status == 1, "saved as a draft: \(run.err)")
        let draft = try #require(world.allMessages(in: world.drafts).first, "\(world.folders)")
        let out = world.root.appendingPathComponent("attachments", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(try PictureTool.run(["attachments", draft.path, out.path], in: world.root) == "market.jpg")
        let attached = out.appendingPathComponent("market.jpg")
        let tags = try PictureTool.tags(attached)
        #expect(tags.keys.filter { $0.hasPrefix("IFD") || $0.hasPrefix("GPS") || $0.hasPrefix("XMP") || $0.hasPrefix("IPTC") }.isEmpty, "\(tags)")
        let comparison = try PictureTool.compare(photo, attached)
        #expect(comparison.copy == [64, 48] && (comparison.mean ?? 99) < 1, "turned 180° upright: \(comparison)")
    }

    @Test func resizeScalesTheLongestSideKeepingQualityAndMetadata() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("wide.jpg", in: fixtures.files, width: 640, height: 480, orientation: 6, quality: 75)
        let run = try fixtures.share("--activity", "saveToCameraRoll", "--json", "--resize", "100", photo.path)
        let copy = try Self.saved(fixtures, run)
        let comparison = try PictureTool.compare(photo, copy)
        #expect(comparison.copy == [75, 100], "turned upright, then 100 pixels on its longest side: \(comparison)")
        let tags = try PictureTool.tags(copy)
        #expect(tags["IFD0:Orientation"] == "Horizontal (normal)", "\(tags)")
        #expect(tags["IFD0:Make"] == "Share Test Camera" && !PictureTool.places(tags).isEmpty, "Save to Pictures keeps the rest: \(tags)")
        let tables = (try PictureTool.run(["quantization", copy.path], in: fixtures.files), try PictureTool.run(["quantization", photo.path], in: fixtures.files))
        #expect(tables.0 == tables.1, "encoded at the quality it had")

        let small = try PictureTool.camera("small.png", in: fixtures.files, width: 40, height: 30)
        let untouched = try Self.saved(fixtures, try fixtures.share("--activity", "saveToCameraRoll", "--json", "--resize", "100", small.path))
        #expect(try Data(contentsOf: untouched) == Data(contentsOf: small), "a picture that fits is left as it is")
        let png = try PictureTool.camera("big.png", in: fixtures.files, width: 300, height: 200)
        let scaled = try Self.saved(fixtures, try fixtures.share("--activity", "saveToCameraRoll", "--json", "--resize", "150", "--no-location", png.path))
        let pngTags = try PictureTool.tags(scaled)
        #expect(pngTags["PNG:ImageWidth"] == "150" && pngTags["PNG:ImageHeight"] == "100", "\(pngTags)")
        #expect(PictureTool.places(pngTags).isEmpty && pngTags["PNG:Comment"] == "taken at home", "\(pngTags)")
    }

    @Test func aBrokenPictureIsRefusedAndNothingIsShared() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        let whole = try Data(contentsOf: photo)
        // Cut inside its EXIF segment: the segment's length runs past the end.
        let cut = try fixtures.file("cut.jpg", whole.prefix(200))
        let run = try fixtures.share("--activity", "saveToCameraRoll", "--no-location", cut.path)
        run.expectExit(3, saying: "cannot remove the location from cut.jpg", "runs past the end of the file", "location = keep")
        #expect(!FileManager.default.fileExists(atPath: fixtures.home.appendingPathComponent("Pictures").path), "nothing was saved")
        // A bad length in the first segment.
        var bad = whole
        bad[4] = 0
        bad[5] = 1
        let broken = try fixtures.file("broken.jpg", bad)
        let refused = try fixtures.share("--activity", "saveToCameraRoll", "--no-metadata", broken.path)
        #expect(refused.status == 3 || refused.status == 2, "\(refused.err)")
        #expect(refused.err.contains("broken.jpg"), "\(refused.err)")
    }

    @Test func theOptionsLineChangesWhatThePickedActivityGets() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        let command = try PickerEndToEndTests.share(["--only", "saveToCameraRoll", photo.path])
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        // Save to Pictures is private: by default the place stays, and the header says so.
        _ = try session.waitFor("Options: location kept (o)")
        try session.send("o")
        _ = try session.waitFor("Location always removed")
        try session.send("Down", "Down", "Enter", "Escape")
        _ = try session.waitFor("Options: location removed from 1 photo (o)")
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let saved = fixtures.home.appendingPathComponent("Pictures/market.jpg")
        #expect(PictureTool.places(try PictureTool.tags(saved)).isEmpty, "the option chosen in the picker applied")
        #expect(session.stderr.contains("Location removed from 1 photo"), "stderr: \(session.stderr)")
    }

    @Test func linkIsPublicSoItsUploadHasNoPlace() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", photo.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let link = try #require(try LinkTests.links(run).first, "stdout: \(run.out)")
        let fetched = fixtures.root.appendingPathComponent("fetched.jpg")
        try LinkPlaceServer.fetch(link).write(to: fetched)
        #expect(PictureTool.places(try PictureTool.tags(fetched)).isEmpty, "no place in what the link serves")
        #expect(try PictureTool.scan(fetched) == PictureTool.scan(photo))
    }

    @Test func twoPicturesOfOneNameFromTwoFoldersKeepTheirNameAndStayApart() throws {
        let fixtures = try Fixtures()
        let other = fixtures.files.appendingPathComponent("other", isDirectory: true)
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let first = try PictureTool.camera("market.jpg", in: fixtures.files, width: 64)
        let second = try PictureTool.camera("market.jpg", in: other, width: 80)
        // A picture named as the folder the clash would take ("2") does not stand in its way.
        let two = try PictureTool.camera("2", in: fixtures.files, width: 96)
        let received = try Self.keepingPlugin(fixtures)

        let run = try fixtures.share(["--activity", "com.example.keep", "--no-metadata", two.path, first.path, second.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let paths = try String(contentsOf: fixtures.root.appendingPathComponent("paths.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(paths.map { $0.split(separator: "/").last.map(String.init) ?? "" } == ["2", "market.jpg", "market.jpg"], "\(paths)")
        #expect(Set(paths).count == 3, "three files: \(paths)")
        let widths = try zip(1...3, ["2", "market.jpg", "market.jpg"]).map { index, name in
            try PictureTool.compare(first, received.appendingPathComponent("\(index)/\(name)")).copy
        }
        #expect(widths == [[96, 48], [64, 48], [80, 48]], "each copy is its own picture, in order: \(widths)")
    }

    @Test func nearbysLinkIsPublicSoItsDownloadHasNoPlaceAndNoMetadataTurnsItUpright() throws {
        let fixtures = try Fixtures()
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        // By default: the place goes, the rest and the compressed picture stay.
        let run = try NearbyRun(fixtures, [photo.path])
        defer { run.stop() }
        let got = try Fetched.get(run.url, in: fixtures.root)
        #expect(got.status == 200)
        let fetched = fixtures.root.appendingPathComponent("fetched.jpg")
        try got.body.write(to: fetched)
        let tags = try PictureTool.tags(fetched)
        #expect(PictureTool.places(tags).isEmpty, "no place in what the phone downloads: \(PictureTool.places(tags))")
        #expect(tags["IFD0:Make"] != nil, "the rest of the EXIF stays: \(tags)")
        #expect(try PictureTool.scan(fetched) == PictureTool.scan(photo))
        #expect(got.headers["content-disposition"]?.contains("filename=\"market.jpg\"") == true, "the original's name: \(got.headers)")
        let (status, _, stderr) = run.finish()
        #expect(status == 0, "\(stderr)")

        // --no-metadata: nothing is left, and the picture lying on its side comes upright.
        let sideways = try PictureTool.camera("sideways.jpg", in: fixtures.files, orientation: 6)
        let bare = try NearbyRun(fixtures, ["--no-metadata", sideways.path])
        defer { bare.stop() }
        let second = try Fetched.get(bare.url, in: fixtures.root)
        let upright = fixtures.root.appendingPathComponent("upright.jpg")
        try second.body.write(to: upright)
        let left = try PictureTool.tags(upright).keys.filter { $0.hasPrefix("IFD") || $0.hasPrefix("GPS") || $0.hasPrefix("XMP") || $0.hasPrefix("IPTC") }
        #expect(left.isEmpty, "no metadata: \(left.sorted())")
        let comparison = try PictureTool.compare(sideways, upright)
        #expect(comparison.copy == [48, 64] && comparison.original == comparison.copy && (comparison.mean ?? 99) < 1,
                "turned upright: \(comparison)")
        #expect(bare.finish().status == 0)
    }

    @Test func aFormatShareCannotReadPassesWithAWarningUnlessTheLocationWasAskedAway() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let webp = fixtures.files.appendingPathComponent("sticker.webp")
        try PictureTool.run(["solid", webp.path, "8", "8", "10", "20", "30"], in: fixtures.files)
        // Link is public: the default would remove the place, cannot read WebP, and says so.
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", webp.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let warnings = object["warnings"] as? [String] ?? []
        #expect(warnings == ["the location of sticker.webp (image/webp) could not be checked; it was shared as it is"], "\(object)")
        // Asked by name, it is refused: nothing goes.
        let asked = try fixtures.share("--config", config.path, "--activity", "link", "--no-location", webp.path)
        asked.expectExit(3, saying: "cannot remove the location from sticker.webp: share rewrites JPEG and PNG pictures, not image/webp")
    }

    @Test func asLinkUploadsFirstAndTheActivityGetsTheLink() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let photo = try PictureTool.camera("market.jpg", in: fixtures.files)
        // Save to Pictures takes the link and downloads the picture back from the place.
        let run = try fixtures.share("--config", config.path, "--activity", "saveToCameraRoll", "--as-link", photo.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err.contains("Uploaded to paste: the activity got 1 link"), "stderr: \(run.err)")
        #expect(run.err.contains("Location removed from 1 photo"), "a link is public: the place goes; stderr: \(run.err)")
        let request = try paste.nextRequest()
        let parts = try #require(request["parts"] as? [[String: Any]])
        #expect(parts.contains { $0["filename"] as? String == "market.jpg" }, "\(parts.map { $0["filename"] ?? "" })")
        let saved = fixtures.home.appendingPathComponent("Pictures/market.jpg")
        #expect(PictureTool.places(try PictureTool.tags(saved)).isEmpty)
        #expect(try PictureTool.scan(saved) == PictureTool.scan(photo))

        // An activity that takes no links refuses at once; without a place, it says what to add.
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[Activity]\nType=com.example.keep\nName=Keep\nAccepts=image;\nExec=/bin/true %f\n"
            .write(to: folder.appendingPathComponent("keep.activity"), atomically: true, encoding: .utf8)
        let refused = try fixtures.share("--config", config.path, "--activity", "com.example.keep", "--as-link", photo.path)
        refused.expectExit(3, saying: "--as-link: Keep takes no links; pick another activity, or share without --as-link")
        #expect(paste.server.nextLine(within: 1) == nil, "nothing was uploaded for it")
        let nowhere = try fixtures.share("--activity", "saveToCameraRoll", "--as-link", photo.path)
        nowhere.expectExit(3, saying: "--as-link: sending files as links needs a place to upload them to: add a [link.NAME] section")
    }

    @Test func badValuesAndMisplacedOptionsAreUsageErrors() throws {
        let fixtures = try Fixtures()
        for value in ["0", "abc", "70000", "-5"] {
            try fixtures.share("--resize", value, "--list", fixtures.png.path).expectExit(2, saying: "--resize takes the longest side in pixels")
        }
        try fixtures.share("--no-location", "--history").expectExit(2, saying: "--no-location changes what is shared; it does nothing with --history")
    }
}
