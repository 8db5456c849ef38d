// Example (seed 003): an item source with a subject and link metadata.
//
//   example-pin-share [SHARE-OPTIONS…]
//
// The preview header shows the metadata's title ("PIN 4821") and host;
// Mail gets a full sentence and the subject "Your PIN"; every other
// activity (Copy, a plugin…) gets just the four digits.
import Foundation
import ShareCLI
import ShareCore

/// Stands behind the PIN: one answer per activity type.
final class PINItemSource: ActivityItemSource {
    let pin = "4821"

    func placeholderItem() -> ShareItem { .text(pin) }

    func item(for activityType: ActivityType) -> ShareItem? {
        activityType == .mail ? .text("Your PIN is \(pin). It expires in 10 minutes; nobody from the bank will ask for it.") : .text(pin)
    }

    func subject(for activityType: ActivityType) -> String { activityType == .mail ? "Your PIN" : "" }

    func linkMetadata() -> LinkMetadata? {
        LinkMetadata(title: "PIN \(pin)", url: URL(string: "https://bank.example/account"))
    }
}

signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments.dropFirst().map { Array($0.utf8) }
exit(await ShareCommand.main(rawArguments: arguments, console: .process, activityItems: [.source(PINItemSource())]))
