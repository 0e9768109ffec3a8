import Foundation
import Testing

/// docs/merchant.md, "Test your backend", followed command by command as a new user would: every line of its
/// `sh` blocks runs in an empty folder with the built `paycheck` on the PATH.
@Suite("docs/merchant.md: from init --merchant to a green run")
struct MerchantDocTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The commands of the page's `sh` blocks, in order.
    static func commands() throws -> [String] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/merchant.md"), encoding: .utf8)
        var commands: [String] = []
        var inShell = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = !inShell && line == "```sh"
                continue
            }
            if inShell, !line.trimmingCharacters(in: .whitespaces).isEmpty { commands.append(String(line)) }
        }
        return commands
    }

    @Test("every command of the page succeeds, and the last run is green with its reports written")
    func followThePage() throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "--version"]
        python.standardOutput = FileHandle.nullDevice
        python.standardError = FileHandle.nullDevice
        guard (try? python.run()) != nil,
            ({
                python.waitUntilExit(); return python.terminationStatus == 0
            })()
        else {
            print("skipped: python3 is not installed (apt install python3); the page's example backend needs it")
            return
        }
        let commands = try Self.commands()
        #expect(commands.first == "paycheck init --merchant mollie shop-check")
        #expect(commands.contains { $0.hasPrefix("paycheck run --contract") })
        let cli = try CLI(files: [:])
        let path = CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for command in commands {
            let line = command.replacingOccurrences(of: "path/to/paycheck", with: Self.root.path)
            let result = try cli.shell(line, environment: ["PATH": path, "PAYCHECK_PACKS": Self.root.appendingPathComponent("Packs").path])
            #expect(result.status == 0, "\(line)\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(2000))")
            if result.status != 0 { return }
        }
        let report = try cli.read("Reports/report.json")
        #expect(report.contains("\"verdict\": \"conformant\""), "\(report.prefix(400))")
        #expect(try cli.read("shop-check/contract.yaml").contains("command: python3 shop.py"))
    }
}

// A backend that does not come up (exit 3, its output masked, every report saying the run could not start) and a
// `merchant:` step without --contract (exit 2, located) are the golden cases `Tests/Cases/merchant-backend-fails` and
// `Tests/Cases/merchant-no-contract`.

extension CLI {
    /// Runs the command line `shell` with `/bin/sh -c` in the folder.
    func shell(_ shell: String, environment: [String: String]) throws -> Output {
        try self.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", shell], environment: environment)
    }
}
