import CCrypto
#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 (FIPS 180-4) by libcrypto's EVP digest, for telling whether a
/// file is still the one share wrote (the history's undo): not for secrets.
///
/// libcrypto is loaded on the first digest. Without it (a broken install:
/// libcurl needs it too) a digest is the empty string, which no digest
/// equals, and a file's is `nil`, as for a file that cannot be read.
public struct SHA256 {
    /// The digest under way; `nil` when libcrypto could not start one.
    private var state: State?

    /// libcrypto's digest context, freed with its owner; copied before a
    /// change when two ``SHA256`` values share it.
    private final class State {
        let context: OpaquePointer

        init?(context: OpaquePointer?) {
            guard let context else { return nil }
            self.context = context
        }

        deinit { share_sha256_free(context) }
    }

    public init() {
        var error = [CChar](repeating: 0, count: 160)
        state = State(context: share_sha256_new(&error, error.count))
    }

    /// The digest of `bytes` in lower-case hexadecimal.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = SHA256()
        hash.add(bytes)
        return hash.finish()
    }

    /// The digest of the file at `path`, read in chunks; `nil` when it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return hex(ofDescriptor: descriptor)
    }

    /// The digest of what is left to read from `descriptor` (left open),
    /// read in chunks; `nil` when a read fails or when `stop`, asked
    /// between reads, says to stop.
    public static func hex(ofDescriptor descriptor: Int32, stop: () -> Bool = { false }) -> String? {
        var hash = SHA256()
        guard hash.state != nil else { return nil }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { chunk.deallocate() }
        while !stop() {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return hash.finish() }
            hash.add(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return nil
    }

    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ add(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { add($0) }
        }
    }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let context = ownContext() else { return }
        if share_sha256_add(context, bytes.baseAddress, bytes.count) != 0 { state = nil }
    }

    /// The digest in lower-case hexadecimal (empty without libcrypto); what
    /// is added next starts a new one.
    public mutating func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        guard let context = ownContext(), share_sha256_finish(context, &digest) == 0 else {
            state = nil
            return ""
        }
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// The context, this value's alone (a copy made when another shares it).
    private mutating func ownContext() -> OpaquePointer? {
        guard let shared = state else { return nil }
        if !isKnownUniquelyReferenced(&state) { state = State(context: share_sha256_copy(shared.context)) }
        return state?.context
    }
}
