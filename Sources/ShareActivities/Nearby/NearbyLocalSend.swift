import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// `[nearby]`'s LocalSend keys, and where share's LocalSend certificate is kept.
struct LocalSendSettings: Sendable {
    /// `localsend = on|off` (default on): devices around on Nearby's screen.
    var enabled = true
    /// `localsend-scan = on|off` (default off): also ask every address of the /24.
    var scan = false
    /// `discovery-timeout` seconds (default 2): how long devices have to answer.
    var timeout = 2.0
    /// The folder of share's certificate.
    var folder: String

    init(section: ConfigSection, folder: String) throws(ConfigurationError) {
        self.folder = folder
        enabled = try section.flag("localsend") ?? true
        scan = try section.flag("localsend-scan") ?? false
        if let seconds = try section.seconds("discovery-timeout") {
            guard seconds <= 60 else {
                throw section.error(section.entry("discovery-timeout")!, "discovery-timeout is at most 60 seconds")
            }
            timeout = seconds
        }
    }
}

/// Runs blocking work on a thread of its own and returns what it returns.
func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        if !BackgroundThread.start({ continuation.resume(returning: work()) }) { continuation.resume(returning: work()) }
    }
}

/// Nearby's LocalSend side: the devices around, and a send to one.
extension NearbyActivity {
    /// The address LocalSend discovery runs on, and share's identity.
    func localSendStart() throws(ActivityError) -> (NetworkAddress, LocalSendIdentity) {
        let address: NetworkAddress
        do {
            address = try NetworkAddress.choose(bind: request.bind ?? configuredBind)
        } catch {
            throw ActivityError(code: ActivityError.Code.noNetwork, message: error.description)
        }
        do {
            return (address, try LocalSendIdentity.load(folder: localSend.folder))
        } catch {
            throw ActivityError(code: ActivityError.Code.ioError, message: error.description)
        }
    }

    /// The devices that answer within `discovery-timeout`, in the order they answered.
    func discoverDevices() -> [LocalSendDevice] {
        (try? discoverDevicesOrFail()) ?? []
    }

    private func discoverDevicesOrFail() throws(ActivityError) -> [LocalSendDevice] {
        let (address, identity) = try localSendStart()
        let found = Mutex<[LocalSendDevice]>([])
        let discovery = LocalSendDiscovery(identity: identity, address: address, scan: localSend.scan) { device in
            found.withLock { $0.append(device) }
        }
        do {
            try discovery.start()
        } catch {
            throw ActivityError(code: ActivityError.Code.serveFailed, message: error.description)
        }
        // Listing is waiting that long: whoever answers in the time is listed.
        var time = timespec(tv_sec: Int(localSend.timeout), tv_nsec: Int((localSend.timeout - localSend.timeout.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
        discovery.stop()
        return found.withLock { $0 }
    }

    /// `--list-devices`: `NAME<TAB>ADDRESS<TAB>TYPE<TAB>MODEL` a line, or JSON.
    func listDevices(_ output: ModeOutput) -> Int32 {
        let devices: [LocalSendDevice]
        do {
            devices = try discoverDevicesOrFail()
        } catch {
            output.error("share: \(output.shown(error.message))\n")
            return ExitCode.failed
        }
        if output.json {
            output.output(JSONValue.array(devices.map(\.json)).serialized + "\n")
        } else {
            output.output(devices.map { device in
                [device.alias, device.address, device.type, device.model ?? ""].map(output.shown).joined(separator: "\t") + "\n"
            }.joined())
        }
        return ExitCode.completed
    }

    /// `--device`: finds the device (by name through discovery, or at its
    /// address by register) and sends the items to it, with `--pin`.
    func send(to query: String, session: ActivitySession, display: LiveDisplay) async {
        // The files' digests are taken while the device is looked for.
        let digests = LocalSendDigests.start(items: session.items)
        defer { digests.stop() }
        if let path = digests.unopened { return session.fail(ActivityError(code: ActivityError.Code.ioError, message: "cannot read \(path)")) }
        let stopper = Task { await display.cancellation(); digests.stop() }
        defer { stopper.cancel() }
        let address: NetworkAddress, identity: LocalSendIdentity
        do {
            (address, identity) = try localSendStart()
        } catch {
            return session.fail(error)
        }
        let title = Localization.text("Nearby: %@", query)
        display.show(LiveStatus(title: title, instruction: Localization.text("Looking for %@…", query)))
        let device: LocalSendDevice?
        var listenerPort = LocalSendDevice.defaultPort
        var running: LocalSendDiscovery?
        defer { running?.stop() }
        if let (host, port) = NearbyActivity.hostAndPort(query) {
            device = await onThread {
                for https in [true, false] {
                    if let device = LocalSendDiscovery.register(host: host, port: port, https: https, digest: nil, identity: identity,
                                                                listenerPort: LocalSendDevice.defaultPort, seconds: 5) { return device }
                }
                return nil
            }
        } else {
            let (stream, continuation) = AsyncStream<LocalSendDevice?>.makeStream()
            let discovery = LocalSendDiscovery(identity: identity, address: address, scan: localSend.scan) { continuation.yield($0) }
            do {
                try discovery.start()
            } catch {
                return session.fail(ActivityError(code: ActivityError.Code.serveFailed, message: error.description))
            }
            // Listening until the send is over: the device that registered is still being answered.
            running = discovery
            listenerPort = discovery.listenerPort
            let timer = Task { [timeout = localSend.timeout] in
                guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return }
                continuation.yield(nil)
            }
            let cancel = Task { await display.cancellation(); continuation.yield(nil) }
            defer { timer.cancel(); cancel.cancel() }
            var match: LocalSendDevice?
            for await found in stream {
                guard let found else { break }
                if found.matches(query) {
                    match = found
                    break
                }
            }
            device = match
        }
        if display.isCancelled { return session.finish(.cancelled) }
        guard let device else {
            return session.fail(ActivityError(code: ActivityError.Code.noDevice,
                                              message: "no LocalSend device '\(query)' answered within \(localSend.timeout == localSend.timeout.rounded() ? String(Int(localSend.timeout)) : String(localSend.timeout)) s (share --list-devices lists those that do)"))
        }
        await send(session.items, digests: digests, to: device, pin: pin, identity: identity, listenerPort: listenerPort, session: session,
                   display: display)
    }

    /// Sends `items` to `device` (their files' digests from `digests`),
    /// showing each file's progress, and reports the outcome on `session`.
    func send(_ items: [ShareItem], digests: LocalSendDigests, to device: LocalSendDevice, pin given: String?, identity: LocalSendIdentity,
              listenerPort: Int, session: ActivitySession, display: LiveDisplay) async {
        let transfer = LocalSendTransfer(device: device, identity: identity, listenerPort: listenerPort)
        display.show(LiveStatus(title: Localization.text("Nearby: %@", device.icon + " " + device.alias),
                                instruction: Localization.text("Sending with LocalSend; Esc stops."),
                                lines: [LiveStatus.Line(Localization.text("Reading the files to send…"))]))
        let made: Result<[LocalSendTransfer.Entry], LocalSendTransfer.Failure> = await onThread {
            do throws(LocalSendTransfer.Failure) {
                return .success(try LocalSendTransfer.entries(for: items, digests: digests))
            } catch {
                return .failure(error)
            }
        }
        let entries: [LocalSendTransfer.Entry]
        switch made {
        case .success(let all): entries = all
        case .failure where display.isCancelled: return session.finish(.cancelled)
        case .failure(let failure): return session.fail(ActivityError(code: failure.code, message: failure.description))
        }
        var pin = given
        while true {
            let progress = Mutex(LocalSendProgress(device: device, entries: entries))
            display.show(progress.withLock { $0.status })
            let result: Result<[LocalSendTransfer.Entry], LocalSendTransfer.Failure> = await onThread { [pin] in
                do throws(LocalSendTransfer.Failure) {
                    return .success(try transfer.send(entries, pin: pin, events: { event in
                        display.show(progress.withLock { state in
                            state.take(event)
                            return state.status
                        })
                    }, stop: { display.isCancelled }))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let sent):
                let items = session.items.enumerated().filter { index, _ in sent.contains { $0.id == "item-\(index + 1)" } }.map(\.element)
                session.finish(.sent, returnedItems: [.text(device.alias), .url(URL(string: device.url) ?? URL(fileURLWithPath: "/"))] + items,
                               recipients: [device.alias + " (" + device.address + ")"], summary: Localization.text("Sent to %@", device.alias))
            case .failure(let failure) where failure.code == ActivityError.Code.cancelled || display.isCancelled:
                session.finish(.cancelled)
            case .failure(let failure) where failure.needsPIN && hasTerminal:
                // On a screen the PIN is asked for there, as often as the device refuses it.
                var status = progress.withLock { $0.status }
                status.prompt = Localization.text("PIN shown on %@", device.alias)
                status.lines = [pin == nil ? LiveStatus.Line(Localization.text("%@ asks for the PIN it shows: type it and press Enter", device.alias))
                    : LiveStatus.Line(Localization.text("%@ did not take the PIN; type it again", device.alias), isError: true)]
                display.show(status)
                guard let answer = await NearbyActivity.answer(on: display) else { return session.finish(.cancelled) }
                pin = answer
                continue
            case .failure(let failure):
                session.fail(ActivityError(code: failure.code, message: failure.description))
            }
            return
        }
    }

    /// What the person types at the prompt, or `nil` when they stop instead.
    static func answer(on display: LiveDisplay) async -> String? {
        let (stream, continuation) = AsyncStream<String?>.makeStream()
        let typed = Task {
            for await input in display.input {
                if case .answer(let text) = input {
                    continuation.yield(text)
                    return
                }
            }
        }
        let stopped = Task {
            await display.cancellation()
            continuation.yield(nil)
        }
        defer { stopped.cancel() }
        for await answer in stream {
            if answer == nil { typed.cancel() }
            return answer
        }
        return nil
    }

    /// `HOST:PORT`, `[V6]:PORT` or an address literal alone (the protocol's port): where to find a device.
    nonisolated static func hostAndPort(_ query: String) -> (String, Int)? {
        if let literal = NetworkAddress.literal(query) { return (literal.address, LocalSendDevice.defaultPort) }
        var host = Substring(query), port = LocalSendDevice.defaultPort
        if query.hasPrefix("["), let close = query.firstIndex(of: "]") {
            host = query[query.index(after: query.startIndex)..<close]
            let rest = query[query.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (1...65_535).contains(number) else { return nil }
                port = number
            }
        } else if let colon = query.lastIndex(of: ":") {
            host = query[..<colon]
            guard let number = Int(query[query.index(after: colon)...]), (1...65_535).contains(number) else { return nil }
            port = number
        } else {
            return nil
        }
        guard let literal = NetworkAddress.literal(String(host)) else { return nil }
        return (literal.address, port)
    }
}

extension LocalSendDevice {
    /// The device for `--list-devices --json` and `--json`'s results.
    var json: JSONValue {
        .object([("alias", .string(alias)), ("address", .string(address)), ("type", .string(type)), ("model", .optional(model)),
                 ("protocol", .string(isHTTPS ? "https" : "http")), ("fingerprint", .string(fingerprint))])
    }
}

/// A send's screen: each file's name and how far it got.
struct LocalSendProgress: Sendable {
    let device: LocalSendDevice
    let entries: [LocalSendTransfer.Entry]
    var accepted: [String]?
    var sent: [String: Int64] = [:]
    var done: Set<String> = []

    init(device: LocalSendDevice, entries: [LocalSendTransfer.Entry]) {
        self.device = device
        self.entries = entries
    }

    mutating func take(_ event: LocalSendTransfer.Event) {
        switch event {
        case .accepted(let ids): accepted = ids
        case .progress(let id, let bytes, _): sent[id] = bytes
        case .done(let id): done.insert(id)
        }
    }

    var status: LiveStatus {
        let lines: [LiveStatus.Line]
        if let accepted {
            lines = entries.filter { accepted.contains($0.id) }.map { entry in
                if done.contains(entry.id) { return LiveStatus.Line(Localization.text("%@ sent", entry.name), progress: 1) }
                let bytes = sent[entry.id] ?? 0
                return LiveStatus.Line(entry.name + " · " + Localization.text("%@ of %@", ByteCount.words(bytes), ByteCount.words(entry.size)),
                                       progress: entry.size > 0 ? Double(bytes) / Double(entry.size) : 0)
            }
        } else {
            lines = [LiveStatus.Line(Localization.text("Waiting for %@ to accept…", device.alias))]
        }
        return LiveStatus(title: Localization.text("Nearby: %@", device.icon + " " + device.alias),
                          instruction: Localization.text("Sending with LocalSend; Esc stops."), lines: lines)
    }
}
