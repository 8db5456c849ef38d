import Foundation
import ShareSupport
import Testing

struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func agreesWithSha256sumOnEveryLengthAroundABlock() throws {
        // Lengths around the 55/56/64-byte padding boundaries, and a long one.
        var generator = SystemRandomNumberGenerator()
        for count in [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 100_003, (3 << 20) + 7] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(SHA256.hex(bytes) == String(output.prefix(64)), "\(count) bytes")
            #expect(SHA256.hex(ofFile: file.path) == String(output.prefix(64)), "a file of \(count) bytes")
        }
        #expect(SHA256.hex(ofFile: "/nonexistent/sha-file") == nil)
    }

    @Test func aDescriptorIsReadFromWhereItStandsAndAStopGivesNoDigest() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try Data("xyzabc".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let descriptor = open(file.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(lseek(descriptor, 3, SEEK_SET) == 3)
        #expect(SHA256.hex(ofDescriptor: descriptor) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "the digest of abc")
        #expect(lseek(descriptor, 0, SEEK_SET) == 0)
        #expect(SHA256.hex(ofDescriptor: descriptor, stop: { true }) == nil)
    }

    @Test func aDigestAddedInPiecesAndItsCopiesAreEachTheirOwn() {
        var digest = SHA256()
        digest.add(Array("abc".utf8))
        // A copy shares libcrypto's context until one of them adds more.
        var copy = digest
        digest.add(Array("dbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        copy.add((0..<3).lazy.map { UInt8(ascii: "x") + UInt8($0) })
        #expect(digest.finish() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(copy.finish() == SHA256.hex(Array("abcxyz".utf8)))
        // After finish, what is added starts a new digest.
        digest.add(Array("abc".utf8))
        #expect(digest.finish() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
