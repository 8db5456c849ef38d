// Example (seed 002): an image activity that posts the image to a web service.
//
//   example-mustachify [--service URL] [SHARE-OPTIONS…] IMAGE
//
// "Mustachify" (type com.nshipster.mustachify, action row) takes exactly
// one PNG or JPEG. When picked, it POSTs the image's bytes with libcurl to
// the service (default http://127.0.0.1:8080/mustachify; Content-Type is
// the image's type) and shows a result view: "Mustachifying…", then the
// image the service returned, drawn as terminal symbols, with [ Done ] and
// [ Cancel ]. Done (Enter or d; enabled only once the image arrived) saves
// it next to the original as NAME-mustache.png, the one returned item;
// Cancel (Esc or c) ends `cancelled` and aborts a request still running.
// A service error (4xx/5xx, nothing listening) is shown and leaves only
// Cancel, which ends `failed` with that message (exit 3).
//
// --service is the example's own option; every other argument goes to the
// real share command line.
import Foundation
import ShareCLI
import ShareCore

/// `arguments` without `--service URL` (or `--service=URL`), and the URL.
/// Share's own options keep their values, and nothing after `--` is touched.
func splitServiceOption(_ arguments: [String]) -> (service: String?, rest: [String], problem: String?) {
    var service: String?
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
        let word = arguments[index]
        index += 1
        if word == "--" {
            rest += arguments[(index - 1)...]
            break
        }
        if word == "--service" {
            guard index < arguments.count else { return (nil, rest, "--service needs a URL") }
            service = arguments[index]
            index += 1
        } else if word.hasPrefix("--service=") {
            service = String(word.dropFirst("--service=".count))
        } else {
            rest.append(word)
            // A value of one of share's options is never taken for --service.
            if Options.valueOptions.contains(word), index < arguments.count {
                rest.append(arguments[index])
                index += 1
            }
        }
    }
    return (service, rest, nil)
}

signal(SIGPIPE, SIG_IGN)
let split = splitServiceOption(Array(CommandLine.arguments.dropFirst()))
let service = split.service ?? "http://127.0.0.1:8080/mustachify"
let scheme = URLComponents(string: service)?.scheme?.lowercased()
if let problem = split.problem ?? (scheme == "http" || scheme == "https" ? nil : "--service needs an http:// or https:// URL, not '\(service)'") {
    FileHandle.standardError.write(Data("example-mustachify: \(problem)\n".utf8))
    exit(ExitCode.usage)
}
let environment = ProcessInfo.processInfo.environment
let colors = !split.rest.contains("--no-color") && (environment["NO_COLOR"] ?? "").isEmpty
exit(await ShareCommand.main(rawArguments: split.rest.map { Array($0.utf8) }, console: .process,
                             applicationActivities: [MustachifyActivity(service: service, colors: colors)]))
