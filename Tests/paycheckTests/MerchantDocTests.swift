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

@Suite("paycheck run --contract: the backend's lifecycle")
struct MerchantCLITests {
    static let contract = """
        contract: broken
        backend:
          url: "http://127.0.0.1:{{ port }}"
          start: { command: "echo the database is down; exit 4", health: /health, timeout: 5s }
        checkout: { request: { method: POST, url: /orders }, order: id }
        order: { request: { url: "/orders/{{ order.id }}" }, state: status, states: { paid: succeeded } }
        """

    static let suite = """
        suite: merchant
        provider: mollie
        cases:
          - name: checkout
            steps:
              - merchant: checkout
        """

    @Test("a backend that does not come up is exit 3 with its output, and the reports say the run could not start")
    func backendDown() throws {
        let cli = try CLI(files: ["contract.yaml": Self.contract, "pack/merchant.yaml": Self.suite])
        let run = try cli.run(["run", "--contract", "contract.yaml", "pack"])
        #expect(run.status == 3, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("exited with status 4") && run.stderr.contains("the database is down"), "\(run.stderr)")
        #expect(try cli.read("Reports/report.json").contains("\"verdict\": \"could not run\""))
    }

    @Test("a merchant: step without --contract is a located error before anything runs")
    func contractMissing() throws {
        let cli = try CLI(files: ["pack/merchant.yaml": Self.suite])
        let run = try cli.run(["run", "pack"])
        #expect(run.status == 2)
        #expect(
            run.stdout.contains("merchant.yaml:6:19: error: 'merchant: checkout' needs the merchant's backend: give --contract FILE")
                || run.stderr.contains("merchant.yaml:6:19: error: 'merchant: checkout' needs the merchant's backend: give --contract FILE"),
            "\(run.stdout)\n\(run.stderr)")
    }
}

extension CLI {
    /// Runs the command line `shell` with `/bin/sh -c` in the folder.
    func shell(_ shell: String, environment: [String: String]) throws -> Output {
        try self.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", shell], environment: environment)
    }
}
