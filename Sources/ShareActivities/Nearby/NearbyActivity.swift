import FoundationEssentials
import ShareCore
import ShareSupport
import Synchronization

/// What the command line asked of Nearby.
public struct NearbyRequest: Sendable, Equatable {
    /// `--bind ADDR|IFACE`: where to listen (else `[nearby] bind`, else the default route's interface).
    public var bind: String?
    /// `--keep`: serve until Esc, not only until the first download.
    public var keep = false
    /// `--timeout SECONDS`: give up when nobody has downloaded by then.
    public var timeout: Int?
    /// `--device NAME|ADDR[:PORT]`: send to this LocalSend device, without a screen.
    public var device: String?
    /// `--pin PIN`: the PIN the LocalSend device asks for.
    public var pin: String?

    public init(bind: String? = nil, keep: Bool = false, timeout: Int? = nil) {
        self.bind = bind
        self.keep = keep
        self.timeout = timeout
    }

    /// `--timeout`'s value: whole seconds, 1 to a day.
    public static func timeout(_ text: String) -> Int? {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int(text), (1...86_400).contains(seconds) else { return nil }
        return seconds
    }
}

/// Nearby (`airDrop`): hands the items to a phone or another machine on
/// the same network with a one-shot link, shown as text and as a QR code,
/// and says live who fetched what. Done after the first complete download
/// (or, with `--keep`, when the person stops it).
@MainActor
public final class NearbyActivity: SystemActivity, LiveActivity {
    public nonisolated static var systemType: ActivityType { .airDrop }
    public nonisolated static var configKeys: [ConfigKeys] {
        [ConfigKeys(section: "nearby", keys: ["bind", "wormhole-relay", "wormhole-transit", "localsend", "localsend-scan", "discovery-timeout"])]
    }

    let request: NearbyRequest
    let configuredBind: String?
    /// LocalSend: `[nearby] localsend`, `localsend-scan` and `discovery-timeout`, and where its certificate is kept.
    let localSend: LocalSendSettings
    /// Where the `wormhole` command is looked for when sharing (not at
    /// start-up: a search of $PATH before the first paint), and its settings.
    private let environment: [String: String]
    private let wormholeSettings: Wormhole.Settings
    private let temporary: String
    private let title: String?
    /// Whether a screen shows the devices around (without one, only `--device` sends to one).
    let hasTerminal: Bool
    /// The PIN for a LocalSend device: `--pin`, else `SHARE_PIN` (out of
    /// sight of `ps`), else none (a screen asks for it when needed).
    let pin: String?

    public init(context: ActivityContext) throws(ConfigurationError) {
        request = context.request(for: NearbyActivity.self)
        let section = context.section("nearby")
        configuredBind = section.entry("bind")?.value.trimmingWhitespace()
        title = context.title
        hasTerminal = context.hasTerminal
        environment = context.environment
        wormholeSettings = Wormhole.Settings(relay: section.entry("wormhole-relay")?.value.trimmingWhitespace(),
                                             transit: section.entry("wormhole-transit")?.value.trimmingWhitespace())
        temporary = context.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        localSend = try LocalSendSettings(section: section, folder: context.locations.stateHome + "/localsend")
        if let given = request.pin {
            pin = given
        } else {
            pin = try NearbyActivity.environmentPIN(context.environment)
        }
    }

    /// `SHARE_PIN`, when set and not empty.
    nonisolated static func environmentPIN(_ environment: [String: String]) throws(ConfigurationError) -> String? {
        guard let value = environment["SHARE_PIN"], !value.isEmpty else { return nil }
        guard value.allSatisfy({ !$0.isNewline }) else {
            throw ConfigurationError("SHARE_PIN holds a line break: it is the PIN the device shows, on one line")
        }
        return value
    }

    public var activityImage: ActivityImage { .glyph("📡") }
    public var availability: Availability { .available }

    public func perform(_ session: ActivitySession, display: LiveDisplay) async {
        if let device = request.device { return await send(to: device, session: session, display: display) }
        let address: NetworkAddress
        do {
            address = try NetworkAddress.choose(bind: request.bind ?? configuredBind)
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.noNetwork, message: error.description))
            return
        }
        let pageTitle = title ?? session.subject ?? "Shared with share"
        let content = NearbyContent(items: session.items, title: pageTitle)
        let (events, continuation) = AsyncStream<Step>.makeStream()
        defer { continuation.finish() }
        let server: NearbyServer
        let port: UInt16
        do {
            server = try NearbyServer(content: content) { continuation.yield(.server($0)) }
            port = try server.start(on: address)
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.serveFailed, message: error.description))
            return
        }
        defer { server.stop() }
        let url = "http://\(address.urlHost):\(port)/\(server.token)/"
        let wormhole = ProgramSearch.executable("wormhole", environment: environment)
        var model = NearbyStatus(url: url, address: address, items: session.items, wormhole: wormhole != nil)
        // Done: the link, and who (or which wormhole code) took the share.
        func performed(by client: String, warnings: [String] = []) {
            session.finish(.performed, returnedItems: [.url(URL(string: url) ?? URL(fileURLWithPath: "/")), .text(client)],
                           warnings: warnings, summary: Localization.text("Sent to %@", client))
        }
        var sender: Wormhole?
        if let wormhole {
            do {
                sender = try Wormhole(program: wormhole, items: session.items, settings: wormholeSettings, temporary: temporary) {
                    continuation.yield(.wormhole($0))
                }
            } catch {
                model.wormholeFailed(error.description)
            }
        }
        defer { sender?.stop() }
        // LocalSend: the devices around, each a key that sends to it.
        var localSendIdentity: LocalSendIdentity?
        var discovery: LocalSendDiscovery?
        // Without a screen nobody could pick a device: no discovery then (--device sends without one).
        if localSend.enabled && hasTerminal {
            do {
                let identity = try LocalSendIdentity.load(folder: localSend.folder)
                let started = LocalSendDiscovery(identity: identity, address: address, scan: localSend.scan) { continuation.yield(.device($0)) }
                try started.start()
                (localSendIdentity, discovery) = (identity, started)
                model.lookingForDevices = true
            } catch {
                model.localSendNews = LiveStatus.Line(Localization.text("LocalSend is off: %@", "\(error)"), isError: true)
            }
        }
        defer { discovery?.stop() }
        // The files' digests, which prepare-upload carries: taken from the
        // moment a device answers (a send is a key away then), while the person picks.
        var digests: LocalSendDigests?
        defer { digests?.stop() }
        // Asked by a send between pieces: set when Nearby ends while one runs.
        let sendStop = StopFlag()
        // How Nearby ends, once the send under way has stopped.
        var ending: Ending?
        /// A send to a device, on threads of its own; its news and its end come as steps.
        func startSend(to device: LocalSendDevice, pin: String?) {
            guard let identity = localSendIdentity else { return }
            let transfer = LocalSendTransfer(device: device, identity: identity, listenerPort: discovery?.listenerPort ?? LocalSendDevice.defaultPort)
            let items = session.items
            let fileDigests = digests ?? LocalSendDigests.start(items: items)
            digests = fileDigests
            model.sendStarted(to: device)
            display.show(model.status)
            Task {
                let result: Result<[LocalSendTransfer.Entry], LocalSendTransfer.Failure> = await onThread {
                    do throws(LocalSendTransfer.Failure) {
                        let entries = try LocalSendTransfer.entries(for: items, digests: fileDigests)
                        let progress = Mutex(LocalSendProgress(device: device, entries: entries))
                        continuation.yield(.sending(progress.withLock { $0 }))
                        return .success(try transfer.send(entries, pin: pin, events: { event in
                            continuation.yield(.sending(progress.withLock { state in
                                state.take(event)
                                return state
                            }))
                        }, stop: { display.isCancelled || sendStop.isSet }))
                    } catch {
                        return .failure(error)
                    }
                }
                continuation.yield(.sent(result, device, pin: pin))
            }
        }
        /// The share's outcome for `reason`; `stopped` says how a send that Nearby's end stopped ended.
        func finish(_ reason: Ending, stopped: String? = nil) {
            switch reason {
            case .cancelled:
                // Esc stopped the send: nothing more to say of it.
                if let done = model.firstComplete { return performed(by: done) }
                session.finish(.cancelled)
            case .performed(let client):
                performed(by: client, warnings: stopped.map { [$0] } ?? [])
            case .timedOut:
                if let done = model.firstComplete { return performed(by: done, warnings: stopped.map { [$0] } ?? []) }
                session.fail(ActivityError(code: ActivityError.Code.timeout,
                                           message: "nobody downloaded within \(request.timeout ?? 0) seconds" + (stopped.map { " (\($0))" } ?? "")))
            case .failed(let error):
                session.fail(ActivityError(code: error.code, message: error.message + (stopped.map { " (\($0))" } ?? "")))
            }
        }
        /// Ends Nearby for `reason`, or, while a send runs, stops it (its
        /// device hears cancel) and ends once it has stopped; true when the share is over.
        func end(_ reason: Ending) -> Bool {
            guard model.sendTarget != nil else {
                finish(reason)
                return true
            }
            ending = ending ?? reason
            sendStop.set()
            digests?.stop()
            return false
        }
        /// The send reached `device` with the entries `sent`.
        func sent(_ sent: [LocalSendTransfer.Entry], to device: LocalSendDevice) {
            let returned = session.items.enumerated().filter { index, _ in sent.contains { $0.id == "item-\(index + 1)" } }.map(\.element)
            session.finish(.sent, returnedItems: [.text(device.alias), .url(URL(string: device.url) ?? URL(fileURLWithPath: "/"))] + returned,
                           recipients: [device.alias + " (" + device.address + ")"], summary: Localization.text("Sent to %@", device.alias))
        }
        display.show(model.status)
        let watchers = [
            Task { await display.cancellation(); continuation.yield(.cancel) },
            Task { [timeout = request.timeout] in
                guard let timeout else { return }
                guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return }
                continuation.yield(.timeout)
            },
        ]
        let input = Task {
            for await input in display.input { continuation.yield(.input(input)) }
        }
        defer { watchers.forEach { $0.cancel() }; input.cancel() }
        for await step in events {
            switch step {
            case .device(let device):
                model.add(device)
                if digests == nil && ending == nil { digests = LocalSendDigests.start(items: session.items) }
                display.show(model.status)
            case .input(.choose(let key)):
                guard model.sendTarget == nil, ending == nil, let device = model.device(forKey: key) else { break }
                startSend(to: device, pin: pin)
            case .input(.answer(let pin)):
                guard model.sendTarget == nil, ending == nil, let device = model.askingPIN else { break }
                startSend(to: device, pin: pin)
            case .sending(let progress):
                model.sending = progress
                display.show(model.status)
            case .sent(let result, let device, let pin):
                model.sendEnded()
                if let reason = ending {
                    switch result {
                    // It ended before the stop took: the device has everything.
                    case .success(let entries): sent(entries, to: device)
                    case .failure(let failure): finish(reason, stopped: "LocalSend to \(device.alias): \(failure.description)")
                    }
                    return
                }
                switch result {
                case .success(let entries):
                    return sent(entries, to: device)
                case .failure(let failure) where display.isCancelled || failure.code == ActivityError.Code.cancelled:
                    return finish(.cancelled)
                case .failure(let failure) where failure.needsPIN:
                    model.askPIN(for: device, wrong: pin != nil)
                case .failure(let failure):
                    model.sendFailed(failure.description)
                }
                display.show(model.status)
            case .server(let event):
                model.take(event, finishing: content.finishing)
                display.show(model.status)
                if case .stopped(let why) = event {
                    if end(.failed(ActivityError(code: ActivityError.Code.serveFailed, message: "Nearby stopped: \(why)"))) { return }
                } else if let done = model.firstComplete, !request.keep, end(.performed(done)) {
                    return
                }
            case .wormhole(let event):
                model.take(event)
                display.show(model.status)
                if let done = model.firstComplete, !request.keep, end(.performed(done)) { return }
            case .cancel:
                // A send under way stops first (the device hears cancel); its end finishes the share.
                if end(.cancelled) { return }
            case .timeout:
                if end(.timedOut) { return }
            }
        }
    }

    /// How Nearby ends: Esc, the time limit, a download that finished the share, the server's failure.
    enum Ending {
        case cancelled
        case timedOut
        case performed(String)
        case failed(ActivityError)
    }

    /// What reaches the perform loop: the server's news, the person's Esc, the time limit.
    enum Step: Sendable {
        case server(NearbyServer.Event)
        case wormhole(Wormhole.Event)
        case cancel
        case timeout
        /// A LocalSend device answered.
        case device(LocalSendDevice)
        /// The person picked a device or typed a PIN.
        case input(LiveInput)
        /// A send's progress, and its end.
        case sending(LocalSendProgress)
        case sent(Result<[LocalSendTransfer.Entry], LocalSendTransfer.Failure>, LocalSendDevice, pin: String?)
    }
}

/// Nearby's screen, from the server's news: the link, and a line per
/// download (who, what, how far).
struct NearbyStatus {
    struct Download {
        enum State: Equatable {
            case running, done, cut
            /// The server ended it, and why (the file got shorter).
            case failed(String)
        }
        var id: Int
        var client: String
        var name: String
        var total: Int64?
        var sent: Int64 = 0
        var state = State.running
    }

    let url: String
    let address: NetworkAddress
    private let summary: String
    private(set) var downloads: [Download] = []
    private var wrongTokens = 0
    private var stopped: String?
    /// magic-wormhole: its code once known, and what it last said.
    private var wormholeCode: String?
    private var wormholeNews: LiveStatus.Line?
    /// The client of the first download that finished the share.
    private(set) var firstComplete: String?
    /// LocalSend: the devices around (by fingerprint, in the order they
    /// answered), the send under way, the device asking for a PIN, news.
    private(set) var devices: [LocalSendDevice] = []
    var sending: LocalSendProgress?
    private(set) var askingPIN: LocalSendDevice?
    var localSendNews: LiveStatus.Line?
    /// LocalSend discovery runs: said above the news until a device answers.
    var lookingForDevices = false
    /// The device a send under way goes to (from the pick, before its first news).
    private(set) var sendTarget: LocalSendDevice?

    init(url: String, address: NetworkAddress, items: [ShareItem], wormhole: Bool) {
        wormholeNews = wormhole ? LiveStatus.Line(Localization.text("Asking magic-wormhole for a code…"))
            : LiveStatus.Line(Localization.text("magic-wormhole is not installed (the magic-wormhole package): no code for other networks"))
        self.url = url
        self.address = address
        let files = items.compactMap(\.fileItem)
        summary = items.count == 1 ? (files.first?.name ?? Localization.text("the text")) : Localization.plural("%@ item", "%@ items", count: items.count, String(items.count))
    }

    var status: LiveStatus {
        var lines = downloads.map(line)
        if lines.isEmpty { lines = [LiveStatus.Line(Localization.text("Waiting for someone to open the link…"))] }
        if let sending {
            lines += sending.status.lines
        } else if let localSendNews {
            lines.append(localSendNews)
        }
        if wrongTokens > 0 {
            lines.append(LiveStatus.Line(Localization.text("%@ requests for a wrong link refused", String(wrongTokens)), isError: true))
        }
        if let stopped { lines.append(LiveStatus.Line(stopped, isError: true)) }
        if lookingForDevices && devices.isEmpty { lines.insert(LiveStatus.Line(Localization.text("Looking for LocalSend devices around…")), at: 0) }
        if let wormholeNews { lines.insert(wormholeNews, at: 0) }
        let heading = address.interface.map { Localization.text("On this network (%@)", $0) } ?? Localization.text("On this network")
        var offers = [LiveStatus.Offer(heading: heading, text: url, code: url, isLink: true)]
        if let wormholeCode {
            offers.append(LiveStatus.Offer(heading: Localization.text("Anywhere (magic-wormhole)"), text: wormholeCode,
                                           code: "wormhole-transfer:" + wormholeCode))
        }
        var status = LiveStatus(
            title: Localization.text("Nearby: %@", summary),
            instruction: wormholeCode == nil ? Localization.text("Open the link on a phone or computer on the same network, or scan the code.")
                : Localization.text("Open the link on the same network, or run wormhole receive with the code anywhere (or scan it)."),
            offers: offers,
            lines: lines)
        if sendTarget == nil {
            status.choices = devices.prefix(9).enumerated().map { index, device in
                LiveStatus.Choice(key: Character(String(index + 1)), text: device.icon + " " + device.label)
            }
            status.choicesHeading = Localization.text("LocalSend devices around: press a number to send")
        }
        if let askingPIN { status.prompt = Localization.text("PIN shown on %@", askingPIN.alias) }
        return status
    }

    /// A LocalSend device answered: listed once.
    mutating func add(_ device: LocalSendDevice) {
        guard !devices.contains(where: { $0.fingerprint == device.fingerprint }) else { return }
        devices.append(device)
    }

    /// The device of the key `key` (`1` the first).
    func device(forKey key: Character) -> LocalSendDevice? {
        guard let number = key.wholeNumberValue, number >= 1, number <= min(9, devices.count) else { return nil }
        return devices[number - 1]
    }

    mutating func sendStarted(to device: LocalSendDevice) {
        askingPIN = nil
        sendTarget = device
        localSendNews = LiveStatus.Line(Localization.text("Reading the files to send…"))
    }

    mutating func sendEnded() {
        sending = nil
        sendTarget = nil
        localSendNews = nil
    }

    mutating func askPIN(for device: LocalSendDevice, wrong: Bool) {
        askingPIN = device
        localSendNews = wrong ? LiveStatus.Line(Localization.text("%@ did not take the PIN; type it again", device.alias), isError: true)
            : LiveStatus.Line(Localization.text("%@ asks for the PIN it shows: type it and press Enter", device.alias))
    }

    mutating func sendFailed(_ why: String) {
        localSendNews = LiveStatus.Line(why, isError: true)
    }

    private func line(_ download: Download) -> LiveStatus.Line {
        switch download.state {
        case .done:
            return LiveStatus.Line(Localization.text("%@ downloaded %@", download.client, download.name))
        case .cut:
            return LiveStatus.Line(Localization.text("%@ stopped downloading %@ at %@", download.client, download.name, ByteCount.words(download.sent)),
                                   isError: true)
        case .failed(let why):
            return LiveStatus.Line(Localization.text("%@ could not be sent to %@: %@", download.name, download.client, why), isError: true)
        case .running:
            let head = Localization.text("%@ is downloading %@", download.client, download.name)
            guard let total = download.total, total > 0 else { return LiveStatus.Line(head + " · " + ByteCount.words(download.sent)) }
            let percent = String(Int(download.sent * 100 / total)) + "%"
            return LiveStatus.Line(head + " · " + Localization.text("%@ of %@", ByteCount.words(download.sent), ByteCount.words(total))
                                   + " (" + percent + ")", progress: Double(download.sent) / Double(total))
        }
    }

    mutating func take(_ event: Wormhole.Event) {
        switch event {
        case .code(let code):
            wormholeCode = code
            wormholeNews = nil
        case .ended(let status, let words):
            if status == 0 {
                wormholeNews = LiveStatus.Line(Localization.text("Sent through magic-wormhole"))
                if firstComplete == nil { firstComplete = "magic-wormhole " + (wormholeCode ?? "") }
            } else {
                wormholeFailed(words.isEmpty ? Localization.text("wormhole exited with %@", String(status)) : words)
            }
        }
    }

    /// magic-wormhole could not send: said, and the link on this network goes on.
    mutating func wormholeFailed(_ why: String) {
        wormholeNews = LiveStatus.Line(Localization.text("magic-wormhole failed: %@", why), isError: true)
    }

    mutating func take(_ event: NearbyServer.Event, finishing: Set<String>) {
        switch event {
        case .started(let id, let client, _, let name, let total):
            downloads.append(Download(id: id, client: client, name: name, total: total))
        case .progress(let id, let sent, _):
            // News that comes after the end (the watcher's last look) changes nothing.
            guard let index = downloads.firstIndex(where: { $0.id == id }), downloads[index].state == .running else { return }
            downloads[index].sent = sent
        case .ended(let id, let client, let path, let complete):
            guard let index = downloads.firstIndex(where: { $0.id == id }) else { return }
            if case .failed = downloads[index].state { return }
            downloads[index].state = complete ? .done : .cut
            if complete, finishing.contains(path), firstComplete == nil { firstComplete = client }
        case .failed(let id, let why):
            guard let index = downloads.firstIndex(where: { $0.id == id }) else { return }
            downloads[index].state = .failed(why)
        case .wrongToken:
            wrongTokens += 1
        case .stopped(let why):
            stopped = why
        }
    }
}
