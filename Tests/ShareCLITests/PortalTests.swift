import Foundation
import Testing
import TestSupport

/// share-portal, the desktop's Email portal backend, reached as an
/// application reaches it: Debian's xdg-desktop-portal on a session bus of
/// the test's own (dbus-run-session), ComposeEmail called by `gdbus call`
/// or through Gio with the attachments' descriptors, D-Bus starting
/// share-portal from the shipped service file, the compose screen opened
/// in a terminal stand-in that runs it in tmux, the mail sent to aiosmtpd,
/// and the portal's Response read back.
@Suite struct PortalTests {
    /// The mail fields of the screen, by label.
    static func fields(_ screen: Screen) -> [String: String] {
        Dictionary(screen.lines.compactMap { line -> (String, String)? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func gdbusCallOpensTheComposeScreenAndTheSentMailAnswersZero() throws {
        let world = try PortalWorld()
        defer { world.stop() }
        let application = try world.ask(["--gdbus", "--to", "a@example.com", "--cc", "c@example.com", "--subject", "From the portal",
                                         "--body", "Sent by an application."])
        defer { application.stop() }
        let screen = try world.session.waitFor("Sent by an application.")
        let fields = Self.fields(screen)
        #expect(fields["To"] == "a@example.com" && fields["Cc"] == "c@example.com" && fields["Subject"] == "From the portal",
                "screen:\n\(screen.text)")
        try world.session.send("C-x")
        #expect(application.nextLine()?.hasPrefix("HANDLE /org/freedesktop/portal/desktop/request/") == true)
        // The portal signals its answer to the caller alone (gdbus has gone): share-portal's log says it.
        _ = try eventually("share-portal's answer", timeout: TmuxSession.defaultTimeout, report: { application.log }) {
            application.log.contains("share-portal: the request of a program outside a sandbox: sent") ? true : nil
        }
        let (message, check) = try world.server.onlyMessage()
        #expect(message.envelope.rcptTos.sorted() == ["a@example.com", "c@example.com"])
        #expect(check.header("Subject") == "From the portal")
        #expect(check.addresses["cc"] == [.init(name: "", addr: "c@example.com")])
        #expect(check.textParts.first?.normalizedText?.hasPrefix("Sent by an application.") == true, "\(check.textParts.map(\.text))")
    }

    /// The attachments are read through the descriptors the application
    /// passed: a file replaced at its path after the request still goes as
    /// it was passed, under its own name.
    @Test func attachmentsGoAsTheirDescriptorsPassedThem() throws {
        let world = try PortalWorld()
        defer { world.stop() }
        let pdf = try world.mail.file("Q4 report.pdf", FixtureBytes.pdf)
        let notes = try world.mail.file("notes.txt", Data("the words the application passed\n".utf8))
        let passed = try sha256(of: notes)
        let application = try world.ask(["--to", "a@example.com", "--subject", "Two files", "--attach", pdf.path, "--attach", notes.path])
        defer { application.stop() }
        let screen = try world.session.waitFor("Attachments (2)")
        #expect(screen.contains("Q4 report.pdf") && screen.contains("notes.txt"), "screen:\n\(screen.text)")
        let replacement = try world.mail.file("replacement", Data("other words, written later\n".utf8))
        try #require(rename(replacement.path, notes.path) == 0)
        try world.session.send("C-x")
        _ = application.nextLine()
        #expect(application.nextLine() == "RESPONSE 0", "the portal's log:\n\(application.log)")
        let (_, check) = try world.server.onlyMessage()
        #expect(check.attachments.map(\.filename) == ["Q4 report.pdf", "notes.txt"])
        #expect(check.attachments.map(\.sha256) == [try sha256(of: pdf), passed], "the bytes passed, not those at the path now")
    }

    @Test func cancellingTheComposeScreenAnswersOne() throws {
        let world = try PortalWorld()
        defer { world.stop() }
        let application = try world.ask(["--to", "a@example.com", "--subject", "Not sent"])
        defer { application.stop() }
        try world.session.waitFor("Not sent")
        try world.session.send("Escape")
        _ = application.nextLine()
        #expect(application.nextLine() == "RESPONSE 1", "the portal's log:\n\(application.log)")
        #expect(try world.server.messages().isEmpty)
    }

    /// A terminal that cannot start share ends the request at once, with
    /// the reason in the service's log.
    @Test func aTerminalThatFailsAnswersTwo() throws {
        let world = try PortalWorld(terminal: "/bin/false")
        defer { world.stop() }
        let application = try world.ask(["--to", "a@example.com"])
        defer { application.stop() }
        _ = application.nextLine()
        #expect(application.nextLine() == "RESPONSE 2")
        #expect(application.log.contains("the terminal /bin/false ended with status 1 before share started"), "\(application.log)")
    }

    /// share-portal checks its arguments and its config before it takes the bus.
    @Test func sharePortalRefusesArgumentsAndAnEmptyTerminal() throws {
        let fixtures = try Fixtures()
        let link = fixtures.root.appendingPathComponent("share-portal")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: try Share.binary().path)
        let help = try Share.run(link, ["--help"], environment: fixtures.environment, directory: fixtures.root)
        #expect(help.status == 0 && help.out.contains("org.freedesktop.impl.portal.desktop.share"), "\(help.out)")
        let unknown = try Share.run(link, ["--replace"], environment: fixtures.environment, directory: fixtures.root)
        #expect(unknown.status == 2 && unknown.err.contains("share-portal: unknown argument '--replace'"), "\(unknown.err)")
        let config = fixtures.configHome.appendingPathComponent("share/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[portal]\nterminal =\n".utf8).write(to: config)
        let empty = try Share.run(link, [], environment: fixtures.environment, directory: fixtures.root)
        #expect(empty.status == 2 && empty.err.contains("terminal takes a command, such as x-terminal-emulator -e"), "\(empty.err)")
    }

    /// `share --portal-request` is share-portal's: not for items, nor for a socket nobody serves.
    @Test func portalRequestRefusesItemsAndAMissingSocket() throws {
        let fixtures = try Fixtures()
        try fixtures.share("--portal-request", "/nonexistent/socket", "a.txt").expectExit(2, saying: "--portal-request takes no items")
        try fixtures.share("--portal-request", fixtures.root.appendingPathComponent("none.sock").path)
            .expectExit(2, saying: "none.sock: no such file")
    }
}

/// A desktop for the portal: a mail world with its SMTP server, share's
/// `.portal` file and D-Bus service file as shipped (the service starting
/// a `share-portal` link to the share under test), a config whose
/// `[portal] terminal` is a stand-in that opens a tmux window, and the
/// tmux session that plays the user's screen.
final class PortalWorld {
    let mail: MailWorld
    let server: SMTPServer
    let session: TmuxSession
    var environment: [String: String]

    init(terminal: String? = nil) throws {
        mail = try MailWorld()
        server = try mail.startServer()
        let root = mail.root, manager = FileManager.default
        let bin = root.appendingPathComponent("bin", isDirectory: true)
        let portals = root.appendingPathComponent("portals", isDirectory: true)
        let services = root.appendingPathComponent("bus/dbus-1/services", isDirectory: true)
        let runtime = root.appendingPathComponent("run", isDirectory: true)
        for folder in [bin, portals, services, runtime] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try manager.createSymbolicLink(atPath: bin.appendingPathComponent("share-portal").path, withDestinationPath: try Share.binary().path)
        let contrib = InstallTests.root.appendingPathComponent("contrib/portal")
        try manager.copyItem(at: contrib.appendingPathComponent("share.portal"), to: portals.appendingPathComponent("share.portal"))
        let service = try String(contentsOf: contrib.appendingPathComponent("org.freedesktop.impl.portal.desktop.share.service.in"),
                                 encoding: .utf8)
        try Data(service.replacingOccurrences(of: "@LIBEXECDIR@", with: bin.path).utf8)
            .write(to: services.appendingPathComponent("org.freedesktop.impl.portal.desktop.share.service"))

        environment = mail.fixtures.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_DATA_DIRS"] = root.appendingPathComponent("bus").path + ":/usr/share"
        environment["XDG_DESKTOP_PORTAL_DIR"] = portals.path
        session = try TmuxSession("exec >/dev/tty; echo the desktop; exec cat", workingDirectory: root, environment: environment)
        try session.waitFor("the desktop")

        let standIn = bin.appendingPathComponent("x-terminal-emulator")
        try session.writeTerminalStandIn(to: standIn)
        let config = mail.fixtures.configHome.appendingPathComponent("share/config")
        try manager.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        let mailSettings = try String(contentsOf: mail.config, encoding: .utf8)
        try Data((mailSettings + "[portal]\nterminal = \(terminal ?? standIn.path + " -e")\n").utf8).write(to: config)
    }

    /// An application's ComposeEmail (portal_client.py with `arguments`),
    /// on a session bus of its own with xdg-desktop-portal; it has asked once this returns.
    func ask(_ arguments: [String]) throws -> ServerScript {
        try ServerScript(script: "portal_client.py", arguments: arguments, logFile: mail.root.appendingPathComponent("portal.log"),
                         environment: environment)
    }

    func stop() {
        session.close()
        server.stop()
    }
}
