import Synchronization

/// Programs found along `$PATH`, the way a shell finds them, for every
/// part of share that runs a program by name (plugins' `Exec`, wl-copy,
/// xclip).
///
/// `$PATH` is split (on bytes, only when a name without a slash is first
/// looked up) and each name searched for once per process: the answers
/// are kept for as long as `$PATH` keeps its value. A program installed
/// while share runs is not seen until the next run.
public enum ProgramSearch {
    /// The search path when `$PATH` is not set.
    public static let defaultPath = "/usr/local/bin:/usr/bin:/bin"

    /// The full path of `program`: the name itself when it has a slash in
    /// it, else the first `folder/program` along `environment["PATH"]`;
    /// `nil` when that is not an executable regular file.
    public static func executable(_ program: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? defaultPath
        return cache.withLock { cache in
            if cache.path != path { cache = Cache(path: path) }
            if let known = cache.found[program] { return known }
            let found: String?
            if program.containsBytes("/") {
                found = LocalFiles.isExecutableFile(program) ? program : nil
            } else {
                let folders = cache.folders ?? searchList(path)
                cache.folders = folders
                found = folders.lazy.map { $0 + "/" + program }.first { LocalFiles.isExecutableFile($0) }
            }
            cache.found[program] = found
            return found
        }
    }

    /// The entries of a colon-separated list such as `$PATH` or
    /// `$XDG_DATA_DIRS`, empty ones dropped (split on bytes: a colon never
    /// is part of a longer character).
    public static func searchList(_ list: String) -> [String] {
        list.utf8.split(separator: UInt8(ascii: ":")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The last `$PATH` searched, its folders once split, and the answers for it.
    private struct Cache {
        var path: String?
        var folders: [String]?
        var found: [String: String?] = [:]
    }

    private static let cache = Mutex(Cache(path: nil))
}
