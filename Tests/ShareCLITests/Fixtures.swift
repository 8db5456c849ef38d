import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A fresh temporary world for one test: a HOME and XDG directories that
/// hold no user config, and item fixtures of every kind the CLI must judge.
///
/// Every directory is 0755 so the binary can also be run as `nobody`.
/// Everything is removed when the value goes away.
final class Fixtures {
    /// The temporary root; everything below is removed on deinit.
    let root: URL
    /// `$HOME` for runs.
    let home: URL
    /// `$XDG_CONFIG_HOME` for runs (empty unless a test writes a config there).
    let configHome: URL
    /// The folder the fixtures live in, and the runs' working directory.
    let files: URL

    /// A 1×1 PNG.
    var png: URL { files.appendingPathComponent("pic.png") }
    /// The same PNG bytes under a `.txt` name: content type comes from the bytes.
    var pngNamedText: URL { files.appendingPathComponent("pic.txt") }
    /// A small UTF-8 text file.
    var text: URL { files.appendingPathComponent("note.txt") }
    /// A minimal valid PDF.
    var pdf: URL { files.appendingPathComponent("Q4 Projections.pdf") }
    /// A directory.
    var directory: URL { files.appendingPathComponent("folder", isDirectory: true) }
    /// A named pipe (FIFO).
    var fifo: URL { files.appendingPathComponent("pipe") }
    /// A Unix-domain socket file.
    var socket: URL { files.appendingPathComponent("sock") }
    /// A symbolic link whose target does not exist.
    var danglingLink: URL { files.appendingPathComponent("dangling") }

    /// Creates the world under `base` (the system temporary directory by default).
    init(base: URL = FileManager.default.temporaryDirectory) throws {
        let manager = FileManager.default
        root = base.appendingPathComponent("share-cli-\(UUID().uuidString.prefix(8))", isDirectory: true)
        home = root.appendingPathComponent("home", isDirectory: true)
        configHome = root.appendingPathComponent("config", isDirectory: true)
        files = root.appendingPathComponent("files", isDirectory: true)
        for directory in [root, home, configHome, files, root.appendingPathComponent("data"),
                          root.appendingPathComponent("state"), root.appendingPathComponent("cache")] {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o755])
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        }

        try FixtureBytes.png.write(to: png)
        try FixtureBytes.png.write(to: pngNamedText)
        try Data("PIN 4821\nmeet at noon\n".utf8).write(to: text)
        try FixtureBytes.pdf.write(to: pdf)
        try manager.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try #require(mkfifo(fifo.path, 0o644) == 0, "mkfifo \(fifo.path): errno \(errno)")
        try makeSocket(at: socket.path)
        try manager.createSymbolicLink(atPath: danglingLink.path, withDestinationPath: files.appendingPathComponent("gone.png").path)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The whole environment of a run: nothing of the user's leaks in.
    var environment: [String: String] {
        [
            "HOME": home.path,
            "XDG_CONFIG_HOME": configHome.path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "XDG_DATA_DIRS": root.appendingPathComponent("data").path,
            "LANG": "C.UTF-8",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            // No CUPS scheduler unless a test starts one: a machine's own printers never show.
            "CUPS_SERVER": root.appendingPathComponent("no-cups.sock").path,
        ]
    }

    /// Runs `share` with `arguments` in ``files``, with ``environment``
    /// changed by `changes` (a `nil` value removes the variable).
    func share(_ arguments: [String], input: Data? = nil, changes: [String: String?] = [:]) throws -> ShareRun {
        var environment = self.environment
        for (name, value) in changes { environment[name] = value }
        let run = try Share.run(try Share.binary(), arguments, environment: environment, directory: files, input: input)
        #expect(!run.timedOut, "share \(arguments) was killed after \(Share.watchdogSeconds) s")
        return run
    }

    /// `share` with `arguments` given inline.
    func share(_ arguments: String..., input: Data? = nil) throws -> ShareRun {
        try share(arguments, input: input)
    }

    /// Runs `share` as a user whom permissions stop: as root (who reads and
    /// writes anything), a copy of the binary runs as `nobody` through
    /// setpriv, so the fixtures must be made under `/tmp` (world-readable
    /// folders all the way down). As anyone else, the binary runs as is.
    func shareUnprivileged(_ arguments: [String]) throws -> ShareRun {
        var executable = try Share.binary()
        var prefix: [String] = []
        if getuid() == 0 {
            let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
            try #require(FileManager.default.isExecutableFile(atPath: setpriv.path), "running as root needs /usr/bin/setpriv")
            let bin = root.appendingPathComponent("bin", isDirectory: true)
            let copy = bin.appendingPathComponent("share")
            if !FileManager.default.fileExists(atPath: copy.path) {
                try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                // Written through a close-on-exec descriptor: a copy made by
                // Foundation leaks its descriptor into any program another
                // test starts meanwhile (a tmux server lives on), and exec then
                // fails with ETXTBSY for as long as that program runs.
                let bytes = try Data(contentsOf: executable)
                let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
                try #require(descriptor >= 0, "cannot write \(copy.path): errno \(errno)")
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                try #require(written == bytes.count, "cannot write \(copy.path)")
            }
            prefix = ["--reuid=65534", "--regid=65534", "--clear-groups", copy.path]
            executable = setpriv
        }
        var run = try Share.run(executable, prefix + arguments, environment: environment, directory: files)
        // A test forking another program at the moment the copy was written
        // holds its descriptor until that program starts: exec then fails
        // with ETXTBSY ("Text file busy", Linux). The copy is whole; again.
        var attempts = 1
        while run.status == 126 && run.err.contains("Text file busy") && attempts < 10 {
            attempts += 1
            run = try Share.run(executable, prefix + arguments, environment: environment, directory: files)
        }
        #expect(!run.timedOut, "share \(arguments) was killed after \(Share.watchdogSeconds) s")
        return run
    }

    /// Writes a config file with `contents` at `relativePath` under ``root``.
    @discardableResult
    func writeConfig(_ contents: String, at relativePath: String = "share.conf") throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try Data(contents.utf8).write(to: url)
        return url
    }

    /// Makes a named pipe (FIFO) at `relativePath` under ``root``, with the
    /// folders above it, and returns its URL.
    @discardableResult
    func makeFIFO(at relativePath: String) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try #require(mkfifo(url.path, 0o644) == 0, "mkfifo \(url.path): errno \(errno)")
        return url
    }

    /// Creates a file in ``files`` and returns its URL.
    func file(_ name: String, _ contents: Data) throws -> URL {
        let url = files.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    /// Binds a Unix-domain socket at `path` and closes it; the socket file stays.
    private func makeSocket(at path: String) throws {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0, "socket(): errno \(errno)")
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        try #require(bytes.count < capacity, "socket path too long: \(path)")
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(result == 0, "bind(\(path)): errno \(errno)")
    }
}

/// The bytes of the fixture files.
enum FixtureBytes {
    /// A valid 1×1 RGB PNG (signature, IHDR, IDAT, IEND with correct CRCs).
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
        0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
        0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE,
        0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0x00, 0x00,
        0x03, 0x01, 0x01, 0x00, 0xC9, 0xFE, 0x92, 0xEF,
        0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    /// A minimal valid one-page PDF 1.4 with a correct cross-reference table.
    static let pdf: Data = {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            text += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(text.utf8)
    }()
}
