import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import CStartArguments
import ShareCLI

// Arguments as raw bytes, so a word that is not UTF-8 gets a clear error
// instead of silently turning into another file name.
let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                                                   count: strlen($0))) } ?? []
}
signal(SIGPIPE, SIG_IGN)
// Started by the name share-portal (a link to share, as D-Bus starts it): the desktop's Email portal.
if let name = CommandLine.unsafeArgv[0].map({ String(cString: $0) }), name == "share-portal" || name.hasSuffix("/share-portal") {
    MainActor.assumeIsolated {
        PortalService.exitAfterRunning(arguments: rawArguments.map { String(decoding: $0, as: UTF8.self) }, console: .process)
    }
}
// Synchronous top-level code: the concurrency runtime starts only once an
// activity has been chosen, not before the picker's first paint.
MainActor.assumeIsolated {
    ShareCommand.exitAfterRunning(rawArguments: rawArguments, console: .process)
}
