import Foundation
import Testing

/// A message is sent while its draft is still being written: what the
/// server receives is the draft without its Bcc, byte for byte, and the
/// draft (now the sent copy) is whole.
@Suite struct MailStreamingTests {
    @Test func aBigAttachmentGoesWhileItsDraftIsWritten() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        var bytes = [UInt8](repeating: 0, count: 6 << 20)
        var generator = SystemRandomNumberGenerator()
        for index in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { random in
                for offset in 0..<8 { bytes[index + offset] = random[offset] }
            }
        }
        let attachment = try world.file("big.bin", Data(bytes))
        let sent = try world.send(["--send", "--json", "--to", "park@example.com", "--bcc", "hidden@example.com", "--subject", "big",
                                   "--body", "attached", "--attach", attachment.path], to: server)
        #expect(try Completion.parse(sent.run).outcome == "sent")
        let part = try #require(sent.check.attachments.first)
        let digest = try Share.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [attachment.path], environment: [:], directory: world.root)
        #expect(part.sha256 == digest.out.split(separator: " ").first.map(String.init))
        #expect(!sent.check.hasBccHeader)
        // The sent copy is the draft as written: the transmitted message plus its Bcc line.
        let copy = try Data(contentsOf: try world.onlyMessage(in: world.sent, "cur", flagged: "S"))
        let text = String(decoding: copy.prefix(4096), as: UTF8.self)
        #expect(text.contains("Bcc: hidden@example.com\r\n"))
        let withoutBcc = text.replacingOccurrences(of: "Bcc: hidden@example.com\r\n", with: "")
        #expect(copy.count - "Bcc: hidden@example.com\r\n".utf8.count == sent.message.raw.count)
        #expect(sent.message.raw.prefix(1024) == Data(withoutBcc.utf8).prefix(1024))
        world.expectEmpty(world.drafts, world.outbox)
    }
}
