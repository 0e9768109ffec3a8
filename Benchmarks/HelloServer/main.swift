// HelloBench: Hummingbird's hello world, the floor of what a Swift HTTP server does on this machine.
// Used only by Benchmarks/run.sh (`HelloBench --port N`); it has no other purpose.
import Hummingbird

/// The port to listen on: `--port N` (default 8081).
let arguments = CommandLine.arguments
let port =
    arguments.firstIndex(of: "--port").flatMap { index in
        index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
    } ?? 8081

let router = Router()
router.get("/") { _, _ in "Hello, world!" }
let app = Application(
    router: router,
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: "HelloBench")
)
try await app.runService()
