import ArgumentParser
import Foundation
import PayCheckCommands
import PayCheckCore
import PayCheckProviders
import PayCheckReports
import PayCheckRunner
import PayCheckSession

/// `paycheck drift DIR`: does the mock still answer like the live API a recording was made against?
struct DriftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drift",
        abstract: "Compare a recording of a live run with the mock, and report where the mock has drifted.",
        usage: "paycheck drift <dir> [<paths> ...] [<options>]",
        discussion: HelpText.reflow(
            """
            Runs the recorded suites again, through the same live code path and with the random numbers the
            recording drew, against an embedded mock, and compares each case that ran in both, exchange by
            exchange: status codes, the answers' field names and types, and their values (enum values,
            error codes, the states a payment moves through). What legitimately changes between two runs
            — ids, timestamps, signatures, URLs with their host, free-text messages — is left out by each
            provider's noise rules (`driftNoise`, next to its adapter). Prints every difference by
            provider, operation and field.

            Exit codes: 0 no drift · 1 the mock drifted · 2 not a recording, or an invalid suite.
            """))

    @Argument(help: ArgumentHelp("The recording (paycheck run --record DIR).", valueName: "dir"))
    var recording: String

    @Argument(help: ArgumentHelp("The suites to run (default: the files the recording lists).", valueName: "paths"))
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Write the differences as JSON.", valueName: "file"))
    var reportJson: String?

    @Option(name: .long, help: ArgumentHelp("Write the differences as an HTML page.", valueName: "file"))
    var reportHtml: String?

    func run() async throws {
        let output = Output()
        let (header, cases): (RecordingFile.Header, [RunRecording.Case])
        do {
            (header, cases) = try RecordingFile.read(recording)
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
        let providers = ProfileOptions.providers
        let files = paths.isEmpty ? Array(Set(cases.map(\.file))).sorted() : paths
        let loaded = SuiteLoader(catalog: providers).load(paths: files)
        if output.report(loaded, colored: false) { throw ExitCode(2) }

        let current = try await RunSession.rerunOnMock(loaded.suites, recorded: cases, directory: recording)
        let report = DriftReport.compare(recorded: cases, mock: current) { id in providers[id]?.driftNoise ?? [] }

        output.out(
            "Recording of '\(header.target)' (recorded \(header.recordedAt.formatted(.iso8601))) against the mock: "
                + "\(report.casesCompared) case(s), \(report.exchangesCompared) exchange(s) compared.")
        for entry in report.entries {
            output.out("  \(entry.provider)  \(entry.operation)  \(entry.field): \(entry.kind) — recorded \(entry.recorded), mock \(entry.mock)  (\(entry.example))")
        }
        for line in report.notCompared { output.out("  not compared: \(line)") }
        for (path, text) in [(reportJson, JSONText.encode(report.json, pretty: true) + "\n"), (reportHtml, report.html)] {
            guard let path else { continue }
            do {
                try ReportFile.write(to: path) { emit in emit(Array(text.utf8)) }
            } catch {
                output.err("error: cannot write '\(path)': \(error)")
                throw ExitCode(2)
            }
        }
        output.out(report.drifted ? "exit 1: the mock drifted in \(report.entries.count) place(s)" : "exit 0: no drift")
        throw ExitCode(report.drifted ? 1 : 0)
    }
}
