// share-activities-fixture: the real `share` command line with application
// activities registered through the Swift API, for the picker's end-to-end
// tests, screenshots and benchmarks (before plugins exist).
//
//   share-activities-fixture [--count N] [--titles FILE] -- SHARE-ARGUMENTS…
//
// --count N       N activities titled "Activity 1" … (default 0)
// --titles FILE   one activity per line of FILE, titled by the line
// Activity i has type com.example.fixture<i>, alternates between the share
// and action rows, takes every kind, and when performed finishes with its
// title as the one returned item.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import CStartArguments
import ShareCLI
import ShareCore
import ShareSupport

@MainActor
final class FixtureActivity: Activity {
    let activityType: ActivityType
    let activityTitle: String
    let activityCategory: ActivityCategory
    let activityImage: ActivityImage

    init(number: Int, title: String) {
        activityType = ActivityType(rawValue: "com.example.fixture\(number)")
        activityTitle = title
        activityCategory = number % 2 == 1 ? .share : .action
        activityImage = .glyph(["★", "☂", "♫", "☀", "✿", "⚑"][number % 6])
    }

    func perform(_ session: ActivitySession) async {
        session.finish(.performed, returnedItems: [.text(activityTitle)])
    }
}

func complain(_ message: String) {
    try? LocalFiles.writeAll("share-activities-fixture: \(message)\n", to: STDERR_FILENO)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var titles: [String] = []
while let first = arguments.first, first != "--" {
    arguments.removeFirst()
    switch first {
    case "--count":
        let count = arguments.isEmpty ? 0 : Int(arguments.removeFirst()) ?? 0
        titles += (1...max(1, count)).prefix(count).map { "Activity \($0)" }
    case "--titles":
        let path = arguments.isEmpty ? "" : arguments.removeFirst()
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            complain("cannot read \(path)")
            exit(2)
        }
        titles += text.split(separator: "\n").map(String.init)
    default:
        complain("unknown option \(first)")
        exit(2)
    }
}
if arguments.first == "--" { arguments.removeFirst() }
signal(SIGPIPE, SIG_IGN)
let activities = titles.enumerated().map { FixtureActivity(number: $0.offset + 1, title: $0.element) }
let raw = arguments.map { Array($0.utf8) }
MainActor.assumeIsolated {
    ShareCommand.exitAfterRunning(rawArguments: raw, console: .process, applicationActivities: activities)
}
