// The fuzz targets: each takes any bytes, feeds them to one reader of
// untrusted input, and checks a property that must hold for every input.
// A failed check stops the program, so the fuzzer keeps the input.
// Built in debug builds only: the targets reach internal parsers.
#if DEBUG || SHARE_FUZZER
#if canImport(Glibc)
import Glibc
#endif
import CThumbnail
import FoundationEssentials
@testable import ShareActivities
@testable import ShareCLI
@testable import ShareCore
@testable import ShareMail
import ShareSupport
import ShareTerminal

/// Stops the program with `message` when `condition` is false.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

enum FuzzTargets {
    /// Every target by name (the seed corpus of each is `Fuzz/corpus/NAME`).
    static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("address", address),
        ("mailto", mailto),
        ("ini", ini),
        ("vcard", vcard),
        ("keys", keys),
        ("mime", mime),
        ("draft", draft),
        ("thumbnail", thumbnail),
        ("photo", photo),
        ("metadata", metadata),
    ]

    static func named(_ name: String) -> (@Sendable ([UInt8]) -> Void)? { all.first { $0.name == name }?.run }

    // MARK: - Address lists

    /// An address list that parses is written into a `To:` header and read
    /// back as the same entries.
    static func address(_ bytes: [UInt8]) {
        guard let entries = try? AddressList.parse(String(decoding: bytes, as: UTF8.self)), !entries.isEmpty,
              let message = try? MailMessage(from: nil, to: entries, messageID: "fuzz@share.localhost") else { return }
        let mail = WrittenMail(message)
        let to = mail.header("To")
        require(to != nil, "no To: header in\n\(mail.text)")
        let reparsed: [AddressListEntry]
        do { reparsed = try AddressList.parse(to ?? "") } catch {
            fatalError("the To: header written does not parse (\(error)):\n\(mail.text)")
        }
        require(spelled(reparsed) == spelled(entries), "To: read back as \(reparsed), written from \(entries):\n\(mail.text)")
    }

    /// Entries as a reader tells them apart: display names and addresses
    /// with the domain in ASCII (`xn--…` and its Unicode form are one domain).
    static func spelled(_ entries: [AddressListEntry]) -> [String] {
        func mailbox(_ address: MailAddress) -> String { "\(address.displayName ?? "") <\(address.addrSpec)>" }
        return entries.map { entry in
            switch entry {
            case .mailbox(let address): mailbox(address)
            case .group(let name, let members): name + ": " + members.map(mailbox).joined(separator: ", ") + ";"
            }
        }
    }

    // MARK: - mailto: URLs

    /// A `mailto:` URL that parses gives the same fields when its fields
    /// are percent-encoded into a URL again.
    static func mailto(_ bytes: [UInt8]) {
        guard let url = try? MailtoURL(parsing: "mailto:" + String(decoding: bytes, as: UTF8.self)) else { return }
        func encoded(_ text: String) -> String { PercentEncoding.encoded(text) }
        var query: [String] = []
        if !url.cc.isEmpty { query.append("cc=" + encoded(url.cc.joined(separator: ","))) }
        if !url.bcc.isEmpty { query.append("bcc=" + encoded(url.bcc.joined(separator: ","))) }
        if let subject = url.subject { query.append("subject=" + encoded(subject)) }
        if let body = url.body { query.append("body=" + encoded(body)) }
        let again = "mailto:" + encoded(url.to.joined(separator: ",")) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let reparsed: MailtoURL
        do { reparsed = try MailtoURL(parsing: again) } catch { fatalError("\(again) does not parse: \(error)") }
        require(reparsed == url, "\(again) read as \(reparsed), made from \(url)")
    }

    // MARK: - INI files: the config and plugin manifests

    /// The INI reader, the configuration and the plugin manifest never
    /// crash; what they accept keeps their limits.
    static func ini(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let file = try? IniFile(parsing: text, path: "fuzz.ini") {
            for section in file.sections {
                require(Set(section.entries.map(\.key)).count == section.entries.count, "a key twice in [\(section.name)]")
                for entry in section.entries {
                    require(!entry.key.contains("\n") && !entry.value.contains("\n"), "a line break inside \(entry)")
                }
            }
        }
        _ = try? Configuration(parsing: text, path: "config", environment: ["HOME": "/home/fuzz"])
        if let manifest = try? PluginManifest(text: text, path: "fuzz.share-activity", language: "ko",
                                              findExecutable: { "/usr/bin/" + $0 }) {
            require(manifest.name.count <= PluginManifest.longestName, "a Name of \(manifest.name.count) characters accepted")
        }
    }

    // MARK: - vCards

    /// Setting a card's photo changes that card only: every byte before
    /// and after it stays, the file has as many cards, and the card has
    /// exactly one photo, the one set.
    static func vcard(_ bytes: [UInt8]) {
        let file = VCardFile(bytes: bytes)
        let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let encoded = Data(image).base64EncodedString()
        for index in file.cards.indices.prefix(3) {
            guard let output = try? file.settingPhoto(ofCard: index, to: image, type: .png) else { continue }
            let card = file.cards[index]
            let tail = bytes.count - card.range.upperBound
            require(output.starts(with: bytes[..<card.range.lowerBound]), "bytes before card \(index) changed")
            require(output.count >= tail && output[(output.count - tail)...].elementsEqual(bytes[card.range.upperBound...]),
                    "bytes after card \(index) changed")
            let changed = VCardFile(bytes: output)
            require(changed.cards.count == file.cards.count,
                    "\(file.cards.count) cards became \(changed.cards.count):\n\(String(decoding: output, as: UTF8.self))")
            let photos = changed.cards[index].properties.filter { $0.name == "PHOTO" }
            require(photos.count == 1, "card \(index) has \(photos.count) photos:\n\(String(decoding: output, as: UTF8.self))")
            require(photos.first.map { $0.value.hasSuffix(encoded) } ?? false, "the photo set is not the one read back")
        }
    }

    // MARK: - Images: the picker's thumbnail and a contact's photo

    /// The longer side the picker's thumbnail decodes a JPEG at, at least
    /// (a thumbnail of 40 columns by 20 rows).
    static let thumbnailSide: Int32 = 160

    /// The largest image (by its header's width × height) the image
    /// targets decode: a JPEG's data is read in full at any scale, and one
    /// input claiming 120 million pixels took a second under
    /// AddressSanitizer. 4 million still reaches every scale (1/8 of a
    /// side of 4,096 and more) and orientation.
    static let largestImage = 4_000_000

    /// Where a target puts what it read, so that the reads are not optimised away.
    nonisolated(unsafe) static var sink: UInt8 = 0

    /// The decoder the picker's thumbnail draws from (libpng, libjpeg-turbo,
    /// the EXIF orientation): what decodes has the size its header gives
    /// (a JPEG's scaled by 1/2, 1/4 or 1/8 while the longer side stays at
    /// least `thumbnailSide`, and turned for orientations 5 to 8), within
    /// 40 million pixels, and every one of its bytes can be read.
    static func thumbnail(_ bytes: [UInt8]) {
        share_image_limit(largestImage)
        var reason = [CChar](repeating: 0, count: 256)
        var format: Int32 = 0, headerWidth: Int32 = 0, headerHeight: Int32 = 0, orientation: Int32 = 0
        let info = share_image_info(bytes, bytes.count, &format, &headerWidth, &headerHeight, &orientation, &reason, reason.count)
        require((1...8).contains(orientation), "EXIF orientation \(orientation)")
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = share_image_decode(bytes, bytes.count, thumbnailSide, &pixels, &width, &height, &reason, reason.count)
        defer { free(pixels) }
        guard status == SHARE_IMAGE_OK, let pixels else {
            require(pixels == nil, "a failed decode (\(status)) gave pixels")
            return
        }
        require(info == SHARE_IMAGE_OK, "decoded, but its header does not read (\(info))")
        var expected = (Int(headerWidth), Int(headerHeight))
        if format == 2 {
            var denominator = 1
            while denominator < 8 && max(expected.0, expected.1) / (denominator * 2) >= Int(thumbnailSide) { denominator *= 2 }
            expected = ((expected.0 + denominator - 1) / denominator, (expected.1 + denominator - 1) / denominator)
            if orientation >= 5 { expected = (expected.1, expected.0) }
        }
        require(expected == (Int(width), Int(height)),
                "decoded \(width)×\(height); the header says \(headerWidth)×\(headerHeight), orientation \(orientation)")
        require(width >= 1 && height >= 1 && Int(width) * Int(height) <= 40_000_000, "decoded \(width)×\(height)")
        sink = pixels[0] &+ pixels[Int(width) * Int(height) * 4 - 1]
    }

    /// A contact's photo (Assign to Contact): what is accepted is a PNG or
    /// a JPEG as its first bytes say, within 512×512, and the photo written
    /// decodes again, to the same size, and is then kept as it is.
    static func photo(_ bytes: [UInt8]) {
        share_image_limit(largestImage)
        guard let photo = try? AssignToContactActivity.fittedImage(bytes, name: "fuzz") else { return }
        let side = AssignToContactActivity.largestSide
        require((1...side).contains(photo.width) && (1...side).contains(photo.height), "a photo of \(photo.width)×\(photo.height)")
        require(photo.type == (bytes.first == 0x89 ? .png : .jpeg), "a \(photo.type) photo from \(bytes.prefix(4))")
        let again: (bytes: [UInt8], type: VCardImageType, width: Int, height: Int)
        do { again = try AssignToContactActivity.fittedImage(photo.bytes, name: "photo") } catch {
            fatalError("the photo written does not decode again: \(error)")
        }
        require(again.bytes == photo.bytes && again.type == photo.type && (again.width, again.height) == (photo.width, photo.height),
                "the photo written (\(photo.width)×\(photo.height)) reads again as \(again.width)×\(again.height), changed")
    }

    // MARK: - Pictures' metadata

    /// The options before sharing (`--no-location`, `--no-metadata`,
    /// `--resize`): what rewrites is a JPEG or PNG that reads again, no
    /// larger than before, with the same image data (a JPEG's scan from
    /// SOS, a PNG's IDAT chunks), and nothing left to remove a second time;
    /// reading its size, orientation and quality, carrying its metadata
    /// into itself and the whole change with a resize never fail hard.
    static func metadata(_ bytes: [UInt8]) {
        share_image_limit(largestImage)
        for removal in [MetadataRemoval.location, .all] {
            guard let cleaned = try? PictureMetadata.removing(removal, from: bytes) else { continue }
            require(cleaned.bytes.count <= bytes.count, "\(removal) made \(bytes.count) bytes into \(cleaned.bytes.count)")
            require((1...8).contains(cleaned.orientation), "orientation \(cleaned.orientation)")
            require(cleaned.changed || cleaned.bytes == bytes, "\(removal) changed bytes and says it removed nothing")
            let again: CleanedPicture
            do { again = try PictureMetadata.removing(removal, from: cleaned.bytes) } catch {
                fatalError("\(removal) wrote a picture that does not read again: \(error)")
            }
            require(!again.changed, "\(removal) left \(again.removed) to remove a second time")
            switch cleaned.format {
            case .jpeg:
                guard let before = try? JPEGSegments(bytes), let after = try? JPEGSegments(cleaned.bytes) else {
                    fatalError("a JPEG rewritten by \(removal) does not read")
                }
                require(after.bytes[after.scan] == before.bytes[before.scan], "\(removal) changed the scan")
            case .png:
                guard let before = try? PNGChunks(bytes), let after = try? PNGChunks(cleaned.bytes) else {
                    fatalError("a PNG rewritten by \(removal) does not read")
                }
                func imageData(_ png: PNGChunks) -> [[UInt8]] { png.chunks.filter { $0.type == "IDAT" }.map { Array(png.bytes[$0.range]) } }
                require(imageData(after) == imageData(before), "\(removal) changed the image data")
            }
            _ = try? PictureMetadata.carrying(from: bytes, removing: removal, into: cleaned.bytes, width: 1, height: 1)
        }
        _ = PictureMetadata.orientation(of: bytes)
        _ = PictureMetadata.dimensions(of: bytes)
        _ = PictureMetadata.jpegQuality(of: bytes)
        if let change = try? PictureWork.change(bytes, removal: .all, longestSide: 32), let pieces = change.pieces {
            require(PictureFormat(sniffing: pieces.flatMap { $0 }) == PictureFormat(sniffing: bytes), "the change made another format")
        }
    }

    // MARK: - Keys

    /// Typed characters and escape sequences, mixed: every character typed
    /// comes out as that character, and no byte of a sequence ever does.
    ///
    /// The input is a script: a printable ASCII byte is typed; 0x01–0x1F
    /// types a character of several UTF-8 bytes;
    /// 0x80–0xBF starts a CSI sequence of (byte & 0x3F) parameter bytes and
    /// a final byte, taken from the bytes after it; 0xC0–0xDF an SS3
    /// sequence; 0xE0–0xEF Alt with the next byte; above, a control key.
    static func keys(_ bytes: [UInt8]) {
        var stream: [UInt8] = []
        var expected: [InputEvent] = []
        var index = 0
        func take() -> UInt8 {
            defer { index += 1 }
            return index < bytes.count ? bytes[index] : 0
        }
        while index < bytes.count {
            let byte = take()
            switch byte {
            case 0x20...0x7E:
                stream.append(byte)
                expected.append(.character(Character(Unicode.Scalar(byte))))
            case 0x80...0xBF:
                stream += [27, UInt8(ascii: "[")]
                for _ in 0..<(byte & 0x3F) { stream.append(0x20 + take() % 0x20) }
                let final = 0x40 + take() % 0x3F
                // With no parameters, M starts an X10 mouse report and [ a Linux console
                // F-key: the bytes after them are theirs.
                stream.append(byte & 0x3F == 0 && (final == UInt8(ascii: "M") || final == UInt8(ascii: "[")) ? UInt8(ascii: "~") : final)
            case 0xC0...0xDF:
                let key = 0x40 + take() % 0x3F
                stream += [27, UInt8(ascii: "O"), key]
                // Only the keypad's digits and signs (application keypad mode) type something.
                if (UInt8(ascii: "j")...UInt8(ascii: "y")).contains(key) { expected.append(.character(Character(Unicode.Scalar(key - 0x40)))) }
            case 0xE0...0xEF:
                let key = 0x20 + take() % 0x5F
                guard key != UInt8(ascii: "[") && key != UInt8(ascii: "O") else { continue }
                stream += [27, key]
                expected.append(.alt(Character(Unicode.Scalar(key))))
            case 0xF0...0xFF:
                let control = 1 + take() % 26
                if control != 27 { stream.append(control) }
            case 0x01...0x1F:
                // A character of two, three or four UTF-8 bytes: é, a Hangul syllable, an emoji.
                let value: UInt32 = switch byte % 3 {
                case 0: 0xE9
                case 1: 0xAC00 + UInt32(take()) * 40
                default: 0x1F600 + UInt32(take() % 64)
                }
                let character = Character(Unicode.Scalar(value)!)
                stream += Array(String(character).utf8)
                expected.append(.character(character))
            default:
                continue
            }
        }
        let typed = KeyDecoder.events(in: stream).filter { event in
            switch event {
            case .character, .alt: true
            default: false
            }
        }
        require(typed == expected, "typed \(expected), decoded \(typed) from \(stream)")
    }

    // MARK: - MIME

    /// The sender of every message, and the recipient when the fuzzed To:
    /// field gives none (parsed once: they are not what is being fuzzed).
    static let mimeSender = try! MailAddress(parsing: "Lee <lee@example.org>")
    static let mimeRecipient = AddressListEntry.mailbox(try! MailAddress(parsing: "Kim <kim@example.com>"))

    /// A message built from fuzzed fields is well-formed on the wire (CRLF
    /// only, lines within 998 octets, headers in ASCII) and reads back as
    /// the same subject, recipients, text and attachment.
    ///
    /// Fields are separated by NUL: subject, To, body, attachment name,
    /// attachment bytes, flags (bit 0 HTML body; bits 1–2 the attachment's
    /// type: octet-stream, text/plain, message/rfc822).
    static func mime(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: 0, maxSplits: 5, omittingEmptySubsequences: false).map(Array.init)
        func field(_ index: Int) -> [UInt8] { index < fields.count ? fields[index] : [] }
        let subject = String(decoding: field(0), as: UTF8.self)
        let to = (try? AddressList.parse(String(decoding: field(1), as: UTF8.self))).flatMap { $0.isEmpty ? nil : $0 } ?? [mimeRecipient]
        let flags = field(5).first ?? 0
        let text = String(decoding: field(2), as: UTF8.self)
        var attachments: [MailAttachment] = []
        if fields.count > 4 {
            let type = ["application/octet-stream", "text/plain", "message/rfc822", "application/pdf"][Int(flags >> 1) & 3]
            guard let attachment = try? MailAttachment(fileName: String(decoding: field(3), as: UTF8.self), contentType: type,
                                                       source: .data(Data(field(4)))) else { return }
            attachments.append(attachment)
        }
        guard let message = try? MailMessage(from: mimeSender, to: to,
                                             subject: subject, body: flags & 1 == 1 ? .html(text) : .plain(text),
                                             attachments: attachments, messageID: "fuzz@share.localhost") else { return }
        let mail = WrittenMail(message)
        require(mail.header("Subject").map(HeaderText.decoded) == subject,
                "Subject: read back as \(mail.header("Subject").map(HeaderText.decoded) ?? "nothing"), written from \(subject)")
        require((try? AddressList.parse(mail.header("To") ?? "")).map(spelled) == spelled(to),
                "To: does not read back as \(to):\n\(mail.text)")

        var textPart = MIMEPart(headers: mail.headers, body: mail.body)
        if let attachment = attachments.first {
            let parts = textPart.children()
            require(parts.count == 2, "\(parts.count) parts in multipart/mixed:\n\(mail.text)")
            guard parts.count == 2 else { return }
            textPart = parts[0]
            let part = parts[1]
            require(part.parameter("Content-Disposition", "filename") == attachment.fileName,
                    "filename read back as \(part.parameter("Content-Disposition", "filename") ?? "nothing"), not \(attachment.fileName)")
            require(part.parameter("Content-Type", "name") == attachment.fileName, "name read back differently")
            let sent = part.decodedBody
            switch part.contentType {
            case "message/rfc822": require(sent == crlfBytes(field(4)), "the message/rfc822 attachment changed")
            default: require(sent == field(4), "the attachment's bytes changed: \(sent) from \(field(4))")
            }
        }
        if flags & 1 == 1 {
            let alternatives = textPart.children()
            require(alternatives.count == 2, "\(alternatives.count) parts in multipart/alternative")
            guard alternatives.count == 2 else { return }
            textPart = alternatives[1]
        }
        let normalized = Array(MIMEWriter.crlf(text).utf8)
        let decoded = textPart.decodedBody
        require(decoded == normalized || decoded == normalized + [13, 10],
                "the text read back is \(String(decoding: decoded, as: UTF8.self).debugDescription), written from \(text.debugDescription)")
    }

    /// Any file in the drafts folder reads as a draft or is refused, and a
    /// draft read holds text as the compose screen takes it: a body with LF
    /// line ends, header fields of one line, attachments with names.
    static func draft(_ bytes: [UInt8]) {
        guard let draft = try? Draft(bytes: bytes, path: "fuzz") else { return }
        require(!draft.body.contains("\r\n"), "a CRLF in the draft's body: \(draft.body.debugDescription)")
        for (name, value) in [("subject", draft.subject), ("to", draft.to), ("cc", draft.cc), ("from", draft.from)] {
            require(!value.contains("\n") && !value.contains("\r\n"), "a line end in the draft's \(name): \(value.debugDescription)")
        }
        for attachment in draft.attachments {
            require(!attachment.name.isEmpty, "an attachment without a name")
        }
    }

    /// Bytes with every lone LF made CRLF and a CRLF at the end.
    static func crlfBytes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if byte == 10 && (index == 0 || bytes[index - 1] != 13) { out.append(13) }
            out.append(byte)
        }
        if let last = out.last, last != 10 { out += [13, 10] }
        return out
    }
}

/// A message as the MIME writer writes it, checked for what every message
/// on the wire must be.
struct WrittenMail {
    let bytes: [UInt8]
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    var text: String { String(decoding: bytes, as: UTF8.self) }

    init(_ message: MailMessage) {
        let sink = DataSink()
        do { try MIMEWriter().write(message, to: sink, includeBcc: false) } catch {
            fatalError("the MIME writer failed on a message in memory: \(error)")
        }
        bytes = Array(sink.data)
        let internationalized = AddressList.mailboxes(message.to + message.cc + [message.from].compactMap { $0 }.map { .mailbox($0) })
            .contains { !$0.addrSpec.utf8.allSatisfy { $0 < 0x80 } }
        let (head, rest) = MIMEPart.split(bytes)
        var lineLength = 0
        for (index, byte) in bytes.enumerated() {
            if byte == 13 { require(index + 1 < bytes.count && bytes[index + 1] == 10, "a CR without LF at \(index)") }
            if byte == 10 {
                require(index > 0 && bytes[index - 1] == 13, "an LF without CR at \(index)")
                lineLength = 0
            } else if byte != 13 {
                lineLength += 1
                require(lineLength <= 998, "a line over 998 octets at \(index)")
            }
            if index < head.count && byte >= 0x80 {
                require(internationalized, "a byte over 0x7F in the header section at \(index):\n\(String(decoding: head, as: UTF8.self))")
            }
        }
        headers = MessageFile.parseHeaders(head)
        body = rest
    }

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

#endif
