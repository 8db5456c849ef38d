// Without libFuzzer, share-fuzz runs inputs through a target once each:
// the seed corpora and the inputs that once failed, in `make test`.
#if !SHARE_FUZZER
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

@main
struct Replay {
    static func main() {
        #if DEBUG
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTargets.named(name), arguments.count > 1 else {
            complain("usage: share-fuzz TARGET FILE|DIRECTORY...\ntargets: \(FuzzTargets.all.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(under: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    complain("share-fuzz: cannot read \(file)")
                    exit(2)
                }
                target(Array(data))
                count += 1
            }
        }
        print("\(name): \(count) inputs held")
        #else
        complain("share-fuzz runs in debug builds: make fuzz")
        exit(2)
        #endif
    }

    /// `path` itself, or every regular file under it, sorted.
    static func files(under path: String) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            complain("share-fuzz: no such file: \(path)")
            exit(2)
        }
        guard isDirectory else { return [path] }
        let names = ((try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []).sorted()
        return names.map { path + "/" + $0 }.filter {
            var directory = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &directory) && !directory
        }
    }
}
#endif
