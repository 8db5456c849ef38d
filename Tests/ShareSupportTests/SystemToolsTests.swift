import Foundation
import Testing
import TestSupport
@testable import ShareSupport

/// The standard-library and POSIX replacements for what share used to take
/// from Foundation: paths, trimming, byte search, file reads, folder walks,
/// and running programs.
struct SystemToolsTests {
    @Test(arguments: [
        ("/tmp/a.txt", "/tmp", "a.txt"),
        ("/tmp/lock/", "/tmp", "lock"),
        ("/tmp", "/", "tmp"),
        ("/", "/", "/"),
        ("a.txt", "", "a.txt"),
        ("dir/sub//", "dir", "sub"),
        ("//x", "/", "x"),
        ("", "", ""),
    ])
    func pathsReadAsNSStringReadsThem(path: String, parent: String, last: String) {
        #expect(PathText.parent(of: path) == parent, "parent of \(path)")
        #expect(PathText.lastComponent(of: path) == last, "last component of \(path)")
    }

    @Test func trimmingKeepsInnerSpaceAndTellsNewlinesApart() {
        #expect("  a b \t".trimmingWhitespace() == "a b")
        #expect(" \n a \n".trimmingWhitespace() == "\n a \n")
        #expect(" \n a b\r\n ".trimmingWhitespace(includingNewlines: true) == "a b")
        #expect("   ".trimmingWhitespace().isEmpty)
        #expect("\u{3000}한글\u{3000}".trimmingWhitespace() == "한글")
        #expect("plain".trimmingWhitespace() == "plain")
        #expect("a\u{00A0}".trimmingWhitespace() == "a")
        #expect(" é ".trimmingWhitespace() == "é")
        #expect("\r\nC-x\t\r".trimmingWhitespace(includingNewlines: true) == "C-x")
        #expect("x\r\n".trimmingWhitespace() == "x\r\n")
        #expect("\u{2028}".trimmingWhitespace(includingNewlines: true).isEmpty)
    }

    @Test func lineBreaksAreReplacedEvenAsCRLF() {
        let text = "a\r\nb\nc\rd\te"
        #expect(text.replacingScalars(["\n", "\r"], with: " ") == "a  b c d\te")
        #expect(text.replacingScalars(["\t", "\n", "\r"], with: " ") == "a  b c d e")
        #expect("한\u{301}".replacingScalars(["\n"], with: " ") == "한\u{301}")
    }

    @Test func byteSearchFindsMarkersAnywhere() {
        #expect("https://example.com".containsBytes("://"))
        #expect(!"mailto:a@example.com".containsBytes("://"))
        #expect("/usr/bin/true".containsBytes("/"))
        #expect(!"true".containsBytes("/"))
        #expect("ab".containsBytes(""))
        #expect(!"a".containsBytes("ab"))
        #expect("x:/:/".containsBytes(":/:"))
    }

    @Test func readingAFileGivesItsBytesOrTheReason() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/data.bin"
        let bytes = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try LocalFiles.contents(ofFile: file).get() == bytes)
        // More than the limit is refused, never cut short.
        #expect(throws: FileError(code: EFBIG)) { try LocalFiles.contents(ofFile: file, limit: 100).get() }
        #expect(FileError(code: EFBIG).reason == "it is too large")
        // A FIFO is refused at once, never opened for a read that would wait for a writer.
        #expect(mkfifo(folder.path + "/pipe", 0o600) == 0)
        #expect(throws: FileError(code: ESPIPE)) { try LocalFiles.contents(ofFile: folder.path + "/pipe").get() }
        guard case .failure(let missing) = LocalFiles.contents(ofFile: folder.path + "/none") else {
            Issue.record("a missing file was read")
            return
        }
        #expect(missing.reason == "no such file")
        guard case .failure(let directory) = LocalFiles.contents(ofFile: folder.path) else {
            Issue.record("a folder was read as a file")
            return
        }
        #expect(directory.reason == "it is a directory")
    }

    @Test func aRelativePathIsMadeAbsoluteUnderTheCurrentFolder() {
        let current = FileManager.default.currentDirectoryPath
        #expect(LocalFiles.absolutePath("share.conf") == current + "/share.conf")
        #expect(LocalFiles.absolutePath("config/share.conf") == current + "/config/share.conf")
        #expect(LocalFiles.absolutePath("/etc/share.conf") == "/etc/share.conf")
    }

    @Test func aFileThatGivesItsBytesInPiecesIsReadWhole() throws {
        // /proc files say they are empty and hand out a few kilobytes per read.
        let first = try LocalFiles.contents(ofFile: "/proc/self/maps", limit: 1 << 24).get()
        let second = try LocalFiles.contents(ofFile: "/proc/cpuinfo", limit: 1 << 24).get()
        #expect(first.count > 4096 && first.last == UInt8(ascii: "\n"), "\(first.count) bytes")
        #expect(String(decoding: second, as: UTF8.self).contains("processor"))
    }

    @Test func foldersAreMadeAndWalkedWithoutFollowingLinksToFolders() throws {
        let folder = try TemporaryFolder()
        #expect(LocalFiles.createFolders(folder.path + "/a/b/c") == nil)
        #expect(LocalFiles.isFolder(folder.path + "/a/b/c"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/a/b/c/one.vcf"))
        try Data("y".utf8).write(to: URL(fileURLWithPath: folder.path + "/a/two.vcf"))
        // A link back up: followed, it would never end.
        #expect(symlink(folder.path + "/a", folder.path + "/a/b/loop") == 0)
        #expect(LocalFiles.filesBelow(folder.path).sorted() == ["a/b/c/one.vcf", "a/two.vcf"])
        #expect(LocalFiles.names(inFolder: folder.path + "/a")?.sorted() == ["b", "two.vcf"])
        #expect(LocalFiles.names(inFolder: folder.path + "/none") == nil)
        #expect(LocalFiles.createFolders(folder.path + "/a/two.vcf/x")?.reason == "a file of that name is in the way")
    }

    @Test func writeAllPutsEveryByteInTheFileOrSaysWhyNot() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/out"
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 253) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        try LocalFiles.writeAll(bytes, to: fd)
        try LocalFiles.writeAll("é\n", to: fd)
        close(fd)
        #expect(try LocalFiles.contents(ofFile: path, limit: 1 << 23).get() == bytes + Array("é\n".utf8))
        let readOnly = open(path, O_RDONLY)
        defer { close(readOnly) }
        #expect(throws: FileError(code: EBADF)) { try LocalFiles.writeAll("x", to: readOnly) }
    }

    @Test func aProgramGetsItsInputWhileItsOutputAndErrorsDrain() throws {
        // More than a pipe holds, both ways, so a runner that fed first and
        // read afterwards would hang here.
        let input = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        var offset = 0
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "cat; head -c 100000 /dev/zero >&2; exit 7"], input: { buffer in
            let count = min(buffer.count, input.count - offset)
            buffer.copyBytes(from: input[offset..<(offset + count)])
            offset += count
            return count
        })
        #expect(outcome.status == 7)
        #expect(outcome.output == input)
        #expect(outcome.errors.count == 1 << 16)  // the kept part of standard error
        #expect(outcome.inputComplete)
        #expect(!outcome.inputFailed)
    }

    @Test func aProgramThatStopsReadingIsNotAnErrorOfOurs() throws {
        var fed = 0
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "head -c 10 >/dev/null"], input: { buffer in
            fed += 1
            buffer.initializeMemory(as: UInt8.self, repeating: 0x2A)
            return fed > 1000 ? 0 : buffer.count
        }, keepOutput: false)
        #expect(outcome.status == 0)
        #expect(!outcome.inputComplete)
    }

    @Test func anInputThatCannotBeReadStopsTheProgramFirst() throws {
        let folder = try TemporaryFolder()
        let received = folder.path + "/received"
        var calls = 0
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "cat > '\(received)'; echo done > '\(received).end'"],
                                         input: { buffer in
            calls += 1
            if calls == 1 { buffer[0] = 65; return 1 }
            return -1
        })
        #expect(outcome.inputFailed)
        #expect(outcome.status == 128 + SIGKILL)
        // Killed before its input ended: it never went on as if the input were whole.
        #expect(!FileManager.default.fileExists(atPath: received + ".end"))
    }

    @Test func aMissingProgramIsALaunchError() {
        #expect(throws: Subprocess.LaunchError.self) {
            _ = try Subprocess.run("/nonexistent/program", arguments: [])
        }
    }
}

/// Supervised runs: a time limit and interrupts that kill the program's
/// whole process group. One at a time, since the interrupt sent by one
/// test would cancel the others' runs.
@Suite(.serialized)
struct SupervisedRunTests {
    @Test func aSupervisedProgramPastItsTimeIsKilledWithItsChildren() throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path + "/child.pid"
        let started = ContinuousClock.now
        // The child keeps standard error open: only killing the group ends the run.
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "sleep 300 & echo $! > '\(pidFile)'; echo partial; wait"],
                                         supervision: Subprocess.Supervision(timeout: 0.3))
        #expect(outcome.timedOut)
        #expect(!outcome.cancelled)
        #expect(outcome.status == 128 + SIGKILL)
        #expect(outcome.output == Array("partial\n".utf8))
        #expect(ContinuousClock.now - started < .seconds(30))
        let child = try #require(Int32(String(decoding: try LocalFiles.contents(ofFile: pidFile).get(), as: UTF8.self)
            .trimmingWhitespace(includingNewlines: true)))
        try Self.waitForEnd(of: child)
    }

    @Test func aSupervisedProgramThatClosesItsOutputStillMeetsItsDeadline() throws {
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "exec >&- 2>&-; sleep 300"],
                                         supervision: Subprocess.Supervision(timeout: 0.3))
        #expect(outcome.timedOut)
        #expect(outcome.status == 128 + SIGKILL)
    }

    @Test func aSupervisedProgramWithinItsTimeEndsAsUsual() throws {
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "cat; echo oops >&2; exit 3"], input: Subprocess.feeding(Array("in".utf8)),
                                         errorLimit: .max, supervision: Subprocess.Supervision(timeout: 30))
        #expect(!outcome.timedOut && !outcome.cancelled)
        #expect(outcome.status == 3)
        #expect(outcome.output == Array("in".utf8))
        #expect(outcome.errors == Array("oops\n".utf8))
    }

    @Test func anInterruptDuringASupervisedRunCancelsItAndIsNotFatal() throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path + "/child.pid"
        // The program interrupts this process once it runs (as Ctrl-C would):
        // the run stops its group and says so, and this process lives on.
        let outcome = try Subprocess.run("/bin/sh", arguments: ["-c", "sleep 300 & echo $! > '\(pidFile)'; kill -INT \(getpid()); wait"],
                                         supervision: Subprocess.Supervision(timeout: 60))
        #expect(outcome.cancelled)
        #expect(!outcome.timedOut)
        let child = try #require(Int32(String(decoding: try LocalFiles.contents(ofFile: pidFile).get(), as: UTF8.self)
            .trimmingWhitespace(includingNewlines: true)))
        try Self.waitForEnd(of: child)
    }

    /// Waits up to ten seconds for `pid` to be gone (or a zombie waiting for init).
    static func waitForEnd(of pid: Int32) throws {
        try eventually("the program's child \(pid) to end", timeout: 10) {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return state.isEmpty || state.split(separator: " ").dropFirst(2).first == "Z"
        }
    }
}

/// A folder under the system's temporary folder, removed when the value goes.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "share-tests.XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw CocoaError(.fileWriteUnknown) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Programs found along `$PATH`: once per name, the first folder wins.
struct ProgramSearchTests {
    @Test func theFirstExecutableAlongThePathWinsAndNamesWithASlashAreTakenAsTheyAre() throws {
        let folder = try TemporaryFolder()
        for sub in ["a", "b", "c"] { #expect(mkdir(folder.path + "/" + sub, 0o700) == 0) }
        for (sub, mode) in [("a", 0o600), ("b", 0o700), ("c", 0o700)] as [(String, mode_t)] {
            let file = folder.path + "/" + sub + "/tool"
            #expect(FileManager.default.createFile(atPath: file, contents: Data("#!/bin/sh\n".utf8)))
            #expect(chmod(file, mode) == 0)
        }
        let path = ["/nonexistent", folder.path + "/a", "", folder.path + "/b", folder.path + "/c"].joined(separator: ":")
        #expect(ProgramSearch.executable("tool", environment: ["PATH": path]) == folder.path + "/b/tool")
        #expect(ProgramSearch.executable("missing", environment: ["PATH": path]) == nil)
        #expect(ProgramSearch.executable(folder.path + "/c/tool", environment: [:]) == folder.path + "/c/tool")
        #expect(ProgramSearch.executable(folder.path + "/a/tool", environment: [:]) == nil)
        // Another $PATH is searched afresh.
        #expect(ProgramSearch.executable("tool", environment: ["PATH": folder.path + "/c"]) == folder.path + "/c/tool")
        #expect(ProgramSearch.searchList("/a::/b:") == ["/a", "/b"])
    }
}
