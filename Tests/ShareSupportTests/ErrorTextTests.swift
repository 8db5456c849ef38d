import Foundation
import ShareSupport
import Testing

struct ErrorTextTests {
    @Test func foundationFileErrorsBecomeThePathAndTheReason() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/a.pdf")
        let read = #expect(throws: (any Error).self) { try Data(contentsOf: missing) }
        #expect(read.map(ErrorText.sentence) == "/nonexistent/a.pdf: No such file or directory")
        let written = #expect(throws: (any Error).self) { try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent/b.txt")) }
        #expect(written.map(ErrorText.sentence) == "/nonexistent/b.txt: No such file or directory")
        // Without an underlying POSIX error, the code says why.
        #expect(ErrorText.sentence(CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: "/mnt/full/c"]))
            == "/mnt/full/c: No space left on device")
        #expect(ErrorText.sentence(CocoaError(.fileReadCorruptFile)) == "the file is damaged or not in the expected format")
    }

    @Test func posixErrorsAreTheSystemsWords() {
        #expect(ErrorText.sentence(POSIXError(.ENOSPC)) == "No space left on device")
    }

    @Test func otherErrorsDescribeThemselves() {
        struct Refused: Error, CustomStringConvertible { var description: String { "the server said no" } }
        #expect(ErrorText.sentence(Refused()) == "the server said no")
    }
}
