import FoundationEssentials
import ShareCore
import ShareSupport

/// What Link records to take an upload back, and `share --undo` doing it:
/// the upload deleted where the place allows (WebDAV DELETE and the
/// public share, a paste service's token, `rclone deletefile`), and said
/// where it does not (termbin, a paste that gave no token).
///
/// The history keeps no secret: the place is read again from the config
/// file the share used (`config`), so its `password-command` runs at undo
/// time as it did at upload time. A paste's deletion token is the one
/// thing kept, as 0x0 hands it to the uploader for exactly this.
extension LinkActivity {
    public nonisolated static var undoSteps: [UndoStep] {
        [UndoStep("deleteUpload") { action, environment in LinkUndo.delete(action, environment: environment) }]
    }
}

/// What one upload left behind that can be deleted, as the uploader learns it.
struct LinkLeftover: Sendable, Equatable {
    /// The values of the undo step beyond the place and the config
    /// (`url`, `share`, `token`, `target`, `key`); empty when nothing can be deleted.
    var values: [String: String] = [:]
    /// Why the upload cannot be deleted, when it cannot.
    var impossible: String?
}

enum LinkUndo {
    /// The undo step for an upload of `name` to `place`, read again from `config` at undo time.
    static func action(for leftover: LinkLeftover, name: String, link: URL, place: LinkPlace, config: String) -> UndoAction {
        if let impossible = leftover.impossible { return .impossible(reason: impossible) }
        return UndoAction("deleteUpload", leftover.values.merging(["place": place.name, "type": place.kind.rawValue, "config": config,
                                                                    "name": name, "link": link.absoluteString]) { old, _ in old })
    }

    /// Deletes the upload `action` names: what was done, or why it cannot be.
    static func delete(_ action: UndoAction, environment: [String: String]) -> Result<String, UndoRefusal> {
        guard let name = action["place"], let config = action["config"], let file = action["name"] else {
            return .failure(Undo.incomplete(action))
        }
        let place: LinkPlace
        switch self.place(name, in: config, environment: environment) {
        case .success(let found): place = found
        case .failure(let refusal):
            return .failure(UndoRefusal(refusal.description + "; delete \(file) there by hand" + (action["link"].map { " (\($0))" } ?? "")))
        }
        guard place.kind.rawValue == action["type"] else {
            return .failure(UndoRefusal("[link.\(name)] is not the \(action["type"] ?? "?") place it was; delete \(file) there by hand"))
        }
        let uploader = LinkUploader(place: place, environment: environment, display: LiveDisplay { _ in }, heading: "", showsNews: false)
        do throws(LinkFailure) {
            return .success(try uploader.delete(action, name: file))
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }

    /// The place `name` of the config file at `path`, as it is now.
    static func place(_ name: String, in path: String, environment: [String: String]) -> Result<LinkPlace, UndoRefusal> {
        guard case .success(let bytes) = LocalFiles.contents(ofFile: path), let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(UndoRefusal("the config file \(path) that named the place \(name) cannot be read"))
        }
        let file: IniFile
        do { file = try IniFile(parsing: text, path: path) } catch {
            return .failure(UndoRefusal(error.description))
        }
        guard let section = file.section("link.\(name)") else {
            return .failure(UndoRefusal("\(path) has no [link.\(name)] section any more"))
        }
        do {
            return .success(try LinkActivity.place(ConfigSection(file: path, name: section.name, entries: section.entries), environment: environment))
        } catch {
            return .failure(UndoRefusal(error.message))
        }
    }
}

extension LinkUploader {
    /// Deletes what `action` names on this place: what was done.
    func delete(_ action: UndoAction, name: String) throws(LinkFailure) -> String {
        switch place.kind {
        case .webdav:
            guard let url = action["url"] else { throw LinkFailure(code: ActivityError.Code.invalidInput, "the history names no WebDAV address") }
            let authorization = try basicAuthorization()
            var done = ""
            if let share = action["share"], let (server, _) = LinkUploader.shareAPI(for: place.url ?? "") {
                let response = try call("DELETE", server + "/ocs/v2.php/apps/files_sharing/api/v1/shares/" + PercentEncoding.encoded(share) + "?format=json",
                                        headers: authorization + [("OCS-APIRequest", "true"), ("Accept", "application/json")])
                // A share already gone is as good as deleted.
                if response.status != 404 { try check(response, doing: "deleting the public link to \(name)") }
                done = " and its public link"
            }
            let response = try call("DELETE", url, headers: authorization)
            if response.status == 404 { return "\(name) was gone from \(place.name) already" + (done.isEmpty ? "" : "; removed its public link") }
            try check(response, doing: "deleting \(name)")
            return "deleted \(name)\(done) from \(place.name)"
        case .paste:
            guard let url = action["url"], let token = action["token"] else {
                throw LinkFailure(code: ActivityError.Code.invalidInput, "the history keeps no deletion token for \(name)")
            }
            let response = try call("POST", url, body: .multipart([.text("token", token), .text("delete", "")]))
            if response.status == 404 { return "\(name) was gone from \(place.name) already" }
            try check(response, doing: "deleting \(name)")
            return "deleted \(name) from \(place.name)"
        case .rclone:
            guard let target = action["target"] else { throw LinkFailure(code: ActivityError.Code.invalidInput, "the history names no rclone path") }
            let outcome = try rcloneRun(["deletefile", "--", target], doing: "rclone deletefile")
            guard outcome.status == 0 else {
                throw LinkFailure(code: ActivityError.Code.uploadFailed, "rclone deletefile \(target) failed (exit \(outcome.status))" + LinkUploader.said(outcome))
            }
            return "deleted \(target)"
        case .s3:
            guard let key = action["key"] else { throw LinkFailure(code: ActivityError.Code.invalidInput, "the history names no S3 key") }
            try LinkUploader.deleteS3Object(key, on: place, environment: environment)
            return "deleted \(key) from \(place.name)"
        case .termbin:
            throw LinkFailure(code: ActivityError.Code.invalidInput, "termbin keeps what it is sent; \(name) cannot be deleted")
        }
    }
}
