import Foundation
import ShareCore
import ShareSupport
import ShareTerminal

/// Shows the result view on the terminal while the request runs, and
/// until the person presses Done or Cancel: a screen of the share screen
/// loop, to which the request's thread posts its answer, so the screen
/// changes the moment the image arrives and keys are never late.
@MainActor
final class ResultPresenter: ScreenProgram {
    typealias Message = MustacheAnswer

    /// How the view was closed.
    enum Ending {
        /// Done: the returned image was kept as this item.
        case kept(ShareItem)
        /// Cancel, before or after the image arrived.
        case cancelled
        /// Cancel after a failure: the failure is the outcome.
        case failed(ActivityError)
    }

    private let terminal: any TerminalBackend
    private let request: MustacheRequest
    private var screen: ResultScreen
    /// The returned image, and the temporary file it is drawn from.
    private var returned: Data?
    private var imageFile: URL?
    private var failure: ActivityError?
    /// Saves the returned image on Done.
    private var keep: (Data) throws(ActivityError) -> ShareItem = { _ throws(ActivityError) in
        throw ActivityError(code: "save-failed", message: "nowhere to keep the image")
    }

    init(terminal: any TerminalBackend, request: MustacheRequest, screen: ResultScreen) {
        self.terminal = terminal
        self.request = request
        self.screen = screen
    }

    /// Sends the request and runs the view; on Done, `keep` saves the
    /// returned image (a failure to save is shown, and leaves only Cancel).
    func run(keep: @escaping (Data) throws(ActivityError) -> ShareItem) -> Ending {
        self.keep = keep
        defer { removeImageFile() }
        let loop = ScreenLoop<MustacheAnswer>(terminal: terminal)
        let poster = loop.poster
        request.start { answer in poster.post(answer) }
        return loop.run(self)
    }

    func view() -> Frame { screen.frame }

    func handle(_ event: ScreenEvent<MustacheAnswer>, in loop: ScreenLoop<MustacheAnswer>) -> Ending? {
        switch event {
        case .message(let answer):
            receive(answer)
        case .tick:
            break
        case .input(let input):
            let size = (screen.width, screen.height)
            let decision = screen.update(input)
            if size != (screen.width, screen.height) { drawImage() }
            switch decision {
            case nil:
                break
            case .cancel:
                request.cancel()
                return failure.map(Ending.failed) ?? .cancelled
            case .done:
                guard let returned else { break }
                do {
                    return .kept(try keep(returned))
                } catch {
                    failure = error
                    screen.phase = .failed(error.message)
                    screen.focus = .cancel
                }
            }
        }
        return nil
    }

    /// The terminal is gone (closed window, hang-up): nobody is left to press Done.
    func terminalClosed(in loop: ScreenLoop<MustacheAnswer>) -> Ending {
        request.cancel()
        return failure.map(Ending.failed) ?? .cancelled
    }

    /// Shows what the service answered.
    private func receive(_ answer: MustacheAnswer) {
        switch answer {
        case .image(let data, let pixels):
            returned = data
            screen.imagePixels = pixels
            screen.phase = .arrived(summary: "\(pixels.width)×\(pixels.height) PNG, \(ByteCount.words(Int64(data.count)))")
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
