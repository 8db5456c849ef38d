import Foundation
@testable import ShareActivities
import ShareCLI
import ShareCore
import ShareMail
import ShareSupport
import Testing

/// Several accounts (SPEC §9: `[mail.NAME]`, `[mail] default`): each
/// message goes through the account whose identity is its From, with two
/// real SMTP servers on 127.0.0.1 telling the accounts apart.
@Suite struct MailAccountsTests {
    static let home = "Kim <kim@home.example>"
    static let work = "김민수 <minsu@work.example>"

    /// Writes a config of two accounts, `home` on `homePort` (or none) and
    /// `work` on `workPort`, each with its own sent folder; `extra` goes into `[mail]`.
    static func configure(_ world: MailWorld, homePort: Int?, workPort: Int, extra: [String] = ["default = work"]) throws {
        let text = (["[mail]"] + extra + ["undo-send = 0", "tls = off",
                                          "drafts = \(world.drafts.path)", "outbox = \(world.outbox.path)", "",
                                          "[mail.home]", "from = \(home)", "sent = \(world.root.path)/HomeSent"]
            + (homePort.map { ["transport = smtp://127.0.0.1:\($0)"] } ?? [])
            + ["", "[mail.work]", "from = \(work)", "transport = smtp://127.0.0.1:\(workPort)", "sent = \(world.sent.path)"])
            .joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: world.config)
    }

    static let message = ["--send", "--json", "--to", "park@example.com", "--subject", "어느 계정", "--body", "which account"]

    @Test func theDefaultAccountSendsWhenNothingElseSays() throws {
        let world = try MailWorld()
        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port)

        let sent = try world.send(Self.message, to: workServer)
        #expect(sent.message.envelope.mailFrom == "minsu@work.example")
        #expect(sent.check.addresses["from"]?.first?.addr == "minsu@work.example")
        #expect(try homeServer.messages().isEmpty)
        #expect(world.allMessages(in: world.sent).count == 1, "\(world.folders)")
    }

    @Test func fromPicksTheAccountWhoseAddressItIs() throws {
        let world = try MailWorld()
        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port)

        let sent = try world.send(Self.message + ["--from", "KIM@home.example"], to: homeServer)
        #expect(sent.message.envelope.mailFrom == "kim@home.example")
        #expect(try workServer.messages().isEmpty, "went through the default account")
        // Its sent copy is in the home account's folder, not the default's.
        let homeSent = world.root.appendingPathComponent("HomeSent", isDirectory: true)
        #expect(world.allMessages(in: homeSent).count == 1)
        world.expectEmpty(world.sent, world.drafts, world.outbox)
    }

    @Test func fromMayNameTheAccount() throws {
        let world = try MailWorld()
        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port)

        let sent = try world.send(Self.message + ["--from", "home"], to: homeServer)
        #expect(sent.message.envelope.mailFrom == "kim@home.example")
    }

    @Test func withoutDefaultTheFirstAccountByNameSends() throws {
        let world = try MailWorld()
        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port, extra: [])
        let sent = try world.send(Self.message, to: homeServer)
        #expect(sent.message.envelope.mailFrom == "kim@home.example")
    }

    @Test func theOutboxIsFlushedThroughEachMessagesAccount() throws {
        let world = try MailWorld()
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        // home has no transport yet: its message waits in the shared outbox.
        try Self.configure(world, homePort: nil, workPort: workServer.port)
        let queued = try world.share(Self.message + ["--from", "kim@home.example"])
        try world.expectQueued(queued)

        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port)
        let flush = try world.share(["--flush"])
        #expect(flush.status == 0, "stderr: \(flush.err)")
        let (message, _) = try homeServer.onlyMessage()
        #expect(message.envelope.mailFrom == "kim@home.example")
        #expect(try workServer.messages().isEmpty)
        world.expectEmpty(world.outbox)
    }

    @Test func anAccountTakesTheKeysOfMailItDoesNotSet() throws {
        let world = try MailWorld()
        let server = try SMTPServer(directory: world.root)
        defer { server.stop() }
        let text = """
            [mail]
            transport = smtp://127.0.0.1:\(server.port)
            tls = off
            undo-send = 0
            drafts = \(world.drafts.path)
            sent = \(world.sent.path)
            outbox = \(world.outbox.path)

            [mail.work]
            from = \(Self.work)
            """
        try Data(text.utf8).write(to: world.config)
        let sent = try world.send(Self.message, to: server)
        #expect(sent.message.envelope.mailFrom == "minsu@work.example")
        #expect(world.allMessages(in: world.sent).count == 1)
    }

    @Test func explainNamesEachAccount() throws {
        let world = try MailWorld()
        try Self.configure(world, homePort: nil, workPort: 2525)
        let run = try world.share(["--explain", "--text", "hi"])
        #expect(run.status == 0, "stderr: \(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("mail ") }, "stdout: \(run.out)")
        #expect(line.contains("work (default): minsu@work.example through smtp://127.0.0.1:2525"), "\(line)")
        #expect(line.contains("home: kim@home.example no transport"), "\(line)")
    }

    struct BadAccounts: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var words: [String]
        var testDescription: String { name }
    }

    static let badAccounts = [
        BadAccounts(name: "a default that names no account", text: "[mail]\ndefault = office\n[mail.work]\nfrom = a@b.example\n",
                    words: [":2: default names an account [mail.NAME]; there is no [mail.office] (accounts: work)"]),
        BadAccounts(name: "an account without from", text: "[mail]\n[mail.work]\ntransport = smtp://mail.example:587\n",
                    words: ["[mail.work] has no from"]),
        BadAccounts(name: "an unknown key in an account", text: "[mail.work]\nfrom = a@b.example\nimap-folder = x\n",
                    words: [":3: unknown key 'imap-folder' in [mail.work]"]),
        BadAccounts(name: "default inside an account", text: "[mail.work]\nfrom = a@b.example\ndefault = work\n",
                    words: [":3: unknown key 'default' in [mail.work]"]),
        BadAccounts(name: "OAuth2 without a token command in an account",
                    text: "[mail.work]\nfrom = a@b.example\ntransport = smtp://mail.example:587\nauth = oauthbearer\n",
                    words: [":4: auth = oauthbearer needs token-command"]),
    ]

    @Test(arguments: badAccounts)
    func aBadAccountIsRefusedBeforeAnything(_ bad: BadAccounts) throws {
        let world = try MailWorld()
        try Data(bad.text.utf8).write(to: world.config)
        let run = try world.share(["--send", "--to", "park@example.com", "--text", "hi"])
        #expect(run.status == 2, "stdout: \(run.out) stderr: \(run.err)")
        for words in bad.words { #expect(run.err.contains(words), "stderr: \(run.err)") }
    }

    /// The compose screen's From offers every account's identities, the default account's first.
    @Test @MainActor func theFormsFromOffersEveryAccount() throws {
        let world = try MailWorld()
        try Self.configure(world, homePort: nil, workPort: 2525)
        let text = try String(contentsOf: world.config, encoding: .utf8)
        let environment = ["HOME": world.root.path]
        let configuration = try Configuration(parsing: text, path: world.config.path, environment: environment)
        let settings = try MailActivity.settings(configuration.section("mail"), accounts: configuration.sections(under: "mail"),
                                                 locations: Locations(environment: environment), environment: environment)
        let form = try #require(MailActivity(settings: settings).makeForm())
        let from = try #require(form.fields.first { $0.id == "from" })
        guard case .choice(let identities) = from.kind else {
            Issue.record("From is not a chooser: \(from.kind)")
            return
        }
        #expect(identities.count == 2)
        #expect(identities.first?.contains("minsu@work.example") == true, "\(identities)")
        #expect(identities.last?.contains("kim@home.example") == true, "\(identities)")
        #expect(from.initialValue == identities.first)
        #expect(settings.account(sending: "kim@home.example").name == "home")
        #expect(settings.account(sending: "minsu@work.example").name == "work")
    }
}

extension MailAccountsTests {
    /// Each account's signature: the default's in a new message, another's when --from picks it.
    @Test @MainActor func theSignatureIsTheAccounts() throws {
        let world = try MailWorld()
        try Self.configure(world, homePort: nil, workPort: 2525)
        let homeSignature = try world.file("home.sig", Data("Kim at home".utf8))
        let workSignature = try world.file("work.sig", Data("김민수, 회사".utf8))
        var text = try String(contentsOf: world.config, encoding: .utf8)
        text = text.replacingOccurrences(of: "[mail.home]\n", with: "[mail.home]\nsignature-file = \(homeSignature.path)\n")
            .replacingOccurrences(of: "[mail.work]\n", with: "[mail.work]\nsignature-file = \(workSignature.path)\n")
        let environment = ["HOME": world.root.path]
        let configuration = try Configuration(parsing: text, path: world.config.path, environment: environment)
        let settings = try MailActivity.settings(configuration.section("mail"), accounts: configuration.sections(under: "mail"),
                                                 locations: Locations(environment: environment), environment: environment)
        let byDefault = MailActivity(settings: settings)
        #expect(byDefault.initialValues().values["body"]?.hasSuffix("-- \n김민수, 회사") == true)
        var request = MailRequest()
        request.from = "kim@home.example"
        let fromHome = MailActivity(request: request, settings: settings)
        #expect(fromHome.initialValues().values["body"]?.hasSuffix("-- \nKim at home") == true)
        #expect(fromHome.initialValues().values["from"]?.contains("kim@home.example") == true)
    }
}

extension MailAccountsTests {
    /// A user name that is a whole address is written with %40 in a URL; the server gets the address.
    @Test @MainActor func aPercentEncodedUserIsTheAddress() throws {
        let text = """
            [mail.fastmail]
            from = Kim <kim@fastmail.com>
            transport = smtps://kim%40fastmail.com@smtp.fastmail.com:465
            password-command = pass show fastmail-app
            imap = imaps://kim%40fastmail.com@imap.fastmail.com
            sent = imap:auto
            """
        let environment = ["HOME": "/nonexistent"]
        let configuration = try Configuration(parsing: text, path: "/c", environment: environment)
        let settings = try MailActivity.settings(configuration.section("mail"), accounts: configuration.sections(under: "mail"),
                                                 locations: Locations(environment: environment), environment: environment)
        let account = settings.account(sending: "kim@fastmail.com")
        #expect((account.transport as? SMTPTransport)?.username == "kim@fastmail.com")
        #expect((account.transport as? SMTPTransport)?.serverURL == "smtps://smtp.fastmail.com:465")
        #expect(account.imapSent?.login.username == "kim@fastmail.com")
        #expect(account.imapSent?.name == .specialUse("\\Sent"))
        #expect(account.imapSent?.login.method == .password(command: "pass show fastmail-app"))
    }
}

extension MailAccountsTests {
    /// In the compose screen, switching From switches the account: the
    /// message goes through the server of the identity chosen.
    @Test func switchingFromInTheComposeScreenSwitchesTheAccount() throws {
        let world = try MailWorld()
        let homeServer = try SMTPServer(directory: world.root)
        defer { homeServer.stop() }
        let workServer = try SMTPServer(directory: world.root)
        defer { workServer.stop() }
        try Self.configure(world, homePort: homeServer.port, workPort: workServer.port)

        let run = try ComposeRun.mail(world, ["--to", "park@example.com", "--subject", "계정 바꾸기", "--body", "from home"])
        let session = run.session
        var screen = try run.waitForCompose()
        #expect(ComposeRun.value(ComposeRun.fromRow, of: screen)?.contains("minsu@work.example") == true, "screen:\n\(screen.text)")
        // Shift-Tab back to To, once more to From, and Right: its next identity, the home account's.
        var presses = 0
        while try run.cursor().y != ComposeRun.toRow {
            presses += 1
            let shown = try session.capture().text
            try #require(presses <= 8, "Shift-Tab never reached To; screen:\n\(shown)")
            let before = try run.cursor()
            try session.send("BTab")
            try run.poll("the cursor to move back") { try run.cursor() != before }
        }
        // (A choice shows no cursor: the keys go in order, and From's value says where they went.)
        try session.send("BTab")
        try session.send("Right")
        screen = try session.waitUntil("the home identity in From") {
            ComposeRun.value(ComposeRun.fromRow, of: $0)?.hasPrefix(Self.home) == true
        }
        try session.send("C-x")
        let (status, completion) = try run.finish()
        #expect(status == 0, "stderr: \(session.stderr)")
        #expect(completion.outcome == "sent", "\(completion)")
        let (message, check) = try homeServer.onlyMessage()
        #expect(message.envelope.mailFrom == "kim@home.example")
        #expect(check.addresses["from"]?.first?.addr == "kim@home.example")
        #expect(try workServer.messages().isEmpty, "went through the default account")
    }
}
