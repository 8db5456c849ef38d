// Writes share's generated documents: `share-docs man` prints the man page
// (`make man` keeps share.1 from it).
import ShareCLI

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "man" {
    print(ManPage.roff, terminator: "")
} else {
    print("usage: share-docs man")
}
