import Foundation
import ShareCore
import ShareSupport
import Synchronization
import Testing
@testable import ShareActivities

/// LocalSend's pure parts: what names a device, where an address points,
/// a fingerprint as the digest a certificate must have.
struct LocalSendUnitTests {
    static let device = LocalSendDevice(alias: "Kim's Pixel", model: "Samsung", type: "mobile",
                                        fingerprint: "AB:" + String(repeating: "0", count: 62), host: "192.168.1.20", port: 53317, isHTTPS: true)

    @Test func aDeviceIsNamedByItsAliasInAnyCaseOrItsAddress() {
        #expect(Self.device.matches("kim's pixel") && Self.device.matches(" KIM'S PIXEL "))
        #expect(Self.device.matches("192.168.1.20:53317") && Self.device.matches("192.168.1.20"))
        #expect(!Self.device.matches("Kim") && !Self.device.matches("192.168.1.2") && !Self.device.matches("192.168.1.20:8080"))
        #expect(Self.device.label == "Kim's Pixel (Samsung, mobile)" && Self.device.icon == "📱")
    }

    @Test func addressesWithAndWithoutPorts() {
        #expect(NearbyActivity.hostAndPort("192.168.1.20").map { "\($0.0) \($0.1)" } == "192.168.1.20 53317")
        #expect(NearbyActivity.hostAndPort("192.168.1.20:8080").map { "\($0.0) \($0.1)" } == "192.168.1.20 8080")
        #expect(NearbyActivity.hostAndPort("[fe80::1]:9000").map { "\($0.0) \($0.1)" } == "fe80::1 9000")
        #expect(NearbyActivity.hostAndPort("Kim's Pixel") == nil && NearbyActivity.hostAndPort("phone:80") == nil)
        #expect(NearbyActivity.hostAndPort("192.168.1.20:0") == nil && NearbyActivity.hostAndPort("192.168.1.20:70000") == nil)
    }

    @Test func aFingerprintIsTheDigestInHexadecimalAnyCaseWithOrWithoutColons() {
        #expect(Self.device.certificateDigest == [0xAB] + [UInt8](repeating: 0, count: 31))
        var random = Self.device
        random.fingerprint = "a random string of an http device"
        #expect(random.certificateDigest == nil)
    }

    @Test func aDeviceFromItsInfoNeedsANameAFingerprintAndSomeoneToAnswer() throws {
        let info = try #require(LocalSendInfo.decoded(Array(#"{"alias":"Lee","fingerprint":"x","port":1234,"protocol":"http","announce":true}"#.utf8)))
        let device = try #require(LocalSendDevice.from(info, host: "10.0.0.5"))
        #expect(device.address == "10.0.0.5:1234" && !device.isHTTPS && device.type == "desktop")
        #expect(LocalSendDevice.from(info, host: "0.0.0.0") == nil)
        let nameless = try #require(LocalSendInfo.decoded(Array(#"{"alias":"  ","fingerprint":"x"}"#.utf8)))
        #expect(LocalSendDevice.from(nameless, host: "10.0.0.5") == nil)
        #expect(LocalSendInfo.decoded(Array("not json".utf8)) == nil)
    }
}

/// share's LocalSend identity: one file, its key its certificate's.
struct LocalSendIdentityTests {
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("share-identity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theKeyAndTheCertificateAreKeptInOneFileReadableByItsOwnerAndReadBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try LocalSendIdentity.load(folder: folder, alias: "share@test")
        let text = try String(contentsOfFile: folder + "/identity.pem", encoding: .utf8)
        #expect(text.contains("-----BEGIN CERTIFICATE-----") && text.contains("PRIVATE KEY-----"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["identity.pem"])
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/identity.pem")[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let again = try LocalSendIdentity.load(folder: folder, alias: "share@test")
        #expect(again.fingerprint == made.fingerprint && again.key == made.key && made.fingerprint.count == 64)
        #expect(try String(contentsOfFile: folder + "/identity.pem", encoding: .utf8) == text, "read, not made again")
    }

    @Test func anEarlierPairOfFilesIsKeptWhenItsKeyIsItsCertificatesAndMadeAnewWhenNot() throws {
        let one = try Self.folder(), other = try Self.folder(), earlier = try Self.folder()
        defer { for folder in [one, other, earlier] { try? FileManager.default.removeItem(atPath: folder) } }
        let first = try LocalSendIdentity.load(folder: one, alias: "a"), second = try LocalSendIdentity.load(folder: other, alias: "b")
        #expect(first.fingerprint != second.fingerprint)
        // Two files as earlier versions wrote them, whose key is the certificate's: the same identity, in one file from now on.
        try first.certificate.write(toFile: earlier + "/certificate.pem", atomically: true, encoding: .utf8)
        try first.key.write(toFile: earlier + "/key.pem", atomically: true, encoding: .utf8)
        #expect(try LocalSendIdentity.load(folder: earlier, alias: "a").fingerprint == first.fingerprint)
        #expect(try FileManager.default.contentsOfDirectory(atPath: earlier) == ["identity.pem"])
        #expect(try LocalSendIdentity.load(folder: earlier, alias: "a").fingerprint == first.fingerprint)
        // A certificate beside another's key (two first runs at once, each replacing one file): never used.
        try FileManager.default.removeItem(atPath: earlier + "/identity.pem")
        try first.certificate.write(toFile: earlier + "/certificate.pem", atomically: true, encoding: .utf8)
        try second.key.write(toFile: earlier + "/key.pem", atomically: true, encoding: .utf8)
        let made = try LocalSendIdentity.load(folder: earlier, alias: "a")
        #expect(made.fingerprint != first.fingerprint && made.fingerprint != second.fingerprint)
        #expect(try LocalSendIdentity.load(folder: earlier, alias: "a").fingerprint == made.fingerprint)
        // The same in the one file (written by hand): made anew.
        try (second.key + first.certificate).write(toFile: earlier + "/identity.pem", atomically: true, encoding: .utf8)
        let remade = try LocalSendIdentity.load(folder: earlier, alias: "a")
        #expect(![first.fingerprint, second.fingerprint, made.fingerprint].contains(remade.fingerprint))
    }

    @Test func firstRunsAtOnceEachGetAKeyThatIsItsCertificatesAndLeaveOneIdentity() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let results = Mutex<[String]>([])
        let threads = (0..<8).compactMap { _ in
            BackgroundThread.startJoinable {
                // Each made identity is checked (its key against its certificate) as it is read.
                if let identity = try? LocalSendIdentity.load(folder: folder + "/localsend", alias: "a") {
                    results.withLock { $0.append(identity.fingerprint) }
                }
            }
        }
        #expect(threads.count == 8)
        for thread in threads { thread.join() }
        let fingerprints = results.withLock { $0 }
        #expect(fingerprints.count == 8)
        let kept = try String(contentsOfFile: folder + "/localsend/identity.pem", encoding: .utf8)
        let after = try LocalSendIdentity.load(folder: folder + "/localsend", alias: "a")
        #expect(fingerprints.contains(after.fingerprint), "the identity kept is one that a run used")
        #expect(try String(contentsOfFile: folder + "/localsend/identity.pem", encoding: .utf8) == kept, "and it is whole: read, not made again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/localsend") == ["identity.pem"], "no temporary file left")
    }
}

/// The files' digests, taken on a thread before a send waits for them.
struct LocalSendDigestsTests {
    @Test func eachFileHasItsDigestAndOneThatCannotBeOpenedIsSaidAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("share-digests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("abc.txt")
        try Data("abc".utf8).write(to: file)
        func item(_ url: URL) -> ShareItem { .file(FileItem(name: url.lastPathComponent, contentType: "text/plain", size: 3, storage: .path(url))) }
        let items: [ShareItem] = [.text("hello"), item(file)]
        let digests = LocalSendDigests.start(items: items)
        #expect(digests.unopened == nil)
        #expect(digests.outcome(ofItem: 1) == .digest("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(digests.outcome(ofItem: 0) == nil, "text is no file")
        let entries = try LocalSendTransfer.entries(for: items, digests: digests)
        #expect(entries.map(\.sha256) == [SHA256.hex(Array("hello".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
        let missing = folder.appendingPathComponent("gone.txt")
        let broken = LocalSendDigests.start(items: [item(file), item(missing)])
        #expect(broken.unopened == missing.path)
        #expect(throws: LocalSendTransfer.Failure.self) { try LocalSendTransfer.entries(for: [item(file), item(missing)], digests: broken) }
    }

    @Test func aStoppedPassGivesNoDigestAndNoEntries() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("share-digests-\(UUID().uuidString)")
        // Large enough that the pass is still reading when the stop comes: sparse, so it costs no disk.
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 8 << 30)
        try handle.close()
        defer { try? FileManager.default.removeItem(at: file) }
        let items: [ShareItem] = [.file(FileItem(name: "big", contentType: "application/octet-stream", size: 8 << 30, storage: .path(file)))]
        let digests = LocalSendDigests.start(items: items)
        digests.stop()
        #expect(digests.outcome(ofItem: 0) == .stopped)
        #expect(throws: LocalSendTransfer.Failure(code: "cancelled", description: "stopped before anything was sent")) {
            try LocalSendTransfer.entries(for: items, digests: digests)
        }
    }
}
