import FoundationEssentials
import ShareCore
import ShareSupport

/// `share --undo` of a message posted to Discord or Telegram: the message
/// deleted through the same webhook or bot, whose secret is read again
/// from the config file then (the history keeps none).
extension MessageActivity {
    public nonisolated static var undoSteps: [UndoStep] {
        [UndoStep("deleteChatMessage") { action, environment in ChatUndo.delete(action, environment: environment) },
         UndoStep("redactMatrixEvent") { action, environment in MatrixUndo.redact(action, environment: environment) }]
    }

    public nonisolated static var errorCodes: [String] { [ActivityError.Code.encryptedRoom] }
}

extension ActivityError.Code {
    /// Message: a Matrix room with end-to-end encryption, which share does not post in.
    public static let encryptedRoom = "encrypted-room"
}

/// `share --undo` of a Matrix message: the event redacted, the account's
/// token found again from the config file (or the token kept after a login).
enum MatrixUndo {
    static func action(for account: MatrixAccount, room: String, event: String) -> UndoAction {
        UndoAction("redactMatrixEvent", ["section": "message.\(account.name)", "config": account.configFile, "room": room, "event": event])
    }

    static func redact(_ action: UndoAction, environment: [String: String]) -> Result<String, UndoRefusal> {
        guard let section = action["section"], let config = action["config"], let room = action["room"], let event = action["event"] else {
            return .failure(Undo.incomplete(action))
        }
        guard case .success(let bytes) = LocalFiles.contents(ofFile: config), let text = String(validating: bytes, as: UTF8.self),
              let file = try? IniFile(parsing: text, path: config), let found = file.section(section) else {
            return .failure(UndoRefusal("\(config) has no [\(section)] section any more; redact event \(event) in a Matrix client"))
        }
        do {
            let account = try MatrixAccount.parse(ConfigSection(file: config, name: found.name, entries: found.entries),
                                                  name: String(section.dropFirst("message.".count)), environment: environment)
            let locations = Locations(environment: environment)
            var session = try MatrixSession(account: account, tokenFolder: locations.stateHome + "/matrix",
                                            commandTimeout: MessageActivity.defaultCommandTimeout, environment: environment)
            let path = "/_matrix/client/v3/rooms/\(MatrixSession.segment(room))/redact/\(MatrixSession.segment(event))/\(MatrixDelivery.transactionID())"
            let response = try session.call("PUT", path, body: .json(.object([("reason", .string("taken back with share --undo"))])))
            guard response.isSuccess else {
                return .failure(UndoRefusal("\(account.homeserver) did not redact \(event)" + MatrixSession.said(response)))
            }
            return .success("redacted \(event) in \(room)")
        } catch let error as MatrixFailure {
            return .failure(UndoRefusal(error.message))
        } catch let error as ConfigurationError {
            return .failure(UndoRefusal(error.message))
        } catch {
            return .failure(UndoRefusal(ErrorText.sentence(error)))
        }
    }
}

enum ChatUndo {
    /// How long a Telegram bot may delete its own message.
    static let telegramWindow: TimeInterval = 48 * 3600

    /// The undo step for message `id` posted through `hook` at `sent`, where the service deletes.
    static func action(for hook: Webhook, id: String, sent: Date) -> UndoAction? {
        guard hook.kind == .telegram || hook.kind == .discord else { return nil }
        var values = ["section": "message.\(hook.name)", "config": hook.configFile, "type": hook.kind.rawValue, "id": id,
                      "sent": String(Int(sent.timeIntervalSince1970))]
        if let chat = hook.chat { values["chat"] = chat }
        return UndoAction("deleteChatMessage", values)
    }

    /// Deletes the message `action` names: what was done, or why not.
    static func delete(_ action: UndoAction, environment: [String: String], now: Date = Date()) -> Result<String, UndoRefusal> {
        guard let section = action["section"], let config = action["config"], let id = action["id"], let type = action["type"] else {
            return .failure(Undo.incomplete(action))
        }
        if type == Webhook.Kind.telegram.rawValue, let sent = action["sent"].flatMap(Double.init),
           now.timeIntervalSince1970 - sent > telegramWindow {
            return .failure(UndoRefusal("Telegram lets a bot delete its messages for 48 hours; message \(id) is older: delete it in Telegram"))
        }
        let hook: Webhook
        switch self.hook(section, in: config, environment: environment) {
        case .success(let found): hook = found
        case .failure(let refusal): return .failure(refusal)
        }
        guard hook.kind.rawValue == type else {
            return .failure(UndoRefusal("[\(section)] is not the \(type) it was; delete message \(id) there by hand"))
        }
        do throws(XMPPFailure) {
            let address = try hook.address(commandTimeout: MessageActivity.defaultCommandTimeout)
            let client = HTTPClient(protocols: "http,https", caFile: hook.caFile)
            let response: HTTPClient.Response
            switch hook.kind {
            case .telegram:
                let body = JSONValue.object([("chat_id", .string(action["chat"] ?? hook.chat ?? "")), ("message_id", .number(Int(id) ?? 0))])
                do { response = try client.perform("POST", address + "/deleteMessage", headers: [("Content-Type", "application/json")], body: .json(body)) } catch {
                    throw XMPPFailure(message: error.reason)
                }
            default:
                do { response = try client.perform("DELETE", address + "/messages/" + PercentEncoding.encoded(id)) } catch {
                    throw XMPPFailure(message: error.reason)
                }
                if response.status == 404 { return .success("message \(id) was gone from \(hook.name) already") }
            }
            guard response.isSuccess else {
                _ = try hook.chatAnswer(response)
                return .failure(UndoRefusal("\(hook.name) answered HTTP \(response.status)"))
            }
            return .success("deleted message \(id) from \(hook.name)")
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }

    /// The webhook `[section]` of the config file at `path`, as it is now.
    static func hook(_ section: String, in path: String, environment: [String: String]) -> Result<Webhook, UndoRefusal> {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path), let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(UndoRefusal("the config file \(path) that named [\(section)] cannot be read"))
        }
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch {
            return .failure(UndoRefusal(error.description))
        }
        guard let found = file.section(section) else { return .failure(UndoRefusal("\(path) has no [\(section)] section any more")) }
        do {
            guard let hook = try Webhook.all([ConfigSection(file: path, name: found.name, entries: found.entries)], environment: environment).first else {
                return .failure(UndoRefusal("\(path) has no [\(section)] section any more"))
            }
            return .success(hook)
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }
}
