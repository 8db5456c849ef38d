// share-state-fixture: changes share's state files through share's own
// code, one change a run, so that the tests can start twenty runs at once
// and check that no change is lost.
//
//   share-state-fixture pin STATE-HOME TYPE          pin TYPE (or unpin it)
//   share-state-fixture compose STATE-HOME TEXT      save a Mail screen whose subject is TEXT
//   share-state-fixture compose-clear STATE-HOME TEXT  save it, then clear it again
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Writes `text` and a newline to standard error, and exits with `status`.
func fail(_ text: String, _ status: Int32) -> Never {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else {
    fail("usage: share-state-fixture pin|compose|compose-clear STATE-HOME VALUE", 2)
}
let (command, stateHome, value) = (arguments[0], arguments[1], arguments[2])
switch command {
case "pin":
    do { _ = try PinsFile(stateHome: stateHome).toggle(ActivityType(rawValue: value)) } catch {
        fail("share-state-fixture: \(error.description)", 1)
    }
case "compose", "compose-clear":
    var locations = Locations(environment: [:])
    locations.stateHome = stateHome
    let file = ComposeStateFile(locations: locations)
    file.write(activity: .mail, values: ["subject": value], draft: nil)
    if command == "compose-clear" { file.clear() }
default:
    fail("share-state-fixture: no command \(command)", 2)
}
