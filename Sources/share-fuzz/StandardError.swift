#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` and a line end to standard error.
func complain(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
