import Foundation
import ShareCore
import Testing
@testable import ShareActivities

/// Copy's choice of route and of what goes on the clipboard.
@MainActor
struct CopyActivityTests {
    private func file(_ name: String, type: String) -> FileItem {
        FileItem(name: name, contentType: type, size: 3, storage: .path(URL(fileURLWithPath: "/tmp/\(name)")))
    }

    @Test func textAndURLsAreCopiedAsLinesOfText() {
        let (data, type) = CopyActivity.payload([.text("PIN 4821"), .url(URL(string: "https://nshipster.com")!)], rich: true)
        #expect(String(decoding: data, as: UTF8.self) == "PIN 4821\nhttps://nshipster.com")
        #expect(type == "text/plain;charset=utf-8")
    }

    @Test func filesAreAURIListWhenTheClipboardTakesTypesAndPathsOtherwise() {
        let items: [ShareItem] = [.file(file("Q4 Projections.pdf", type: "application/pdf")), .image(file("a.png", type: "image/png"))]
        let (rich, richType) = CopyActivity.payload(items, rich: true)
        #expect(richType == "text/uri-list")
        #expect(String(decoding: rich, as: UTF8.self) == "file:///tmp/Q4%20Projections.pdf\r\nfile:///tmp/a.png\r\n")
        let (plain, plainType) = CopyActivity.payload(items, rich: false)
        #expect(plainType == "text/plain;charset=utf-8")
        #expect(String(decoding: plain, as: UTF8.self) == "/tmp/Q4 Projections.pdf\n/tmp/a.png")
    }

    @Test func aLoneImageIsCopiedAsTheImage() {
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        let item = ShareItem.image(FileItem(name: "a.png", contentType: "image/png", size: 4, storage: .data(png)))
        let (data, type) = CopyActivity.payload([item], rich: true)
        #expect(data == png)
        #expect(type == "image/png")
    }

    @Test func theRouteFollowsTheSession() throws {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("copy-route-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        for name in ["wl-copy", "xclip"] {
            let path = bin.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8),
                                                   attributes: [.posixPermissions: 0o755]))
        }
        let path = bin.path
        #expect(CopyActivity.route(environment: ["PATH": path, "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], hasTerminal: true)
            == .wlCopy(path + "/wl-copy"))
        #expect(CopyActivity.route(environment: ["PATH": path, "DISPLAY": ":0"], hasTerminal: true) == .xclip(path + "/xclip"))
        #expect(CopyActivity.route(environment: ["PATH": path], hasTerminal: true) == .osc52)
        #expect(CopyActivity.route(environment: ["PATH": "/nonexistent"], hasTerminal: false) == nil)
        #expect(CopyActivity(environment: ["PATH": "/nonexistent"], hasTerminal: false).availability
            == .unavailable("no terminal for OSC 52, and neither wl-copy nor xclip"))
    }
}
