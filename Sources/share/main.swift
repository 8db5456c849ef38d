import Foundation
import ShareCLI

let code = await ShareCommand.run(Array(CommandLine.arguments.dropFirst()), console: .process)
exit(code)
