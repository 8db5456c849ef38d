import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ShareActivities
import ShareCore

/// Assign to Contact (SPEC §2): one image becomes a contact's photo in the
/// vCard folder; only the card's PHOTO changes, byte for byte, and a
/// program other than share (Python's vobject) reads the result.
@Suite struct AssignToContactTests {
    /// A 3.0 card with what a card from the wild has: a Korean name, a
    /// folded line, grouped lines, an unknown X- property, lower-case names.
    static let minji = [
        "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Test//KR", "UID:minji-1", "FN:김민지", "N:김;민지;;;",
        "item1.EMAIL;type=INTERNET;type=pref:minji@example.com", "item1.X-ABLabel:_$!<Work>!$_",
        "NOTE:이 메모는 두 줄로 접혀 있습니다. This note is long enough that it is fol",
        " ded across two physical lines.", "x-custom;x-param=\"a:b\":value kept as is", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    /// A 4.0 card with a photo by URI, in the same file after Minji.
    static let jun = [
        "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:jun-2", "FN:Lee Jun", "PHOTO:https://example.com/jun.jpg",
        "EMAIL;TYPE=work:jun@example.com", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    /// A world with a vCard folder at `~/.contacts` holding `files`.
    static func world(_ files: [String: String], base: URL = FileManager.default.temporaryDirectory) throws -> (Fixtures, URL) {
        let fixtures = try Fixtures(base: base)
        let folder = fixtures.home.appendingPathComponent(".contacts/default", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return (fixtures, folder)
    }

    /// The physical lines of a PHOTO property starting at `line` of `text`, unfolded back into one.
    static func photoLines(_ text: String) -> [String] {
        var lines: [String] = []
        var inPhoto = false
        for line in text.components(separatedBy: "\r\n") {
            if line.uppercased().hasPrefix("PHOTO") || line.uppercased().contains(".PHOTO") { inPhoto = true; lines.append(line) }
            else if inPhoto, line.hasPrefix(" ") { lines.append(line) }
            else { inPhoto = false }
        }
        return lines
    }

    /// The text without its PHOTO lines (and their continuations).
    static func withoutPhotos(_ text: String) -> String {
        var kept: [String] = []
        var inPhoto = false
        for line in text.components(separatedBy: "\r\n") {
            if line.uppercased().hasPrefix("PHOTO") || line.uppercased().contains(".PHOTO") { inPhoto = true; continue }
            if inPhoto, line.hasPrefix(" ") { continue }
            inPhoto = false
            kept.append(line)
        }
        return kept.joined(separator: "\r\n")
    }

    /// What vobject reads from a file: per card, its FN and photos.
    struct VObjectCard: Decodable {
        struct Photo: Decodable {
            var params: [String: [String]]
            var sha256: String
            var length: Int
            var format: String?
            var width: Int?
            var height: Int?
            var top_left: [Int]?
            var bottom_right: [Int]?
        }
        var fn: String?
        var photos: [Photo]
    }

    static func vobject(_ url: URL) throws -> [VObjectCard] {
        try JSONDecoder().decode([VObjectCard].self, from: ServerScript.query("vcard_tool.py", ["photos", url.path]))
    }

    static func sha256(_ data: Data) throws -> String {
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [], environment: ["PATH": "/usr/bin:/bin"],
                                directory: FileManager.default.temporaryDirectory, input: data)
        return String(run.out.prefix(64))
    }

    // MARK: - Writing

    @Test func aPhotoIn3Point0IsReadByVObjectAndEveryOtherByteIsKept() throws {
        let (fixtures, folder) = try Self.world(["people.vcf": Self.minji + Self.jun])
        let file = folder.appendingPathComponent("people.vcf")
        let run = try fixtures.share("--activity", "assignToContact", "--contact", "김민지", "--json", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("김민지: photo 1×1 PNG"), "stdout: \(run.out)")

        let written = try #require(try? String(contentsOf: file, encoding: .utf8))
        #expect(Self.withoutPhotos(written) == Self.withoutPhotos(Self.minji + Self.jun),
                "only the photo differs:\n\(written)")
        #expect(written.hasSuffix(Self.jun), "the other card is untouched")
        let photo = Self.photoLines(String(written.prefix(written.count - Self.jun.count)))
        #expect(photo.first?.hasPrefix("PHOTO;ENCODING=b;TYPE=PNG:") == true, "\(photo)")
        // Just before END:VCARD, folded at 75 octets with CRLF.
        #expect(written.contains(photo.joined(separator: "\r\n") + "\r\nEND:VCARD\r\n"))
        for line in photo { #expect(line.utf8.count <= 75, "\(line.utf8.count) octets: \(line)") }

        let cards = try Self.vobject(file)
        #expect(cards.map(\.fn) == ["김민지", "Lee Jun"])
        let read = try #require(cards.first?.photos.first)
        #expect(cards[0].photos.count == 1)
        #expect(read.format == "PNG" && read.width == 1 && read.height == 1)
        #expect(read.sha256 == (try Self.sha256(FixtureBytes.png)), "the same bytes as the image shared")
    }

    @Test func aPhotoIn4Point0IsADataURIThatReplacesTheOldPhoto() throws {
        let (fixtures, folder) = try Self.world(["people.vcf": Self.minji + Self.jun])
        let file = folder.appendingPathComponent("people.vcf")
        let run = try fixtures.share("--activity", "assignToContact", "--contact", "urn:uuid:jun-2", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let written = try #require(try? String(contentsOf: file, encoding: .utf8))
        #expect(written.hasPrefix(Self.minji), "the first card is untouched")
        let card = String(written.dropFirst(Self.minji.count))
        let photo = Self.photoLines(card)
        // In place of the old photo line, not moved.
        #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:jun-2\r\nFN:Lee Jun\r\nPHOTO:data:image/png;base64,"), "\(card)")
        let uri = photo.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined()
        let encoded = try #require(uri.split(separator: ",", maxSplits: 1).last)
        #expect(Data(base64Encoded: String(encoded)) == FixtureBytes.png, "the data URI decodes to the image shared")
        #expect(!written.contains("https://example.com/jun.jpg"))
    }

    @Test func aCardWithTwoPhotosKeepsOneInThePlaceAndGroupOfTheFirst() throws {
        let card = ["BEGIN:VCARD", "VERSION:3.0", "FN:Two Photos", "item2.PHOTO;VALUE=uri:https://example.com/a.png",
                    "EMAIL:two@example.com", "PHOTO;ENCODING=b;TYPE=GIF:R0lGODlhAQABAAAAACw=", "END:VCARD"].joined(separator: "\r\n") + "\r\n"
        let (fixtures, folder) = try Self.world(["two.vcf": card])
        let run = try fixtures.share("--activity", "assignToContact", "--contact", "two@example.com", fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let written = try String(contentsOf: folder.appendingPathComponent("two.vcf"), encoding: .utf8)
        let photo = Self.photoLines(written)
        #expect(photo.first?.hasPrefix("item2.PHOTO;ENCODING=b;TYPE=PNG:") == true, "\(written)")
        #expect(written.components(separatedBy: "PHOTO").count == 2, "one photo left:\n\(written)")
        #expect(Self.withoutPhotos(written) == Self.withoutPhotos(card))
        #expect(written.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Two Photos\r\nitem2.PHOTO;"))
    }

    @Test func aLargeImageIsScaledTo512AndTheOriginalIsUntouched() throws {
        let (fixtures, folder) = try Self.world(["minji.vcf": Self.minji])
        let png = fixtures.files.appendingPathComponent("wide.png")
        try ImageTool.solid(at: png, width: 1200, height: 800, rgb: [200, 30, 30])
        let jpeg = fixtures.files.appendingPathComponent("tall.jpg")
        try ImageTool.solid(at: jpeg, width: 700, height: 1400, rgb: [20, 60, 220])
        let originals = [try Data(contentsOf: png), try Data(contentsOf: jpeg)]
        let file = folder.appendingPathComponent("minji.vcf")

        let first = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", png.path)
        #expect(first.status == 0, "stderr: \(first.err)")
        var photo = try #require(try Self.vobject(file).first?.photos.first)
        #expect(photo.format == "PNG" && photo.width == 512 && photo.height == 341, "\(photo)")

        let second = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", jpeg.path)
        #expect(second.status == 0, "stderr: \(second.err)")
        let cards = try Self.vobject(file)
        #expect(cards.first?.photos.count == 1, "the PNG photo was replaced")
        photo = try #require(cards.first?.photos.first)
        #expect(photo.format == "JPEG" && photo.width == 256 && photo.height == 512, "\(photo)")
        #expect(photo.params["TYPE"] == ["JPEG"])
        #expect([try Data(contentsOf: png), try Data(contentsOf: jpeg)] == originals, "the shared files are never changed")
    }

    @Test(arguments: [(6, "red on top"), (8, "red at the bottom")])
    func aTurnedPhoneJPEGIsStoredUpright(orientation: Int, expected: String) throws {
        let (fixtures, folder) = try Self.world(["minji.vcf": Self.minji])
        // Stored 800×400, left half red: EXIF says it is shown turned, 400×800.
        let jpeg = fixtures.files.appendingPathComponent("phone.jpg")
        let run = try Share.run(ServerScript.python, [ServerScript.support.appendingPathComponent("image_tool.py").path, "halves",
                                                      jpeg.path, "800", "400", String(orientation)],
                                environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.files)
        try #require(run.status == 0, "image_tool.py: \(run.err)")
        let assigned = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", jpeg.path)
        #expect(assigned.status == 0, "stderr: \(assigned.err)")
        let photo = try #require(try Self.vobject(folder.appendingPathComponent("minji.vcf")).first?.photos.first)
        #expect(photo.width == 256 && photo.height == 512, "upright: \(photo)")
        let red = [255, 0, 0], blue = [0, 0, 255]
        func near(_ rgb: [Int]?, _ wanted: [Int]) -> Bool { rgb.map { zip($0, wanted).allSatisfy { abs($0 - $1) < 40 } } ?? false }
        let (top, bottom) = orientation == 6 ? (red, blue) : (blue, red)
        #expect(near(photo.top_left, top) && near(photo.bottom_right, bottom), "\(expected): \(photo)")
    }

    // MARK: - Large files

    /// An exported address book: `count` cards in one file, each with a
    /// name (`Person 0001`), an address (`person0001@example.com`) and a
    /// UID (`person-0001`), the first card's NOTE padded so that the file
    /// is `size` bytes.
    static func addressBook(cards count: Int, size: Int, name: String = "Person") throws -> String {
        let lower = name.lowercased()
        func card(_ number: Int, note: String = "") -> String {
            let id = String(format: "%04d", number)
            return ["BEGIN:VCARD", "VERSION:3.0", "UID:\(lower)-\(id)", "FN:\(name) \(id)", "N:\(id);\(name);;;",
                    "EMAIL;TYPE=INTERNET:\(lower)\(id)@example.com", "TEL;TYPE=CELL:+82 10 5555 \(id)",
                    "NOTE:exported from a phone's address book\(note)", "END:VCARD"].joined(separator: "\r\n") + "\r\n"
        }
        let rest = (2...count).map { card($0) }.joined()
        let plain = card(1) + rest
        try #require(plain.utf8.count <= size, "\(count) cards take \(plain.utf8.count) bytes")
        // The padding folded as a writer folds it: 74 octets and a space per line.
        var padding = ""
        var left = size - plain.utf8.count
        while left > 0 {
            let piece = min(left, 76)
            padding += piece <= 3 ? String(repeating: "x", count: piece) : "\r\n " + String(repeating: "x", count: piece - 3)
            left -= piece
        }
        let book = card(1, note: padding) + rest
        try #require(book.utf8.count == size)
        return book
    }

    /// Share's own photo takes a file of 2,300 cards past 1 MiB: every
    /// contact is still listed, completed and found, in that file and in
    /// one that was over 1 MiB from the start.
    @Test func aPhotoThatTakesAFilePast1MiBLosesNoContact() throws {
        let book = try Self.addressBook(cards: 2300, size: (1 << 20) - 40)
        let big = try Self.addressBook(cards: 3000, size: 1_300_000, name: "Big")
        let (fixtures, folder) = try Self.world(["all.vcf": book, "big.vcf": big])
        let config = try fixtures.writeConfig("[contacts]\nvcard-dir = \(folder.path)\n")
        let file = folder.appendingPathComponent("all.vcf")
        let everyone = Set((1...2300).map { String(format: "Person %04d", $0) } + (1...3000).map { String(format: "Big %04d", $0) })

        let first = try fixtures.share("--config", config.path, "--activity", "assignToContact", "--contact", "person-0001", fixtures.png.path)
        #expect(first.status == 0, "stderr: \(first.err)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        try #require(size > 1 << 20, "the photo took the file past 1 MiB: \(size) bytes")

        let listed = try fixtures.share("--config", config.path, "--complete", "contacts")
        #expect(listed.status == 0, "stderr: \(listed.err)")
        let names = listed.out.split(separator: "\n").map(String.init)
        #expect(names.count == everyone.count && Set(names) == everyone,
                "\(names.count) names listed; missing: \(everyone.subtracting(names).sorted().prefix(5))")
        for wanted in ["person2300", "person1150", "big2999"] {
            let completed = try fixtures.share("--config", config.path, "--complete", "addresses", wanted)
            #expect(completed.out.split(separator: "\n").contains { $0.hasPrefix(wanted + "@") }, "\(wanted): \(completed.out)")
        }
        for contact in ["Person 2300", "person0002@example.com", "big-3000"] {
            let run = try fixtures.share("--config", config.path, "--activity", "assignToContact", "--contact", contact, fixtures.png.path)
            #expect(run.status == 0, "\(contact): \(run.err)")
        }
        let cards = try Self.vobject(file)
        #expect(cards.count == 2300 && cards.filter { !$0.photos.isEmpty }.count == 3, "\(cards.count) cards read back")
    }

    /// A file over the limit (64 MiB) is named, with the limit, when the
    /// contact asked for is not found; the other files are read.
    @Test func aFileOverTheLimitIsNamedNeverSkippedInSilence() throws {
        let huge = ["BEGIN:VCARD", "VERSION:3.0", "UID:huge-1", "FN:Kim Huge", "END:VCARD"].joined(separator: "\r\n") + "\r\n"
        let (fixtures, folder) = try Self.world(["minji.vcf": Self.minji, "huge.vcf": huge])
        let file = folder.appendingPathComponent("huge.vcf")
        // 64 MiB and one byte, without writing them (a sparse file).
        try #require(truncate(file.path, (64 << 20) + 1) == 0)
        let run = try fixtures.share("--activity", "assignToContact", "--contact", "Kim Huge", "--json", fixtures.png.path)
        #expect(run.status == 3)
        #expect(run.out.contains("\"code\":\"no-such-contact\""), "stdout: \(run.out)")
        #expect(run.err.contains("not read: ~/.contacts/default/huge.vcf is over 64 MiB, the limit for a vCard file"), "stderr: \(run.err)")
        let minji = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", fixtures.png.path)
        #expect(minji.status == 0, "stderr: \(minji.err)")
    }

    /// share never writes a file its reader would then leave out: a photo
    /// that would take the file past the limit is refused, the file unchanged.
    @Test func aPhotoThatWouldTakeAFilePastTheLimitIsNotWritten() throws {
        let (fixtures, folder) = try Self.world(["minji.vcf": Self.minji])
        let file = folder.appendingPathComponent("minji.vcf")
        let contact = try #require(ContactFolder(path: folder.path).contacts().first)
        let undo = fixtures.root.appendingPathComponent("undo").path
        // The 69-byte picture's PHOTO line takes more than 100 bytes.
        let limit = Self.minji.utf8.count + 100
        do {
            _ = try AssignToContactActivity.assign(imageAt: fixtures.png.path, to: contact, undoFolder: undo, largestFile: limit)
            Issue.record("a file past \(limit) bytes was written")
        } catch {
            #expect(error.code == ActivityError.Code.contactFailed)
            #expect(error.message.contains("past \(limit) bytes, the limit for a vCard file; the card is unchanged"), "\(error.message)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.minji)
        // With room for it, the same photo is written.
        _ = try AssignToContactActivity.assign(imageAt: fixtures.png.path, to: contact, undoFolder: undo, largestFile: limit + 200)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("PHOTO;ENCODING=b;TYPE=PNG:"))
    }

    // MARK: - Refusals

    @Test func aNameThatMatchesNoneOrTwoContactsIsRefusedAndNothingChanges() throws {
        let twin = Self.minji.replacing("UID:minji-1", with: "UID:minji-2")
        let (fixtures, folder) = try Self.world(["a.vcf": Self.minji, "b.vcf": twin])
        let none = try fixtures.share("--activity", "assignToContact", "--contact", "Nobody Here", "--json", fixtures.png.path)
        #expect(none.status == 3)
        #expect(none.err.contains("no contact in ~/.contacts has the name, address or UID 'Nobody Here'"), "stderr: \(none.err)")
        #expect(none.out.contains("\"no-such-contact\""), "stdout: \(none.out)")
        let two = try fixtures.share("--activity", "assignToContact", "--contact", "김민지", fixtures.png.path)
        #expect(two.status == 3)
        #expect(two.err.contains("2 contacts match '김민지'") && two.err.contains("minji-2"), "stderr: \(two.err)")
        #expect(try String(contentsOf: folder.appendingPathComponent("a.vcf"), encoding: .utf8) == Self.minji)
        #expect(try String(contentsOf: folder.appendingPathComponent("b.vcf"), encoding: .utf8) == twin)
        // A UID tells them apart.
        let byUID = try fixtures.share("--activity", "assignToContact", "--contact", "minji-2", fixtures.png.path)
        #expect(byUID.status == 0, "stderr: \(byUID.err)")
        #expect(try String(contentsOf: folder.appendingPathComponent("a.vcf"), encoding: .utf8) == Self.minji)
    }

    @Test func aReadOnlyFolderIsRefusedWithTheReasonAndTheCardIsUnchanged() throws {
        let (fixtures, folder) = try Self.world(["minji.vcf": Self.minji], base: URL(fileURLWithPath: "/tmp"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let run = try fixtures.shareUnprivileged(["--activity", "assignToContact", "--contact", "김민지", fixtures.png.path])
        #expect(run.status == 3)
        #expect(run.err.contains("cannot write in \(folder.path): permission denied; the card is unchanged"), "stderr: \(run.err)")
        #expect(try String(contentsOf: folder.appendingPathComponent("minji.vcf"), encoding: .utf8) == Self.minji)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["minji.vcf"])
    }

    /// An image cut short: a PNG cut in its image data, a JPEG cut in its
    /// scan (libjpeg-turbo: "Premature end of JPEG file").
    @Test(arguments: [("cut.png", "PNG", "read beyond end of data"), ("cut.jpg", "JPEG", "Premature end of JPEG file")])
    func aPictureCutShortIsRefusedAndTheCardIsUnchanged(name: String, format: String, reason: String) throws {
        let (fixtures, folder) = try Self.world(["people.vcf": Self.minji + Self.jun])
        let file = folder.appendingPathComponent("people.vcf")
        let whole = fixtures.files.appendingPathComponent("whole-" + name)
        if format == "PNG" {
            try ImageTool.solid(at: whole, width: 32, height: 32, rgb: [200, 30, 30])
        } else {
            let made = try Share.run(ServerScript.python, [ServerScript.support.appendingPathComponent("image_tool.py").path, "halves",
                                                           whole.path, "64", "64", "1"],
                                     environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.files)
            try #require(made.status == 0, "image_tool.py: \(made.err)")
        }
        let bytes = [UInt8](try Data(contentsOf: whole))
        // Cut halfway through the image data: a PNG's IDAT (its header and
        // IHDR take 33 of the 100 bytes), a JPEG's scan (after its SOS marker).
        let start = format == "PNG" ? 33 : try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let cut = fixtures.files.appendingPathComponent(name)
        try Data(bytes.prefix(start + (bytes.count - start) / 2)).write(to: cut)
        let before = try Data(contentsOf: file)

        let run = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", "--json", cut.path)
        #expect(run.status == 3, "stdout: \(run.out)")
        #expect(run.out.contains("\"code\":\"not-an-image\""), "stdout: \(run.out)")
        #expect(run.err.contains("\(name) is not a whole \(format) image") && run.err.contains(reason)
                && run.err.contains("the card is unchanged"), "stderr: \(run.err)")
        #expect(try Data(contentsOf: file) == before, "the card is byte for byte as it was")

        // The whole picture is taken: the refusal was the cut, not the image.
        let taken = try fixtures.share("--activity", "assignToContact", "--contact", "minji-1", whole.path)
        #expect(taken.status == 0, "stderr: \(taken.err)")
        #expect(try Data(contentsOf: file) != before)
    }

    @Test func explainSaysWhichFolderHasNoContacts() throws {
        let fixtures = try Fixtures()
        var run = try fixtures.share("--explain", fixtures.png.path)
        #expect(run.out.contains("unavailable: no contacts folder: ~/.contacts does not exist (set [contacts] vcard-dir to your vCard folder)"),
                "stdout: \(run.out)")
        let empty = fixtures.root.appendingPathComponent("cards", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let config = try fixtures.writeConfig("[contacts]\nvcard-dir = \(empty.path)\n")
        run = try fixtures.share("--config", config.path, "--explain", fixtures.png.path)
        #expect(run.out.contains("unavailable: no contacts in \(empty.path): it holds no .vcf file"), "stdout: \(run.out)")
        // With a card it is eligible, for one image and not for text.
        try Data(Self.minji.utf8).write(to: empty.appendingPathComponent("m.vcf"))
        run = try fixtures.share("--config", config.path, "--list", fixtures.png.path)
        #expect(run.out.contains("assignToContact\tAssign to Contact"), "stdout: \(run.out)")
        run = try fixtures.share("--config", config.path, "--list", "--text", "hello")
        #expect(!run.out.contains("assignToContact"), "stdout: \(run.out)")
    }
}

/// Assign to Contact's form in a real terminal: the chooser filters as one
/// types, and a card changed on disk after the form read it is refused
/// with the form kept open, then assigned once read again.
@Suite struct AssignToContactFormTests {
    @Test func theChooserFiltersAndAChangedCardIsRefusedUntilReadAgain() throws {
        let park = ["BEGIN:VCARD", "VERSION:4.0", "FN:Park Seo-yeon", "EMAIL:seoyeon@example.com", "END:VCARD"]
            .joined(separator: "\r\n") + "\r\n"
        let (fixtures, folder) = try AssignToContactTests.world(["minji.vcf": AssignToContactTests.minji, "park.vcf": park])
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, "--activity", "assignToContact", "--json", fixtures.png.path])
            .map(q).joined(separator: " "), workingDirectory: fixtures.files, environment: fixtures.environment)
        try session.waitFor("Assign to Contact")
        let form = try session.waitFor("Contact:")
        #expect(form.contains(" Photo:    pic.png · 69 B"), "\(form.text)")
        // Typing on the choice opens the chooser, filtered.
        try session.sendLiteral("seo")
        let chooser = try session.waitFor("Choose Contact")
        #expect(chooser.contains("Park Seo-yeon <seoyeon@example.com> · no photo"), "\(chooser.text)")
        #expect(!chooser.contains("김민지"), "filtered out:\n\(chooser.text)")
        try session.send("Enter")
        try session.waitUntil("Park chosen") { $0.lines.contains { $0.hasPrefix(" Contact:") && $0.contains("Park Seo-yeon") } }

        // Someone else writes the card meanwhile: refused, nothing lost, the form stays.
        let file = folder.appendingPathComponent("park.vcf")
        let edited = park.replacing("END:VCARD", with: "NOTE:edited elsewhere\r\nEND:VCARD")
        try Data(edited.utf8).write(to: file)
        try session.send("C-x")
        let refused = try session.waitFor("⚠ Park Seo-yeon's card changed since it was read")
        #expect(refused.contains("Assign to Contact"), "\(refused.text)")
        #expect(try String(contentsOf: file, encoding: .utf8) == edited)

        // Again: the card is read afresh, and its new line is kept.
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Park Seo-yeon\r\nEMAIL:seoyeon@example.com\r\nNOTE:edited elsewhere\r\nPHOTO:data:image/png;base64,"),
                "\(written)")
        #expect(session.stdout.contains("\"outcome\":\"performed\""), "stdout: \(session.stdout)")
        #expect(try String(contentsOf: folder.appendingPathComponent("minji.vcf"), encoding: .utf8) == AssignToContactTests.minji)
    }
}
