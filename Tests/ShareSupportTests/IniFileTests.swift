import Testing
@testable import ShareSupport

struct IniFileTests {
    @Test func sectionsEntriesCommentsAndLineNumbers() throws {
        let text = """
        # a comment
        ; another comment

        [mail]
        from = 김민수 <kim@example.com>
          transport=smtp://user@mail.example.com:587\r
        [Activity]
        Name[ko] = 콧수염
        Exec=mustachify %F
        Empty =
        """
        let file = try IniFile(parsing: text, path: "config")
        #expect(file.sections.map(\.name) == ["mail", "Activity"])
        let mail = try #require(file.section("mail"))
        #expect(mail.line == 4)
        #expect(mail.entry("from")?.value == "김민수 <kim@example.com>")
        #expect(mail.entry("from")?.line == 5)
        #expect(mail.entry("transport")?.value == "smtp://user@mail.example.com:587")
        let activity = try #require(file.section("Activity"))
        #expect(activity.entry("Name[ko]")?.value == "콧수염")
        #expect(activity.entry("Exec")?.value == "mustachify %F")
        #expect(activity.entry("Empty")?.value == "")
        #expect(activity.entry("Empty")?.line == 10)
    }

    @Test(arguments: [
        ("[mail]\nfrom = a\njust words\n", 3, "expected 'key = value'"),
        ("key = value\n", 1, "comes before any [section]"),
        ("[mail]\n= value\n", 2, "a key is missing"),
        ("[mail\n", 1, "a section header looks like [name]"),
        ("[]\n", 1, "a section header looks like [name]"),
        ("[mail]\nfrom = a\nfrom = b\n", 3, "already set on line 2"),
        ("[mail]\n[picker]\n[mail]\n", 3, "already opened on line 1"),
        ("[mail]\nmy key = 1\n", 2, "cannot contain spaces"),
    ])
    func malformedLinesAreReportedWithTheirNumber(text: String, line: Int, message: String) {
        do {
            _ = try IniFile(parsing: text, path: "/home/kim/.config/share/config")
            Issue.record("parsed without an error: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.description.hasPrefix("/home/kim/.config/share/config:\(line): "))
        }
    }
}
