import Foundation
import Testing

/// A real CUPS scheduler for one test: `Tests/Support/cups_server.py` runs
/// Debian's cupsd on 127.0.0.1 with all of its state in a folder of the
/// test's, and queues that print to files (`NAME.out`) as PDF.
final class CUPSServer {
    let server: ServerScript
    /// cupsd's folder (spool, logs).
    let directory: URL
    /// Where queue NAME's output goes.
    let outputs: URL

    /// `127.0.0.1:PORT`, for `CUPS_SERVER`.
    var address: String { "127.0.0.1:\(server.port)" }

    /// Starts cupsd with `queues`; `stopped` maps a queue to the reason it was
    /// stopped with; `held` queues hold every job until it is cancelled.
    init(root: URL, queues: [String], defaultQueue: String? = nil, stopped: [String: String] = [:], held: [String] = []) throws {
        directory = root.appendingPathComponent("cups-\(UUID().uuidString.prefix(8))", isDirectory: true)
        outputs = root.appendingPathComponent("printed", isDirectory: true)
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        var arguments = [directory.path]
        for queue in queues { arguments += ["--queue", "\(queue):" + outputs.appendingPathComponent("\(queue).out").path] }
        if let defaultQueue { arguments += ["--default", defaultQueue] }
        for (queue, reason) in stopped.sorted(by: { $0.key < $1.key }) { arguments += ["--stopped", "\(queue):\(reason)"] }
        for queue in held { arguments += ["--held", queue] }
        server = try ServerScript(script: "cups_server.py", arguments: arguments,
                                  logFile: root.appendingPathComponent(directory.lastPathComponent + ".log"))
    }

    func stop() { server.stop() }

    /// What queue `name` printed.
    func printed(_ name: String) -> Data { (try? Data(contentsOf: outputs.appendingPathComponent("\(name).out"))) ?? Data() }

    /// The job's attributes as submitted (from its control file): copies, page-ranges, sides…
    func submitted(_ job: String) throws -> [String: Any] {
        try Self.attributes(ServerScript.query("cups_server.py", ["--job-attributes", directory.path, try Self.number(job)]))
    }

    /// The job as the running scheduler reports it (job-state: 7 canceled, 9 completed…).
    func live(_ job: String) throws -> [String: Any] {
        try Self.attributes(ServerScript.query("cups_server.py", ["--get-job", String(server.port), try Self.number(job)]))
    }

    /// cupsd's errors and warnings, for failure messages.
    var errors: String {
        let log = (try? String(contentsOf: directory.appendingPathComponent("error_log"), encoding: .utf8)) ?? "(no error_log)"
        return log.split(separator: "\n").filter { $0.hasPrefix("E ") || $0.hasPrefix("W ") }.suffix(20).joined(separator: "\n")
    }

    private static func number(_ job: String) throws -> String {
        String(try #require(job.split(separator: "-").last, "\(job) is no job id"))
    }

    private static func attributes(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Print (SPEC §2) against a real cupsd the test starts: jobs reach CUPS
/// with their options, become PDF in a file queue, are followed until done,
/// and a stopped printer fails the job with CUPS' words.
@Suite struct PrintTests {
    /// A world under /tmp (cupsd's filters run as `lp` and must reach it).
    static func world() throws -> Fixtures { try Fixtures(base: URL(fileURLWithPath: "/tmp")) }

    static func completion(_ run: ShareRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out); stderr: \(run.err)")
    }

    static func returned(_ run: ShareRun) throws -> [String] {
        let items = try #require(try completion(run)["returnedItems"] as? [[String: Any]])
        return items.compactMap { $0["value"] as? String }
    }

    @Test func aPDFAndAPNGEachBecomeAPDFAndTheJobIdIsReturned() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Documents", "Photos"])
        defer { cups.stop() }
        let image = fixtures.files.appendingPathComponent("photo.png")
        try ImageTool.solid(at: image, width: 300, height: 200, rgb: [10, 120, 200])
        // "Q4 Projections.pdf": a name with a space, which must not trouble the scheduler.
        for (queue, file) in [("Documents", fixtures.pdf), ("Photos", image)] {
            let run = try fixtures.share(["--activity", "print", "--printer", queue, "--json", file.path], changes: ["CUPS_SERVER": cups.address])
            #expect(run.status == 0, "stderr: \(run.err)\n\(cups.errors)")
            let ids = try Self.returned(run)
            #expect(ids.count == 1 && ids.first?.hasPrefix("\(queue)-") == true, "\(ids)")
            let printed = cups.printed(queue)
            #expect(printed.count > 100 && printed.starts(with: Data("%PDF-".utf8)), "\(queue) printed \(printed.count) bytes")
            if let id = ids.first {
                #expect(try cups.live(id)["job-state"] as? [Int] == [9], "completed")
            }
        }
    }

    @Test func copiesPagesAndSidesFromTheCommandLineReachTheJob() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Office"])
        defer { cups.stop() }
        let run = try fixtures.share(["--activity", "print", "--printer", "Office", "--copies", "3", "--pages", "1-2,4",
                                      "--sides", "two", "--json", fixtures.pdf.path], changes: ["CUPS_SERVER": cups.address])
        #expect(run.status == 0, "stderr: \(run.err)\n\(cups.errors)")
        let id = try #require(try Self.returned(run).first)
        let job = try cups.submitted(id)
        #expect(job["copies"] as? [Int] == [3], "\(job)")
        #expect(job["page-ranges"] as? [[Int]] == [[1, 2], [4, 4]], "\(job)")
        #expect(job["sides"] as? [String] == ["two-sided-long-edge"], "\(job)")
        #expect(job["fit-to-page"] == nil, "not asked for")
        #expect(job["job-name"] as? [String] == ["Q4 Projections.pdf"], "the job keeps the file's own name: \(job)")
    }

    @Test func aStoppedPrinterFailsWithCUPSWordsAndTheJobIsCancelled() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Paused"], stopped: ["Paused": "Out of paper"])
        defer { cups.stop() }
        let run = try fixtures.share(["--activity", "print", "--printer", "Paused", "--json", fixtures.png.path],
                                     changes: ["CUPS_SERVER": cups.address])
        #expect(run.status == 3)
        #expect(run.err.contains("printer Paused is stopped: Out of paper; job Paused-1 was cancelled, nothing will print"),
                "stderr: \(run.err)")
        let completion = try Self.completion(run)
        #expect(completion["outcome"] as? String == "failed")
        #expect((completion["error"] as? [String: Any])?["code"] as? String == "printer-stopped")
        #expect(try cups.live("Paused-1")["job-state"] as? [Int] == [7], "cancelled, so it never prints later")
        #expect(cups.printed("Paused").isEmpty)
    }

    @Test func explainSaysThereIsNoPrinterAndAnUnknownOneIsRefused() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: [])
        defer { cups.stop() }
        let explained = try fixtures.share(["--explain", fixtures.pdf.path], changes: ["CUPS_SERVER": cups.address])
        #expect(explained.out.contains("unavailable: no printer: `lpstat -e` lists none\n"), "stdout: \(explained.out)")

        let withQueue = try CUPSServer(root: fixtures.root, queues: ["Office"])
        defer { withQueue.stop() }
        let run = try fixtures.share(["--activity", "print", "--printer", "Nowhere", fixtures.pdf.path], changes: ["CUPS_SERVER": withQueue.address])
        #expect(run.status == 3)
        #expect(run.err.contains("lp: ") && run.err.contains("does not exist"), "CUPS' words: \(run.err)")
        let noTerminal = try fixtures.share(["--activity", "print", fixtures.pdf.path], changes: ["CUPS_SERVER": withQueue.address])
        #expect(noTerminal.status == 2)
        #expect(noTerminal.err.contains("no terminal for the Print form; add --printer NAME to print without it"), "stderr: \(noTerminal.err)")
    }

    /// libcups is all Print needs: without `lp` or `lpstat` on PATH it lists and prints.
    @Test func withoutLpOnPathItStillPrints() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Office"])
        defer { cups.stop() }
        let bin = fixtures.root.appendingPathComponent("bin-without-lp", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let changes = ["PATH": bin.path, "CUPS_SERVER": cups.address]
        let explained = try fixtures.share(["--explain", fixtures.pdf.path], changes: changes)
        #expect(explained.out.split(separator: "\n").contains { $0.contains(" print ") && $0.hasSuffix(" eligible") }, "stdout: \(explained.out)")
        let run = try fixtures.share(["--activity", "print", "--printer", "Office", "--json", fixtures.pdf.path], changes: changes)
        #expect(run.status == 0, "stderr: \(run.err)\n\(cups.errors)")
        #expect(cups.printed("Office").starts(with: Data("%PDF-".utf8)))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let fixtures = try Self.world()
        for (arguments, words) in [(["--copies", "0"], "--copies takes a number from 1 to 999, not '0'"),
                                   (["--pages", "3-1"], "--pages takes pages and ranges such as 1-3,7 or 5-, not '3-1'"),
                                   (["--sides", "both"], "--sides takes one, two or two-short-edge, not 'both'"),
                                   (["--printer", "a/b"], "--printer: 'a/b' is not a printer name")] {
            let run = try fixtures.share(["--activity", "print"] + arguments + [fixtures.pdf.path])
            #expect(run.status == 2)
            #expect(run.err.contains(words), "stderr: \(run.err)")
        }
    }

    /// The form in a real terminal: the printer preselected as CUPS would
    /// choose it ($LPDEST before the server's default), and every option
    /// set there reaching the job.
    @Test func theFormPreselectsLPDESTAndItsOptionsReachTheJob() throws {
        let fixtures = try Self.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Front", "Back"], defaultQueue: "Front")
        defer { cups.stop() }
        var environment = fixtures.environment
        environment["CUPS_SERVER"] = cups.address
        environment["LPDEST"] = "Back"
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, "--activity", "print", "--json", fixtures.pdf.path]).map(q)
            .joined(separator: " "), workingDirectory: fixtures.files, environment: environment)
        let form = try session.waitFor("Scaling:")
        #expect(form.contains(" Printer:  Back"), "$LPDEST wins over the server's default:\n\(form.text)")
        #expect(form.contains(" Print:    Q4 Projections.pdf"), "\(form.text)")
        // Copies (focused first): 2.
        try session.send("BSpace")
        try session.sendLiteral("2")
        try session.send("Down")
        // Pages: "all" becomes 1.
        try session.send("BSpace", "BSpace", "BSpace")
        try session.sendLiteral("1")
        try session.send("Down")
        // Sides, through the chooser.
        try session.sendLiteral("two-sided")
        try session.waitFor("Choose Sides")
        try session.send("Enter")
        try session.send("Down")
        try session.send("Right")
        try session.waitUntil("the options set") { screen in
            screen.contains(" Copies:   2") && screen.contains(" Pages:    1") && screen.contains(" Sides:    two-sided")
                && screen.contains(" Scaling:  fit to page")
        }
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)\n\(cups.errors)")
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        let id = try #require((completion["returnedItems"] as? [[String: Any]])?.first?["value"] as? String)
        #expect(id.hasPrefix("Back-"))
        let job = try cups.submitted(id)
        #expect(job["copies"] as? [Int] == [2], "\(job)")
        #expect(job["page-ranges"] as? [[Int]] == [[1, 1]], "\(job)")
        #expect(job["sides"] as? [String] == ["two-sided-long-edge"], "\(job)")
        #expect(job["fit-to-page"] as? [Bool] == [true], "\(job)")
        #expect(cups.printed("Back").starts(with: Data("%PDF-".utf8)))
    }
}

/// The picker asks CUPS on a thread of its own: the other tiles paint at
/// once, and Print joins them when CUPS has answered.
@Suite struct PrintPickerTests {
    @Test func thePrintTileJoinsThePickerOnceCUPSAnswers() throws {
        let fixtures = try PrintTests.world()
        let cups = try CUPSServer(root: fixtures.root, queues: ["Office"], defaultQueue: "Office")
        defer { cups.stop() }
        var environment = fixtures.environment
        environment["CUPS_SERVER"] = cups.address
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, fixtures.pdf.path]).map(q).joined(separator: " "),
                                      workingDirectory: fixtures.files, environment: environment)
        try session.waitFor("Print")
        // Print comes after Copy among the actions: move to it by name.
        try session.sendLiteral("/")
        try session.sendLiteral("print")
        try session.send("Enter")
        let form = try session.waitFor("Scaling:")
        #expect(form.contains(" Printer:  Office"), "\(form.text)")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
    }
}
