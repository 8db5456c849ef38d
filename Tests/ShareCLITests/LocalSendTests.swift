import Foundation
import Synchronization
import Testing

/// Nearby to LocalSend devices: share runs in a network namespace the test
/// makes (`Tests/Support/localsend_servers.py`) beside a receiver, so
/// multicast stays on that namespace's loopback. Two receivers: the PyPI
/// package `localsend-cli` (an independent implementation), and the tests'
/// own, which checks each request against the protocol's text and can
/// ask for a PIN, decline, be busy, read slowly or lie about its
/// fingerprint.
@Suite(.serialized) struct LocalSendTests {
    private static let counter = Mutex(0)

    final class Receiver {
        let server: ServerScript
        let namespace: String
        let folder: URL
        /// Every event the receiver reported so far, oldest first.
        private(set) var events: [[String: Any]] = []

        init(_ fixtures: Fixtures, _ kind: String, _ options: [String] = []) throws {
            let number = LocalSendTests.counter.withLock { value -> Int in defer { value += 1 }; return value }
            namespace = "share-ls-\(getpid())-\(number)"
            folder = fixtures.root.appendingPathComponent("receiver-\(number)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Installing localsend-cli from PyPI takes a while the first time.
            server = try ServerScript(script: "localsend_servers.py", arguments: ["serve", namespace, kind, folder.path] + options,
                                      logFile: fixtures.root.appendingPathComponent("localsend-\(number).log"), startSeconds: 600)
        }

        deinit { server.stop() }

        /// Where the receiver writes what it receives.
        var received: URL { folder.appendingPathComponent("received") }

        /// Reads events until one named `name` comes (and `matching` holds); that event.
        @discardableResult
        func event(_ name: String, within seconds: Int = 30, matching: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
            if let seen = events.first(where: { $0["event"] as? String == name && matching($0) }) { return seen }
            while let line = server.nextLine(within: seconds) {
                guard let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
                events.append(event)
                if event["event"] as? String == name && matching(event) { return event }
            }
            throw ReceiverError.noEvent(name, events.map { "\($0)" }.joined(separator: "\n"))
        }

        /// The protocol departures the receiver reported so far.
        var violations: [String] { events.compactMap { $0["event"] as? String == "violation" ? $0["what"] as? String : nil } }

        /// Runs share inside the namespace with `arguments`, the config
        /// `config` and the fixtures' environment with `changes`.
        func share(_ fixtures: Fixtures, _ arguments: [String], config: String = "", changes: [String: String] = [:]) throws -> ShareRun {
            let file = try fixtures.writeConfig("[nearby]\nbind = lo\n" + config, at: "localsend.conf")
            let run = try Share.run(URL(fileURLWithPath: "/usr/sbin/ip"), ["netns", "exec", namespace, try Share.binary().path,
                                                                          "--config", file.path] + arguments,
                                    environment: fixtures.environment.merging(changes) { $1 }, directory: fixtures.files)
            #expect(!run.timedOut, "share \(arguments) was killed")
            return run
        }
    }

    enum ReceiverError: Error { case noEvent(String, String) }

    static func completion(_ run: ShareRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out) stderr: \(run.err)")
    }

    static func sha256(_ url: URL) throws -> String {
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [url.path], environment: [:], directory: url.deletingLastPathComponent())
        return String(run.out.prefix(64))
    }

    /// A file of `size` bytes that are not all alike, in the fixtures' folder.
    static func bigFile(_ fixtures: Fixtures, size: Int = 3 << 20) throws -> URL {
        let url = fixtures.files.appendingPathComponent("big.bin")
        var bytes = [UInt8](repeating: 0, count: size)
        var state: UInt32 = 2463534242
        for index in bytes.indices {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        try Data(bytes).write(to: url)
        return url
    }

    // MARK: - localsend-cli, an independent implementation

    @Test func localsendCliReceivesTheFilesByNameInAnyCaseAndTheirBytesAreTheFiles() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "cli")
        let big = try Self.bigFile(fixtures)
        let host = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let alias = "LOCALSEND-CLI@" + host.uppercased()
        // localsend-cli announces every 5 s and answers no announcement: discovery waits for it.
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", alias, "--json", fixtures.pdf.path, big.path],
                                     config: "discovery-timeout = 8\n")
        run.expectExit(0)
        let completion = try Self.completion(run)
        #expect(completion["outcome"] as? String == "sent")
        let returned = (completion["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(returned.first?.lowercased() == alias.lowercased(), "\(returned)")
        #expect(returned.contains(big.path) && returned.contains(fixtures.pdf.path), "\(returned)")
        try receiver.event("saved") { $0["name"] as? String == "big.bin" }
        try receiver.event("saved") { $0["name"] as? String == "Q4 Projections.pdf" }
        #expect(try Self.sha256(receiver.received.appendingPathComponent("big.bin")) == (try Self.sha256(big)))
        #expect(try Self.sha256(receiver.received.appendingPathComponent("Q4 Projections.pdf")) == (try Self.sha256(fixtures.pdf)))
    }

    @Test func localsendCliGetsTextAsTextAtItsAddress() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "cli")
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "127.0.0.1:53317", "--text", "PIN 4821 for the door 🚪"])
        run.expectExit(0)
        let text = try receiver.event("text")
        #expect(text["text"] as? String == "PIN 4821 for the door 🚪")
    }

    @Test func localsendCliWithAPinRefusesWithoutItAndTakesTheFileWithIt() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "cli", ["--pin", "4821"])
        let refused = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "127.0.0.1", "--json", fixtures.pdf.path])
        refused.expectExit(3, saying: "asks for a PIN", "--pin")
        #expect((try Self.completion(refused)["error"] as? [String: Any])?["code"] as? String == "pin-required")
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "127.0.0.1", "--pin", "4821", fixtures.pdf.path])
        run.expectExit(0)
        try receiver.event("saved") { $0["name"] as? String == "Q4 Projections.pdf" }
    }

    // MARK: - The tests' own receiver, which checks the protocol

    @Test func filesAndTextGoAsTheProtocolSaysAndShareRegistersWithItsOwnCertificate() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own")
        let big = try Self.bigFile(fixtures)
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "test phone", "--json", "--text", "hello",
                                                fixtures.png.path, big.path])
        run.expectExit(0)
        let incoming = try receiver.event("incoming")
        #expect(incoming["files"] as? [String] == ["big.bin", "item-1.txt", "pic.png"], "\(incoming)")
        try receiver.event("text") { $0["text"] as? String == "hello" }
        let saved = try receiver.event("saved") { $0["name"] as? String == "big.bin" }
        #expect(saved["sha256"] as? String == (try Self.sha256(big)))
        try receiver.event("saved") { $0["name"] as? String == "pic.png" }
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    @Test func aReceiverThatTakesTextFromThePreviewGetsNoUpload() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--text-204"])
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--text", "only words"])
        run.expectExit(0)
        try receiver.event("text") { $0["text"] as? String == "only words" }
        #expect(!receiver.events.contains { $0["path"] as? String == "/api/localsend/v2/upload" })
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    @Test func declinedBusyAndTooManyWrongPINsEachEndWithTheirOwnCode() throws {
        let fixtures = try Fixtures()
        for (options, code, words) in [(["--answer", "decline"], "declined", "declined"), (["--answer", "busy"], "busy", "busy")] {
            let receiver = try Receiver(fixtures, "own", options)
            let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--json", fixtures.pdf.path])
            run.expectExit(3, saying: words)
            #expect((try Self.completion(run)["error"] as? [String: Any])?["code"] as? String == code, "\(run.out)")
        }
        let receiver = try Receiver(fixtures, "own", ["--pin", "1234"])
        for _ in 0..<3 {
            let wrong = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--pin", "0000", "--json", fixtures.pdf.path])
            #expect((try Self.completion(wrong)["error"] as? [String: Any])?["code"] as? String == "pin-required", "\(wrong.out)")
        }
        let locked = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--pin", "1234", "--json", fixtures.pdf.path])
        locked.expectExit(3, saying: "too many")
        #expect((try Self.completion(locked)["error"] as? [String: Any])?["code"] as? String == "rate-limited", "\(locked.out)")
    }

    @Test func sharePinGivesThePINOutOfTheCommandLineAndPinWinsOverIt() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--pin", "1234"])
        let wrong = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--json", fixtures.pdf.path],
                                       changes: ["SHARE_PIN": "0000"])
        #expect((try Self.completion(wrong)["error"] as? [String: Any])?["code"] as? String == "pin-required", "\(wrong.out)")
        try receiver.event("refused") { $0["pin"] as? String == "0000" }
        let option = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--pin", "1234", fixtures.pdf.path],
                                        changes: ["SHARE_PIN": "0000"])
        option.expectExit(0)
        let environment = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", fixtures.png.path],
                                             changes: ["SHARE_PIN": "1234"])
        environment.expectExit(0)
        try receiver.event("saved") { $0["name"] as? String == "pic.png" }
        #expect(receiver.events.filter { $0["event"] as? String == "saved" }.count == 2, "\(receiver.events)")
        // The wrong PIN of the variable went only when --pin was not there.
        #expect(receiver.events.filter { $0["status"] as? Int == 401 }.map { $0["pin"] as? String } == ["0000"], "\(receiver.events)")
        let broken = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", fixtures.pdf.path],
                                        changes: ["SHARE_PIN": "12\n34"])
        #expect(broken.status != 0 && broken.err.contains("SHARE_PIN holds a line break"), "\(broken.status) \(broken.err)")
        let help = try fixtures.share(["--help"])
        #expect(help.out.contains("--pin PIN") && help.out.contains("$SHARE_PIN"), "\(help.out)")
    }

    @Test func stoppingASendCancelsTheSessionOnTheDevice() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--slow"])
        let big = try Self.bigFile(fixtures, size: 8 << 20)
        let file = try fixtures.writeConfig("[nearby]\nbind = lo\n", at: "localsend.conf")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", receiver.namespace, try Share.binary().path, "--config", file.path,
                             "--activity", "airDrop", "--device", "Test Phone", "--json", big.path]
        process.environment = fixtures.environment
        process.currentDirectoryURL = fixtures.files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: 60)
        try receiver.event("receiving") { $0["name"] as? String == "big.bin" }
        // As Esc does on the screen: without one, TERM stops the share.
        kill(process.processIdentifier, SIGTERM)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = watchdog.finish()
        #expect(process.terminationStatus == 1)
        let completion = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        #expect(completion["outcome"] as? String == "cancelled", "\(completion)")
        let cancelled = try receiver.event("cancelled")
        #expect(cancelled["known"] as? Bool == true)
        #expect(!receiver.events.contains { $0["event"] as? String == "saved" })
    }

    @Test func aDeviceWhoseCertificateIsNotItsFingerprintIsRefusedBeforeAnythingIsSent() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--wrong-fingerprint"])
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--json", fixtures.pdf.path])
        run.expectExit(3, saying: "certificate", "nothing was sent")
        #expect((try Self.completion(run)["error"] as? [String: Any])?["code"] as? String == "send-failed")
        // At its address too; the register it hears comes after anything the first run could have sent.
        let again = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "127.0.0.1:53317", fixtures.pdf.path])
        again.expectExit(3, saying: "certificate", "nothing was sent")
        try receiver.event("request") { $0["path"] as? String == "/api/localsend/v2/register" }
        #expect(!receiver.events.contains { $0["path"] as? String == "/api/localsend/v2/prepare-upload" }, "\(receiver.events)")
    }

    @Test func listDevicesAndTheShellsCompletionsNameWhatAnswers() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own")
        let listed = try receiver.share(fixtures, ["--list-devices", "--json"])
        listed.expectExit(0)
        let devices = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]], "\(listed.out)")
        let phone = try #require(devices.first { $0["alias"] as? String == "Test Phone" }, "\(devices)")
        #expect(phone["address"] as? String == "127.0.0.1:53317" && phone["type"] as? String == "mobile" && phone["model"] as? String == "Pixel")
        // Share's listener answered the receiver's register over TLS with the certificate it announced.
        let registered = try receiver.event("registered")
        #expect(registered["certificateMatches"] as? Bool == true && registered["deviceType"] as? String == "headless", "\(registered)")
        let text = try receiver.share(fixtures, ["--list-devices"])
        #expect(text.out.contains("Test Phone\t127.0.0.1:53317\tmobile\tPixel\n"), "\(text.out)")
        let completed = try receiver.share(fixtures, ["--complete", "devices"])
        #expect(completed.out.split(separator: "\n").contains("Test Phone"), "\(completed.out)")
        let missing = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Nobody", "--json", fixtures.pdf.path],
                                         config: "discovery-timeout = 1\n")
        missing.expectExit(3, saying: "no LocalSend device 'Nobody'")
        #expect((try Self.completion(missing)["error"] as? [String: Any])?["code"] as? String == "no-device")
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    @Test func aDeviceThatSaysHTTPIsReachedOverPlainHTTP() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--http"])
        let run = try receiver.share(fixtures, ["--activity", "airDrop", "--device", "Test Phone", "--json", fixtures.pdf.path])
        run.expectExit(0)
        let saved = try receiver.event("saved") { $0["name"] as? String == "Q4 Projections.pdf" }
        #expect(saved["sha256"] as? String == (try Self.sha256(fixtures.pdf)))
        #expect(try Self.completion(run)["returnedItems"].map { "\($0)" }?.contains("http://127.0.0.1:53317") == true, "\(run.out)")
    }

    @Test func aDeviceThatAnswersOnlyByAMulticastReplyIsFoundToo() throws {
        let fixtures = try Fixtures()
        // It neither announces nor registers: only its reply to share's announcement names it.
        let receiver = try Receiver(fixtures, "own", ["--reply-multicast"])
        let listed = try receiver.share(fixtures, ["--list-devices"])
        listed.expectExit(0)
        #expect(listed.out.contains("Test Phone\t127.0.0.1:53317\tmobile\tPixel\n"), "\(listed.out)")
        try receiver.event("replied")
        #expect(!receiver.events.contains { $0["event"] as? String == "registered" })
    }

    @Test func aDeviceDeafToMulticastIsFoundOnlyByTheLegacyScan() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--no-multicast"])
        let quiet = try receiver.share(fixtures, ["--list-devices"])
        quiet.expectExit(0)
        #expect(!quiet.out.contains("Test Phone"), "\(quiet.out)")
        let scanned = try receiver.share(fixtures, ["--list-devices"], config: "localsend-scan = on\n")
        scanned.expectExit(0)
        #expect(scanned.out.split(separator: "\n").filter { $0.hasPrefix("Test Phone\t127.0.0.") }.count == 1, "\(scanned.out)")
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    // MARK: - Nearby's screen

    /// Nearby's screen in tmux, inside the receiver's namespace.
    static func screen(_ fixtures: Fixtures, _ receiver: Receiver, _ arguments: [String]) throws -> TmuxSession {
        let file = try fixtures.writeConfig("[nearby]\nbind = lo\n", at: "localsend.conf")
        var environment = fixtures.environment
        environment["TERM"] = "xterm-256color"
        // No wormhole (it would reach for the public relay): only what tmux needs to start share.
        let bin = fixtures.root.appendingPathComponent("tmux-path")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["env", "sh", "mv"] {
            try? FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "/usr/bin/" + tool)
        }
        environment["PATH"] = bin.path
        let q = TmuxSession.quote
        return try TmuxSession((["/usr/sbin/ip", "netns", "exec", receiver.namespace, try Share.binary().path, "--config", file.path,
                                 "--activity", "airDrop", "--json"] + arguments).map(q).joined(separator: " "),
                               workingDirectory: fixtures.files, environment: environment)
    }

    @Test func theScreenShowsTheDeviceBesideTheLinkAndItsKeySendsAskingForThePIN() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--pin", "4821"])
        let session = try Self.screen(fixtures, receiver, [fixtures.pdf.path])
        defer { session.close() }
        let shown = try session.waitFor("[1] 📱 Test Phone (Pixel, mobile)")
        #expect(shown.contains("On this network") && shown.contains("http://127.0.0.1:"), "\(shown.text)")
        try session.sendLiteral("1")
        try session.waitFor("PIN shown on Test Phone")
        try session.sendLiteral("4821")
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "\(session.stdout)")
        let saved = try receiver.event("saved") { $0["name"] as? String == "Q4 Projections.pdf" }
        #expect(saved["sha256"] as? String == (try Self.sha256(fixtures.pdf)))
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        #expect(completion["outcome"] as? String == "sent", "\(completion)")
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    @Test func deviceOnAScreenAsksForThePINThereUntilTheDeviceTakesIt() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--pin", "4821"])
        let session = try Self.screen(fixtures, receiver, ["--device", "Test Phone", fixtures.pdf.path])
        defer { session.close() }
        try session.waitFor("Test Phone asks for the PIN it shows")
        try session.sendLiteral("1111")
        try session.send("Enter")
        try session.waitFor("Test Phone did not take the PIN")
        try session.sendLiteral("4821")
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "\(session.stdout)")
        try receiver.event("saved") { $0["name"] as? String == "Q4 Projections.pdf" }
        #expect(receiver.events.filter { $0["status"] as? Int == 401 }.count == 2, "\(receiver.events)")
    }

    @Test func escOnTheScreenCancelsASendUnderWay() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--slow"])
        let big = try Self.bigFile(fixtures, size: 8 << 20)
        let session = try Self.screen(fixtures, receiver, [big.path])
        defer { session.close() }
        try session.waitFor("[1] 📱 Test Phone")
        try session.sendLiteral("1")
        try receiver.event("receiving") { $0["name"] as? String == "big.bin" }
        try session.waitFor("big.bin ·")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
        let cancelled = try receiver.event("cancelled")
        #expect(cancelled["known"] as? Bool == true)
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        #expect(completion["outcome"] as? String == "cancelled", "\(completion)")
    }

    /// The link as Nearby's screen shows it.
    static func link(on screen: Screen) throws -> String {
        let line = try #require(screen.lines.first { $0.contains("http://127.0.0.1:") }, "\(screen.text)")
        let start = try #require(line.range(of: "http://"))
        return String(line[start.lowerBound...].prefix { !$0.isWhitespace })
    }

    @Test func theFirstDownloadOfTheLinkStopsASendUnderWayAndTheDeviceHearsCancel() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--slow"])
        let big = try Self.bigFile(fixtures, size: 8 << 20)
        let session = try Self.screen(fixtures, receiver, [big.path])
        defer { session.close() }
        let link = try Self.link(on: try session.waitFor("[1] 📱 Test Phone"))
        try session.sendLiteral("1")
        try receiver.event("receiving") { $0["name"] as? String == "big.bin" }
        // Someone on the network takes the link meanwhile: that first download ends Nearby.
        let copy = fixtures.root.appendingPathComponent("downloaded.bin")
        let download = try Share.run(URL(fileURLWithPath: "/usr/sbin/ip"), ["netns", "exec", receiver.namespace, "/usr/bin/curl", "-sS", "-o", copy.path, link],
                                     environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        #expect(download.status == 0, "curl \(link): \(download.err)")
        #expect(try Self.sha256(copy) == (try Self.sha256(big)))
        #expect(try session.waitForExit() == 0, "\(session.stdout)")
        let cancelled = try receiver.event("cancelled")
        #expect(cancelled["known"] as? Bool == true)
        #expect(!receiver.events.contains { $0["event"] as? String == "saved" }, "\(receiver.events)")
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any], "\(session.stdout)")
        #expect(completion["outcome"] as? String == "performed", "\(completion)")
        let warnings = completion["warnings"] as? [String] ?? []
        #expect(warnings.count == 1 && warnings[0].contains("LocalSend to Test Phone") && warnings[0].contains("asked to cancel"), "\(completion)")
        #expect(receiver.violations.isEmpty, "\(receiver.violations)")
    }

    @Test func theTimeLimitStopsASendUnderWayAndTheDeviceHearsCancel() throws {
        let fixtures = try Fixtures()
        let receiver = try Receiver(fixtures, "own", ["--slow"])
        // Read slowly, 24 MiB take the receiver about 20 s: the send is under way at the time limit.
        let big = fixtures.files.appendingPathComponent("big.bin")
        try Data(count: 24 << 20).write(to: big)
        let session = try Self.screen(fixtures, receiver, ["--timeout", "8", big.path])
        defer { session.close() }
        try session.waitFor("[1] 📱 Test Phone")
        try session.sendLiteral("1")
        try receiver.event("receiving") { $0["name"] as? String == "big.bin" }
        #expect(try session.waitForExit(timeout: 40) == 3, "\(session.stdout)")
        let cancelled = try receiver.event("cancelled")
        #expect(cancelled["known"] as? Bool == true)
        #expect(!receiver.events.contains { $0["event"] as? String == "saved" }, "\(receiver.events)")
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any], "\(session.stdout)")
        let error = completion["error"] as? [String: Any] ?? [:]
        #expect(completion["outcome"] as? String == "failed" && error["code"] as? String == "timeout", "\(completion)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("nobody downloaded within 8 seconds") && message.contains("LocalSend to Test Phone"), "\(message)")
    }
}
