import Foundation
import Testing

/// `share --explain [--json]`: every system activity, its verdict and why (SPEC §2, §4).
@Suite struct ExplainTests {
    @Test func jsonListsTheFourteenSystemActivitiesInDisplayOrderWithExactKeys() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", "--text", "PIN 4821")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.count == 17)
        #expect(rows.types == SystemActivity.order)
        for (row, expected) in zip(rows, SystemActivity.rows) {
            #expect(row.title == expected.title, "\(row.type)")
            #expect(row.category == expected.category, "\(row.type)")
            #expect(row.eligible == (row.reason == nil), "\(row)")
            if row.reason != nil {
                #expect(!(row.detail ?? "").isEmpty, "a hidden activity needs a human detail: \(row)")
            }
            // Only built activities that take text may claim to be eligible.
            #expect(row.eligible == (SystemActivity.built.contains(row.type) && row.reason != "unsupported-items"), "\(row)")
        }
    }

    @Test func textItemAlone() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share("--explain", "--json", "--text", "hello"))
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["s"]))
        #expect(try rows.row("addToReadingList").reason == "unsupported-items")
        let mail = try rows.row("mail")
        #expect(mail.eligible)
        #expect(mail.reason == nil)
        #expect(mail.detail == "no transport: messages wait in the outbox for share --flush", "Mail says how it will send")
        #expect(try rows.row("print").reason == "unsupported-items")
        #expect(try rows.row("copyToPasteboard").detail == SystemActivity.noClipboardDetail)
        #expect(try rows.row("message").detail == SystemActivity.messageDetail)
    }

    @Test func pngBytesUnderTextNameAreAnImage() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share("--explain", "--json", fixtures.pngNamedText.path))
        #expect(rows.reasons == SystemActivity.expectedReasons(itemKinds: ["i"]))
        let contact = try rows.row("assignToContact")
        #expect(contact.reason == "unavailable")
        #expect(contact.detail == SystemActivity.unavailableDetail("assignToContact"))
        #expect(try rows.row("addToReadingList").reason == "unsupported-items")
        // An image is also a file: Print takes it.
        #expect(try rows.row("print").reason == "unavailable")
    }

    @Test func everyUnavailableSystemActivitySaysWhy() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share(
            "--explain", "--json", "--text", "x", "https://example.com", fixtures.png.path, fixtures.pdf.path))
        #expect(rows.count == 17)
        for row in rows where !SystemActivity.built.contains(row.type) {
            #expect(row.reason == "unavailable", "\(row)")
            #expect(SystemActivity.isUnavailableDetail(row.detail, of: row.type), "\(row)")
        }
        #expect(rows.reason("mail") == nil)
    }

    @Test func excludeHidesOnlyThatType() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share("--explain", "--json", "--exclude", "mail", "--text", "hi"))
        var expected = SystemActivity.expectedReasons(itemKinds: ["s"])
        expected["mail"] = "excluded"
        #expect(rows.reasons == expected)
        #expect(rows.types == SystemActivity.order, "excluded types stay listed by --explain, in place")
    }

    @Test func excludeTakesCommaListsAndRepeats() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share(
            "--explain", "--json", "--exclude", "mail, message", "--exclude=airDrop", "--text", "hi"))
        for type in ["mail", "message", "airDrop"] {
            #expect(rows.reason(type) == "excluded", "\(type)")
        }
        #expect(rows.reason("copyToPasteboard") == "unavailable")
    }

    @Test func onlyExcludesEverythingElse() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share("--explain", "--json", "--only", "mail,print", "--text", "hi"))
        for row in rows where !["mail", "print"].contains(row.type) {
            #expect(row.reason == "excluded", "\(row)")
        }
        #expect(rows.reason("mail") == nil)
        #expect(rows.reason("print") == "unsupported-items")
    }

    @Test func excludedWinsOverUnsupportedItems() throws {
        let fixtures = try Fixtures()
        let rows = try ActivityRow.parse(try fixtures.share(
            "--explain", "--json", "--exclude", "addToReadingList", "--text", "hi"))
        #expect(rows.reason("addToReadingList") == "excluded")
        let only = try ActivityRow.parse(try fixtures.share("--explain", "--json", "--only", "mail", "--text", "hi"))
        #expect(only.reason("saveToCameraRoll") == "excluded", "not in --only beats unsupported-items")
    }

    @Test func reverseDNSTypesAreAcceptedByExcludeAndOnly() throws {
        let fixtures = try Fixtures()
        let excluded = try fixtures.share("--explain", "--json", "--exclude", "com.example.x", "--text", "hi")
        #expect(excluded.status == 0, "stderr: \(excluded.err)")
        #expect(try ActivityRow.parse(excluded).reasons == SystemActivity.expectedReasons(itemKinds: ["s"]))

        let only = try fixtures.share("--explain", "--json", "--only", "com.example.x", "--text", "hi")
        #expect(only.status == 0, "stderr: \(only.err)")
        #expect(try ActivityRow.parse(only).allSatisfy { $0.reason == "excluded" })
    }

    @Test func withoutItemsEveryActivityLacksItems() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json")
        #expect(run.status == 0, "--explain needs no items; stderr: \(run.err)")
        let rows = try ActivityRow.parse(run)
        #expect(rows.count == 17)
        #expect(rows.allSatisfy { $0.reason == "unsupported-items" })
    }

    @Test func stdoutHoldsOnlyTheJSON() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--json", fixtures.png.path, "--text", "hi", "https://example.com")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "stderr: \(run.err)")
        // The whole of stdout is one JSON document (one trailing newline at most).
        let json = try JSONSerialization.jsonObject(with: run.stdout)
        #expect((json as? [Any])?.count == SystemActivity.order.count)
        #expect(run.out.hasPrefix("["))
        #expect(run.out.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("]"))
    }

    @Test func humanOutputNamesEveryTypeAndReason() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share("--explain", "--exclude", "mail", "--text", "hi")
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "stderr: \(run.err)")
        #expect((try? JSONSerialization.jsonObject(with: run.stdout)) == nil, "plain --explain is not JSON")
        let lines = run.out.split(separator: "\n").map(String.init)
        let expected = SystemActivity.expectedReasons(itemKinds: ["s"]).merging(["mail": "excluded"]) { $1 }
        for type in SystemActivity.order {
            let line = lines.first { $0.split(separator: " ").first.map(String.init) == type }
            let found = try #require(line, "no line for \(type) in:\n\(run.out)")
            #expect(found.contains(expected[type] ?? "?"), "\(found)")
        }
    }

    @Test(arguments: [
        (["--text", "\u{1B}[31mred\u{1B}[0m"], "red"),
        (["--text", "x", "--title", "\u{1B}]0;pwned\u{07}"], nil),
        (["--text", "x", "--subject", "\u{1B}[2Jcleared"], nil),
        (["--text", "\u{9B}31mC1 CSI"], "C1 CSI"),
    ] as [([String], String?)])
    func controlCharactersNeverReachStdoutRaw(arguments: [String], visible: String?) throws {
        let fixtures = try Fixtures()
        for json in [false, true] {
            let run = try fixtures.share(["--explain"] + (json ? ["--json"] : []) + arguments)
            #expect(run.status == 0, "stderr: \(run.err)")
            if json {
                #expect(try ActivityRow.parse(run).count == SystemActivity.order.count)
            } else {
                for type in SystemActivity.order { #expect(run.out.contains(type), "no \(type) in \(run.out)") }
                // The item is listed, made visible rather than dropped.
                if let visible { #expect(run.out.contains(visible), "\(run.out)") }
            }
            #expect(!run.stdout.contains(0x1B), "ESC on stdout (json: \(json)): \(run.out.debugDescription)")
            #expect(!run.stdout.contains(0x07), "BEL on stdout (json: \(json))")
            #expect(!run.out.unicodeScalars.contains { (0x80...0x9F).contains($0.value) },
                    "a C1 control on stdout (json: \(json)): \(run.out.debugDescription)")
        }
    }

    @Test func controlCharactersInFileNamesNeverReachStdoutRaw() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("\u{1B}[31mevil.txt", Data("hello\n".utf8))
        let run = try fixtures.share("--explain", file.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("evil.txt"), "\(run.out)")
        #expect(!run.stdout.contains(0x1B), "ESC on stdout: \(run.out.debugDescription)")
    }
}
