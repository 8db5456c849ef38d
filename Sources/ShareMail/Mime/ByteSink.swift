#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareCore
import ShareSupport

/// Where the MIME writer puts bytes: a file, a pipe, or memory.
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes` or throws.
    func write(_ bytes: UnsafeRawBufferPointer) throws(MailError)
}

extension ByteSink {
    /// Writes the UTF-8 bytes of `text`.
    func write(_ text: String) throws(MailError) {
        var text = text
        try throwingMailError { try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) } }
    }

    /// Writes an array of bytes.
    func write(_ bytes: [UInt8]) throws(MailError) {
        try throwingMailError { try bytes.withUnsafeBytes { try write($0) } }
    }
}

/// Collects bytes in memory (tests, small messages).
public final class DataSink: ByteSink {
    /// Everything written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws(MailError) {
        data.append(contentsOf: bytes)
    }
}

/// Buffered writes to a file descriptor; the caller owns the descriptor.
public final class FileDescriptorSink: ByteSink {
    private let fd: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private let name: String

    /// Creates a sink writing to `fd` through a buffer of `capacity` bytes; `name` appears in errors.
    public init(fd: Int32, name: String, capacity: Int = 1 << 18) {
        self.fd = fd
        self.name = name
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(MailError) {
        if bytes.count > buffer.count - used {
            try flush()
            if bytes.count >= buffer.count {
                try writeAll(bytes)
                return
            }
        }
        UnsafeMutableRawBufferPointer(rebasing: buffer[used..<(used + bytes.count)]).copyMemory(from: bytes)
        used += bytes.count
    }

    /// Writes out what is buffered.
    public func flush() throws(MailError) {
        guard used > 0 else { return }
        let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<used])
        used = 0
        try writeAll(pending)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(MailError) {
        do throws(FileError) {
            try LocalFiles.writeAll(bytes, to: fd)
        } catch {
            throw MailError(.io, "cannot write \(name): \(error.reason)")
        }
    }
}
