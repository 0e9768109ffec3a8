import ArgumentParser
import PayCheckRunner

/// `paycheck version`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the PayCheck version.")

    func run() {
        Output().out("paycheck \(payCheckVersion)")
    }
}
