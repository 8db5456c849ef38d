import Foundation
import Testing

/// `share --undo [ID]`: each kind of share taken back where the world
/// allows, and refused where it moved on.
struct UndoTests {
    @Test func aSavedPictureIsRemovedOnlyWhileItIsTheOneSaved() throws {
        let fixtures = try Fixtures()
        let pictures = fixtures.home.appendingPathComponent("Pictures")
        #expect(try fixtures.share("--activity", "saveToCameraRoll", fixtures.png.path).status == 0)
        let saved = try #require(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first)
        // A later run that failed has nothing to undo: --undo passes over it.
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/x", "--title", "").status == 0)
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/x").status == 3)
        #expect(try fixtures.share("--undo").status == 0, "the reading list entry goes first")
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0, "stderr: \(undo.err)")
        #expect(undo.out == "removed \(pictures.path)/\(saved)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures.path).isEmpty)
        let again = try fixtures.share("--undo")
        #expect(again.status == 3, "an undone share is not undone twice: \(again.err)")

        // Changed after it was saved: left alone.
        #expect(try fixtures.share("--activity", "saveToCameraRoll", fixtures.png.path).status == 0)
        let file = pictures.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first))
        try Data("edited in GIMP".utf8).write(to: file)
        let refused = try fixtures.share("--undo")
        #expect(refused.status == 3)
        #expect(refused.err.contains("\(file.path) changed since it was saved; it is left as it is"), "stderr: \(refused.err)")
        #expect(try Data(contentsOf: file) == Data("edited in GIMP".utf8))
    }

    @Test func aReadingListEntryIsRemovedAndTheRestKept() throws {
        let fixtures = try Fixtures()
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/kept").status == 0)
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/undone").status == 0)
        let history = try fixtures.share("--history", "--json")
        let entries = try JSONDecoder().decode([HistoryTests.Entry].self, from: history.stdout)
        let newest = try #require(entries.first)
        let undo = try fixtures.share("--undo", newest.id)
        #expect(undo.status == 0, "stderr: \(undo.err)")
        let list = try fixtures.share("--reading-list")
        #expect(list.out.contains("https://example.com/kept") && !list.out.contains("https://example.com/undone"), "\(list.out)")
        // The undo is itself in the history, naming the entry it undid.
        let after = try JSONDecoder().decode([HistoryTests.Entry].self, from: try fixtures.share("--history", "--json").stdout)
        #expect(after.first?.outcome == "undone" && after.first?.returned == ["removed https://example.com/undone from the reading list"])
        #expect(try fixtures.share("--undo", "no-such-id").status == 2)

        // A URL given twice is listed once, and its undo removes that one line.
        #expect(try fixtures.share("--activity", "addToReadingList", "https://example.com/twice", "https://example.com/twice").status == 0)
        let twice = try fixtures.share("--undo")
        #expect(twice.status == 0 && twice.out == "removed https://example.com/twice from the reading list\n", "\(twice.out)\(twice.err)")
        #expect(try fixtures.share("--reading-list").out.split(separator: "\n").count == 1)
    }

    @Test func aContactsCardIsPutBackByteForByteUnlessItChangedSince() throws {
        let card = AssignToContactTests.minji + AssignToContactTests.jun
        let (fixtures, folder) = try AssignToContactTests.world(["people.vcf": card])
        let file = folder.appendingPathComponent("people.vcf")
        #expect(try fixtures.share("--activity", "assignToContact", "--contact", "김민지", fixtures.png.path).status == 0)
        #expect(try Data(contentsOf: file) != Data(card.utf8))
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0, "stderr: \(undo.err)")
        #expect(try Data(contentsOf: file) == Data(card.utf8), "the card as it was, byte for byte")

        #expect(try fixtures.share("--activity", "assignToContact", "--contact", "김민지", fixtures.png.path).status == 0)
        let synced = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "FN:Lee Jun", with: "FN:Lee Jun-ho")
        try Data(synced.utf8).write(to: file)
        let refused = try fixtures.share("--undo")
        #expect(refused.status == 3)
        #expect(refused.err.contains("changed since its photo was set; it is left as it is"), "stderr: \(refused.err)")
        #expect(try String(contentsOf: file, encoding: .utf8) == synced)
        // --forget takes the copies kept for undoing with it.
        let undoFolder = fixtures.root.appendingPathComponent("state/share/undo")
        #expect(try FileManager.default.contentsOfDirectory(atPath: undoFolder.path).count == 1)
        #expect(try fixtures.share("--forget").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: undoFolder.path).isEmpty)
    }

    @Test func aSentMessageCannotBeUnsentAndShareSaysSo() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        #expect(try world.share(["--activity", "mail", "--send", "--to", "park@example.com", "--body", "hi"]).status == 0)
        let undo = try world.share(["--undo"])
        #expect(undo.status == 3)
        #expect(undo.err.contains("passed over mail of") && undo.err.contains("a sent message cannot be unsent"), "stderr: \(undo.err)")
        #expect(undo.err.contains("there is no share in the history to undo"), "stderr: \(undo.err)")
        // Asked for by its ID, it is refused in the same words.
        let history = try JSONDecoder().decode([HistoryTests.Entry].self, from: try world.share(["--history", "--json"]).stdout)
        let byID = try world.share(["--undo", try #require(history.first).id])
        #expect(byID.status == 3)
        #expect(byID.err.contains("cannot undo mail") && byID.err.contains("a sent message cannot be unsent"), "stderr: \(byID.err)")
        #expect(try server.messages().count == 1)
    }

    /// A sent message on top does not stop `--undo`: it takes back the
    /// newest share that can be, and says which, and what it passed over.
    @Test func aSentMessageOnTopIsPassedOverForThePictureBeforeIt() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let pictures = world.fixtures.home.appendingPathComponent("Pictures")
        let saved = try world.share(["--activity", "saveToCameraRoll", world.fixtures.png.path])
        #expect(saved.status == 0, "stderr: \(saved.err)")
        let picture = try #require(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first)
        #expect(try world.share(["--activity", "mail", "--send", "--to", "park@example.com", "--body", "hi"]).status == 0)
        let history = try JSONDecoder().decode([HistoryTests.Entry].self, from: try world.share(["--history", "--json"]).stdout)
        let (mail, save) = (try #require(history.first), try #require(history.last))
        let undo = try world.share(["--undo"])
        #expect(undo.status == 0, "stderr: \(undo.err)")
        #expect(undo.out == "removed \(pictures.path)/\(picture)\n")
        #expect(undo.err.contains("passed over mail of ") && undo.err.contains("[\(mail.id)]: a sent message cannot be unsent"), "stderr: \(undo.err)")
        #expect(undo.err.contains("undoing saveToCameraRoll of ") && undo.err.contains("[\(save.id)]"), "stderr: \(undo.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures.path).isEmpty)
    }

    @Test func aPrintJobStillQueuedIsCancelled() throws {
        let fixtures = try PrintTests.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Held"], held: ["Held"])
        defer { cups.stop() }
        let print = try fixtures.share(["--activity", "print", "--printer", "Held", fixtures.pdf.path], changes: ["CUPS_SERVER": cups.address])
        #expect(print.status == 1, "queued, not printed: \(print.err)")
        #expect(try cups.live("Held-1")["job-state"] as? [Int] == [4], "held")
        // The undo asks the scheduler the job went to, whatever CUPS_SERVER says now.
        let undo = try fixtures.share(["--undo"])
        #expect(undo.status == 0, "stderr: \(undo.err)")
        #expect(undo.out == "cancelled job Held-1\n")
        #expect(try cups.live("Held-1")["job-state"] as? [Int] == [7])
        #expect(cups.printed("Held").isEmpty)
    }
}
