import Foundation
import ShareCore
import ShareTerminal

/// Shows the result view on the terminal while the request runs, and
/// until the person presses Done or Cancel.
///
/// One `poll` waits for a key and for the answer at once, so the screen
/// changes the moment the image arrives and keys are never late.
@MainActor
final class ResultPresenter {
    /// How the view was closed.
    enum Ending {
        /// Done: the returned image was kept as this item.
        case kept(ShareItem)
        /// Cancel, before or after the image arrived.
        case cancelled
        /// Cancel after a failure: the failure is the outcome.
        case failed(ActivityError)
    }

    private let terminal: NcursesTerminal
    private let request: MustacheRequest
    private var screen: ResultScreen
    /// The returned image, and the temporary file it is drawn from.
    private var returned: Data?
    private var imageFile: URL?
    private var failure: ActivityError?

    init(terminal: NcursesTerminal, request: MustacheRequest, screen: ResultScreen) {
        self.terminal = terminal
        self.request = request
        self.screen = screen
    }

    /// Runs the view; on Done, `keep` saves the returned image (a failure
    /// to save is shown, and leaves only Cancel).
    func run(keep: (Data) throws(ActivityError) -> ShareItem) -> Ending {
        defer { removeImageFile() }
        // A second descriptor on the terminal, only to poll it; ncurses reads from its own.
        let tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        defer { if tty >= 0 { close(tty) } }
        var answered = false
        while true {
            terminal.draw(screen.frame)
            var descriptors = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: answered ? -1 : request.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            // A resize signal may land on another thread and wake no poll: look again after a second.
            _ = poll(&descriptors, nfds_t(descriptors.count), 1000)
            if !answered, let answer = request.answer {
                answered = true
                var byte: UInt8 = 0
                _ = read(request.wakeDescriptor, &byte, 1)
                receive(answer)
            }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                // The terminal is gone (closed window, hang-up): nobody is left to press Done.
                request.cancel()
                return failure.map(Ending.failed) ?? .cancelled
            }
            // ncurses may hold several keys from one read: take every one there is.
            while let event = terminal.nextEvent(timeoutMilliseconds: 0) {
                let size = (screen.width, screen.height)
                let decision = screen.update(event)
                if size != (screen.width, screen.height) { drawImage() }
                switch decision {
                case nil:
                    continue
                case .cancel:
                    request.cancel()
                    return failure.map(Ending.failed) ?? .cancelled
                case .done:
                    guard let returned else { continue }
                    do {
                        return .kept(try keep(returned))
                    } catch {
                        failure = error
                        screen.phase = .failed(error.message)
                        screen.focus = .cancel
                    }
                }
            }
        }
    }

    /// Shows what the service answered.
    private func receive(_ answer: MustacheAnswer) {
        switch answer {
        case .image(let data, let pixels):
            returned = data
            screen.imagePixels = pixels
            screen.phase = .arrived(summary: "\(pixels.width)×\(pixels.height) PNG, \(PickerHeader.byteCount(Int64(data.count)))")
            screen.focus = .done
            // The thumbnailer reads files: the bytes go to a temporary one first.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("mustachify-\(UUID().uuidString).png")
            if (try? data.write(to: file, options: .withoutOverwriting)) != nil { imageFile = file }
            drawImage()
        case .failure(let code, let message):
            failure = ActivityError(code: code, message: message)
            screen.phase = .failed(message)
        }
    }

    /// Draws the returned image to fit the screen as it is now (again after a resize).
    private func drawImage() {
        guard let imageFile, let pixels = screen.imagePixels, terminal.paletteSize >= 256 else { return }
        let room = screen.imageRoom
        guard let size = ResultScreen.imageGeometry(for: pixels, columns: room.columns, rows: room.rows) else {
            screen.image = nil
            return
        }
        screen.image = Thumbnailer.cells(forImageAt: imageFile.path, columns: size.columns, rows: size.rows)
    }

    private func removeImageFile() {
        if let imageFile { try? FileManager.default.removeItem(at: imageFile) }
        imageFile = nil
    }
}
