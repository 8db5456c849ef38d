import Foundation
import Testing
@testable import ShareActivities
@testable import ShareCLI

/// Address completion sources (SPEC §8 [contacts]) and the attach prompt's paths.
struct AddressBookTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("default"), withIntermediateDirectories: true)
        return url
    }

    @Test func vCardsAliasesAndQueryCommandAllComplete() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try """
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:박지성\r
        NICKNAME:jisung\r
        EMAIL;TYPE=work:park@example.com\r
        EMAIL:jisung@home.example\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        FN:Lee\\, J\r
        EMAIL:lee@exam\r
         ple.com\r
        END:VCARD\r

        """.write(to: root.appendingPathComponent("default/a.vcf"), atomically: true, encoding: .utf8)
        let aliases = root.appendingPathComponent("aliases")
        try "# mutt aliases\nalias boss \"Kim, Minsu\" <boss@example.com>\nalias ops ops@example.com\n"
            .write(to: aliases, atomically: true, encoding: .utf8)
        // A query command that echoes its argument back, proving it arrives as one argv word.
        let script = root.appendingPathComponent("query.sh")
        try "#!/bin/sh\necho 'searching...'\nprintf 'q@example.com\\tQuery %s\\tlist\\n' \"$1\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)

        let book = AddressBook(vcardDirectory: root.path, aliasFile: aliases.path, queryCommand: nil)
        #expect(book.complete("park") == ["박지성 <park@example.com>"])
        #expect(book.complete("지성") == ["박지성 <park@example.com>", "박지성 <jisung@home.example>"])
        #expect(book.complete("jis").contains("박지성 <park@example.com>"))  // nickname
        #expect(book.complete("lee") == [#""Lee, J" <lee@example.com>"#])
        #expect(book.complete("boss") == [#""Kim, Minsu" <boss@example.com>"#])
        #expect(book.complete("ops") == ["ops@example.com"])
        #expect(book.complete("").isEmpty)
        #expect(book.complete("nobody").isEmpty)

        let query = AddressBook(vcardDirectory: nil, aliasFile: nil, queryCommand: script.path + " %s")
        #expect(query.complete("kim") == ["Query kim <q@example.com>"])
        // Hostile text reaches the command as one argument, byte for byte.
        #expect(query.complete("a b;$(x)") == [#""Query a b;$(x)" <q@example.com>"#])
    }

    /// The lookup over the read entries: substrings of the name or the
    /// address whatever their case, a nickname's start only, never a match
    /// across name and address, one suggestion per address, in order.
    @Test func lookupsMatchNamesAddressesAndNicknameStarts() {
        let entries: [AddressBook.Entry] = [
            .init(name: "Émile Dubois", email: "emile@example.fr", nickname: "mimi"),
            .init(name: "김민수", email: "minsu@example.kr"),
            .init(name: "Ann", email: "ann@example.com"),
            .init(name: "Ann Again", email: "ANN@example.com"),
            .init(name: "Bob", email: "b@example.org", nickname: "xmim"),
        ]
        let index = AddressBook.Indexed(entries)
        #expect(index.search("ÉMILE", limit: 8).map(\.email) == ["emile@example.fr"])
        #expect(index.search("민수", limit: 8).map(\.email) == ["minsu@example.kr"])
        #expect(index.search("mim", limit: 8).map(\.email) == ["emile@example.fr"], "a nickname's start, not its middle")
        #expect(index.search("boisemile", limit: 8).isEmpty, "no match across the name and the address")
        #expect(index.search("ann", limit: 8).map(\.name) == ["Ann"], "one suggestion per address")
        #expect(index.search("example", limit: 2).map(\.email) == ["emile@example.fr", "minsu@example.kr"])
        #expect(index.search("", limit: 8).count == 4)
        #expect(AddressBook.Indexed([]).search("a", limit: 8).isEmpty)
    }

    /// The person typed is found first: a match at the start of the name,
    /// the address or a word beats one inside, and one only in the domain
    /// comes last; Hangul matches by syllable and by initial consonants.
    @Test func matchesAtTheStartOfANameOrWordComeFirst() {
        let entries: [AddressBook.Entry] = [
            .init(name: "Pamela Ortiz", email: "pam@example.com"),
            .init(name: "Jiwon Lee", email: "jiwon@mail.example.org"),
            .init(name: "Kim", email: "kim.lee@example.net"),
            .init(name: "Lee Sora", email: "sora@example.kr"),
            .init(name: "박지성", email: "park@example.kr"),
            .init(name: "이영희", email: "yh@example.kr"),
            .init(name: "Olena", email: "olena@example.ua"),
        ]
        let index = AddressBook.Indexed(entries)
        #expect(index.search("le", limit: 8).map(\.email)
                == ["sora@example.kr", "jiwon@mail.example.org", "kim.lee@example.net", "olena@example.ua",
                    "pam@example.com", "park@example.kr", "yh@example.kr"],
                "name start, then word starts (name, local part), then inside, then Pamela only in the domain")
        #expect(index.search("이", limit: 8).map(\.email) == ["yh@example.kr"])
        #expect(index.search("ㅇㅇㅎ", limit: 8).map(\.email) == ["yh@example.kr"])
        #expect(index.search("ㅂㅈ", limit: 8).map(\.email) == ["park@example.kr"])
        #expect(index.search("ㅎ", limit: 8).map(\.email) == ["yh@example.kr"], "an initial inside the name")
        #expect(index.search("ex", limit: 3).count == 3, "a domain match still counts, last")
    }

    @Test func pathsCompleteFromTheTypedFolderWithTildeKept() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["report.pdf", "reports", "photo.png", ".hidden"] {
            if name == "reports" {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            } else {
                #expect(FileManager.default.createFile(atPath: root.appendingPathComponent(name).path, contents: Data()))
            }
        }
        let environment = ["HOME": root.path]
        let here = root.appendingPathComponent("reports").path
        #expect(FileManager.default.createFile(atPath: here + "/q3.pdf", contents: Data()))
        #expect(PathCompletion.candidates(for: "~/rep", environment: environment, from: here) == ["~/report.pdf", "~/reports/"])
        #expect(PathCompletion.candidates(for: root.path + "/ph", environment: environment, from: here) == [root.path + "/photo.png"])
        #expect(PathCompletion.candidates(for: "~/", environment: environment, from: here) == ["~/default/", "~/photo.png", "~/report.pdf", "~/reports/"])
        #expect(PathCompletion.candidates(for: "~/.h", environment: environment, from: here) == ["~/.hidden"])
        // The prompt starts empty, in the current folder: names from there, relative as typed.
        #expect(PathCompletion.candidates(for: "", environment: environment, from: here) == ["q3.pdf"])
        #expect(PathCompletion.candidates(for: "../ph", environment: environment, from: here) == ["../photo.png"])
        #expect(PathCompletion.expand("q3.pdf", environment: environment, from: here) == here + "/q3.pdf")
        #expect(PathCompletion.expand("~/a b.pdf", environment: environment, from: here) == root.path + "/a b.pdf")
        #expect(PathCompletion.expand("/etc/hosts", environment: environment, from: here) == "/etc/hosts")
    }
}
