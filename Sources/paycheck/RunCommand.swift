import ArgumentParser
import AsyncHTTPClient
import Foundation
import PayCheckCommands
import PayCheckCore
import PayCheckSession
import PayCheckProviders
import PayCheckReports
import PayCheckRunner

/// `paycheck run`: the main job.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run suites and write JUnit, JSON and HTML reports (the default command).",
        discussion: HelpText.reflow(
            """
            Targets: 'mock' (default) starts an embedded mock of every provider on 127.0.0.1;
            'sandbox' uses each provider's documented sandbox with credentials from
            PAYCHECK_<PROVIDER>_<FIELD> environment variables (a provider without any is skipped, and
            the run is then not green; one with only some of them set is a configuration error);
            'url=http://host:port' uses a standalone `paycheck mock` or any server with its layout. A
            target profile (--profile, or paycheck.yaml in the current folder) names more live targets,
            each with per-provider base URLs, credentials as ${ENV_VAR} references, time and rate limits
            and TLS; `paycheck targets` shows what a run would use.

            Exit codes: 0 all passed · 1 conformance failures · 2 invalid suite, usage or configuration ·
            3 could not run (errors win over failures) · 4 nothing was checked (no case ran;
            --allow-empty makes that 0), or, with --require-all-providers, a selected provider had no
            credentials for the live target. Without that flag a run that checked some providers exits by
            their cases and names the others.
            """))

    @OptionGroup var suites: SuiteOptions

    @Option(name: .long, help: ArgumentHelp("mock, sandbox, a target of the profile, or url=<base URL>.", valueName: "target"))
    var target: String = "mock"

    @OptionGroup var profile: ProfileOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record every exchange of a live run, case by case, redacted as the reports are, into this folder; '--target replay=DIR' replays it offline.", valueName: "dir"))
    var record: String?

    @Option(name: [.short, .long], help: "Cases to run at once (default: the number of cores).")
    var jobs: Int?

    /// `--jobs`, or the number of cores.
    var jobCount: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "Set a variable (overrides suite vars; one the suite declares as text stays text, so --var amount=10.50 keeps its zero). Repeatable.", valueName: "name=value"))
    var variables: [String] = []

    @Option(name: .customLong("secret"), help: ArgumentHelp("Set a secret variable, redacted from every output. Repeatable.", valueName: "name=value"))
    var secrets: [String] = []

    @Option(name: .customLong("tag"), help: "Run only cases with this tag. Repeatable.")
    var tags: [String] = []

    @Option(name: .customLong("skip-tag"), help: "Leave out cases with this tag. Repeatable.")
    var skipTags: [String] = []

    @Option(name: .long, help: "Run only cases whose 'suite › case' name or file contains this text.")
    var filter: String?

    @Option(name: .long, help: ArgumentHelp("Run shard k of n (1-based), e.g. 2/4, for splitting across CI jobs.", valueName: "k/n"))
    var shard: String?

    @Flag(name: .long, help: "Stop starting cases after the first failure or error.")
    var failFast = false

    @Flag(name: .long, help: "Let a run that checked nothing (every case skipped) exit 0.")
    var allowEmpty = false

    @Flag(
        name: .long,
        help:
            "Exit 4 when a selected provider could not be checked (no credentials for the live target); by default the run exits by the cases that ran and names the providers it did not check."
    )
    var requireAllProviders = false

    @Option(name: .long, help: ArgumentHelp("Default time limit of one HTTP exchange (e.g. 30s, 500ms).", valueName: "duration"))
    var timeout: String = "30s"

    @Option(name: .long, help: ArgumentHelp("Time limit of the whole run (e.g. 10m).", valueName: "duration"))
    var runTimeout: String?

    @OptionGroup(title: "Reports and CI") var reports: ReportOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The control token a standalone mock started with --allow-remote printed (default: PAYCHECK_CONTROL_TOKEN); redacted from every output.", valueName: "token"))
    var controlToken: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The mock-clock scope of this run (default: a fresh one per run). Give a backend you started yourself http://HOST:PORT/__paycheck/scope/<scope> as the provider's address, and this run shares its clock with it.",
            valueName: "scope"))
    var clockScope: String?

    @Flag(name: .long, help: "Let --target sandbox use live credentials (e.g. a Mollie live_ key), whose payments are real.")
    var allowLive = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Identifies the run across its shards, for 'paycheck merge' (default: the CI's run id: GITHUB_RUN_ID, CI_PIPELINE_ID, CIRCLE_WORKFLOW_ID or BUILD_TAG).",
            valueName: "id"))
    var runId: String?

    @Option(name: .long, help: ArgumentHelp("Which cases keep their request/response transcripts in the reports: failed (default), all, none.", valueName: "which"))
    var transcripts: TranscriptPolicy = .failed

    @Flag(name: [.short, .long], help: "Print only failures and the summary.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Print every case as it finishes.")
    var verbose = false

    func validate() throws {
        guard
            Target(parsing: target) != nil || (target.hasPrefix("replay=") && target.count > 7)
                || (!target.isEmpty && target.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }))
        else {
            throw ValidationError("--target must be 'mock', 'sandbox', a target of the profile, 'url=http(s)://host:port' or 'replay=DIR', got '\(target)'")
        }
        if let jobs, !(1...512).contains(jobs) { throw ValidationError("--jobs must be between 1 and 512, got \(jobs)") }
        _ = try parsedShard()
        _ = try RunCommand.positiveDuration(timeout, flag: "--timeout", example: "30s")
        if let runTimeout { _ = try RunCommand.positiveDuration(runTimeout, flag: "--run-timeout", example: "10m") }
        for pair in variables + secrets where RunCommand.split(pair) == nil {
            throw ValidationError("'\(pair)' is not name=value")
        }
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
        if let clockScope,
            clockScope.isEmpty || clockScope.count > 128
                || !clockScope.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.:".unicodeScalars.contains($0)) })
        {
            throw ValidationError("--clock-scope must be 1 to 128 letters, digits or '-_.:', got '\(clockScope)'")
        }
    }

    /// A `run` whose command line did not parse or validate: the reports at the paths it names (or the default ones)
    /// are replaced by reports of a refused run that say `message`, so a CI job never publishes the previous run's.
    static func refuseUnparsed(_ arguments: [String], message: String) {
        let valued = ["--report-junit", "--report-json", "--report-html", "--report-codequality"]
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--no-reports" || argument == "--junit-locations" || valued.contains(where: { argument.hasPrefix($0 + "=") }) {
                kept.append(argument)
            } else if valued.contains(argument), index + 1 < arguments.count {
                kept += [argument, arguments[index + 1]]
                index += 1
            }
            index += 1
        }
        guard let options = try? ReportOptions.parse(kept) else { return }
        var runId = ciRunId(environment: ProcessInfo.processInfo.environment)
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--run-id=") { runId = String(argument.dropFirst("--run-id=".count)) }
            if argument == "--run-id", index + 1 < arguments.count { runId = arguments[index + 1] }
        }
        let interruption = RunInterruption(files: options.files, target: .mock, runId: runId, output: Output())
        _ = try? interruption.refuse("the command line was refused: " + message)
    }

    func parsedShard() throws -> (Int, Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, (1...n).contains(k) else {
            throw ValidationError("--shard must be k/n with 1 ≤ k ≤ n, got '\(shard)'")
        }
        return (k, n)
    }

    /// Seconds in a positive duration flag, at most ten years.
    /// - Throws: `ValidationError` naming the flag and quoting the value.
    static func positiveDuration(_ text: String, flag: String, example: String) throws -> Double {
        do throws(DurationError) {
            return try DurationText.parsePositive(text)
        } catch  where error.problem == .outOfBounds {
            throw ValidationError("\(flag) \(error.message)")
        } catch {
            throw ValidationError("\(flag) must be a positive duration like \(example), got '\(text)'")
        }
    }

    static func split(_ pair: String) -> (String, String)? {
        guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else { return nil }
        return (String(pair[..<eq]), String(pair[pair.index(after: eq)...]))
    }

    /// A `--var` value: JSON scalars (numbers, booleans, null) keep their type; anything else is text.
    static func value(_ text: String) -> Value {
        if let parsed = JSONText.parse(text) {
            switch parsed {
            case .int, .double, .bool, .null: return parsed
            default: break
            }
        }
        return .string(text)
    }

    func configuration(environment: [String: String], target: Target) throws -> RunConfiguration {
        var configuration = RunConfiguration()
        configuration.target = target
        configuration.jobs = jobCount
        for pair in variables {
            if let (k, v) = RunCommand.split(pair) { (configuration.variables[k], configuration.variableTexts[k]) = (RunCommand.value(v), v) }
        }
        for pair in secrets { if let (k, v) = RunCommand.split(pair) { configuration.secrets[k] = v } }
        configuration.tags = tags
        configuration.skipTags = skipTags
        configuration.filter = filter
        configuration.shard = try parsedShard().map { (index: $0.0, count: $0.1) }
        configuration.failFast = failFast
        configuration.allowEmpty = allowEmpty
        configuration.requireAllProviders = requireAllProviders
        configuration.stepTimeout = try RunCommand.positiveDuration(timeout, flag: "--timeout", example: "30s")
        configuration.runTimeout = try runTimeout.map { try RunCommand.positiveDuration($0, flag: "--run-timeout", example: "10m") }
        configuration.environment = environment
        configuration.transcripts = transcripts
        configuration.runId = runId ?? RunCommand.ciRunId(environment: environment)
        configuration.allowLive = allowLive
        configuration.clockScope = clockScope
        configuration.controlToken = controlToken ?? environment["PAYCHECK_CONTROL_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return configuration
    }

    func run() async throws {
        let output = Output(keepingErrors: true)
        let environment = ProcessInfo.processInfo.environment
        let colored = suites.colored(environment: environment)
        // From the first step a signal never leaves reports that could be taken for this run's (``RunInterruption``),
        // and no configuration error leaves the previous run's: the baseline is read first, since it may be the JSON
        // report this run replaces, then the old reports go, then the options and the profile are read.
        let interruption = RunInterruption(
            files: reports.files, target: Target(parsing: target) ?? .mock, runId: runId ?? RunCommand.ciRunId(environment: environment), output: output)
        interruption.watch()
        let previous: RunResult?
        var configuration: RunConfiguration
        do {
            previous = try reports.readBaseline(output: output)
            interruption.removeStaleReports()
            let profile = try self.profile.load(output: output, colored: colored)
            let resolved = target.hasPrefix("replay=") ? Target.sandbox : try ProfileOptions.resolve(target, profile: profile, output: output)
            interruption.resolved(resolved)
            configuration = try self.configuration(environment: environment, target: resolved)
            if target.hasPrefix("replay=") { try Self.replay(String(target.dropFirst(7)), into: &configuration, output: output) }
            if record != nil {
                guard configuration.target.live != nil, configuration.replay == nil else {
                    output.err("error: --record records a live target (sandbox or a profile's target); '\(target)' is not one")
                    throw ExitCode(2)
                }
                configuration.recording = RunRecording()
            }
            interruption.resolved(configuration.target)
        } catch let error as ExitCode {
            guard error == ExitCode(2) else { throw error }
            throw try interruption.refuse(output.errorText)
        } catch {
            output.err("error: \(error)")
            throw try interruption.refuse(output.errorText)
        }
        var loaded = suites.load(external: Set(configuration.variables.keys).union(configuration.secrets.keys))
        let contract = suites.loadContract(into: &loaded)
        if output.report(loaded, colored: colored) {
            // The reports describe this run too: one errored case per file that does not load.
            let problems = loaded.diagnostics.filter { $0.severity == .error }.map { (file: $0.location?.file ?? "suites", message: $0.description) }
            let written = try interruption.write(.refused(problems, target: configuration.target))
            throw ExitCode(written.interrupted ? 130 : 2)
        }
        let progress = ProgressStyle.detect(isTerminal: isatty(STDOUT_FILENO) == 1)
        let console = ConsoleReporter(colored: colored, verbose: verbose, quiet: quiet, progress: progress, write: { output.raw($0) })
        var session = RunSession.builtIn(configuration: configuration)
        session.contract = contract
        session.findingGate = reports.failOn.findingThreshold
        let suites = loaded.suites
        let result: RunResult
        do {
            result = try await interruption.run { [session] in try await session.run(suites, onEvent: console.handle) }
        } catch RunSessionError.backend(let message) {
            // The merchant's backend did not come up: the run could not happen (exit 3), the reports say why.
            output.err("error: \(message)")
            let written = try interruption.write(
                .refused([(file: self.suites.contract ?? "contract", message: message)], target: configuration.target, invalidInput: false))
            throw ExitCode(written.interrupted ? 130 : 3)
        } catch let error as RunSessionError {
            output.err("error: \(error)")
            let written = try interruption.write(.refused([(file: "configuration", message: error.description)], target: configuration.target))
            throw ExitCode(written.interrupted ? 130 : 2)
        } catch is CancellationError {
            // A signal while the run was starting (the mock, the backend): no case ran.
            _ = try interruption.write(.interruptedBeforeCases(while: "the run was starting", target: configuration.target))
            throw ExitCode(130)
        }
        if let record, let recording = configuration.recording, let live = configuration.target.live {
            let providers = ProfileOptions.providers
            let header = RecordingFile.Header(
                target: live.name, recordedAt: result.startedAt, version: payCheckVersion,
                baseURLs: Dictionary(uniqueKeysWithValues: providers.all.map { ($0.id, live.baseURL(for: $0)) }))
            do {
                try RecordingFile.write(recording.all, header: header, to: record)
                // What was recorded is what ran: a skipped case has no exchange to replay.
                let ran = recording.all.count { $0.verdict != .skipped }
                let skipped = recording.all.count - ran
                output.err("recorded \(ran) case(s) that ran into \(record)" + (skipped > 0 ? " (\(skipped) skipped, kept as skipped)" : ""))
            } catch {
                output.err("error: cannot write the recording into '\(record)': \(error)")
                throw ExitCode(2)
            }
        }
        var finished = result
        finished.context = RunCommand.ciContext(environment: environment)
        reports.applyBaseline(to: &finished, previous: previous)
        finished = try interruption.write(finished)
        reports.annotate(finished, output: output, environment: environment)
        output.raw(ConsoleReporter(colored: colored, verbose: verbose, quiet: quiet, write: { _ in }).summary(finished))
        throw ExitCode(finished.exitCode)
    }

    /// Makes `configuration` replay the recording in `directory`: a live target on the recorded base URLs whose answers
    /// come from the recording.
    /// - Throws: exit 2 when the folder is not a readable recording.
    static func replay(_ directory: String, into configuration: inout RunConfiguration, output: Output) throws {
        do {
            let (header, cases) = try RecordingFile.read(directory)
            configuration.replay(cases, from: directory, baseURLs: header.baseURLs)
        } catch {
            output.err("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// The commit, branch and CI job of the run, from the CI's variables (GitHub Actions, GitLab CI, CircleCI,
    /// Jenkins), for the HTML report's environment panel; empty outside CI.
    static func ciContext(environment: [String: String]) -> [(label: String, value: String)] {
        func first(_ keys: [String]) -> String? { keys.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } }
        var context: [(label: String, value: String)] = []
        if let commit = first(["GITHUB_SHA", "CI_COMMIT_SHA", "CIRCLE_SHA1", "GIT_COMMIT"]) { context.append(("commit", commit)) }
        if let branch = first(["GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "CIRCLE_BRANCH", "GIT_BRANCH"]) { context.append(("branch", branch)) }
        var job = first(["CI_JOB_URL", "CIRCLE_BUILD_URL", "BUILD_URL"])
        if job == nil, let server = environment["GITHUB_SERVER_URL"], let repository = environment["GITHUB_REPOSITORY"],
            let run = environment["GITHUB_RUN_ID"]
        {
            job = "\(server)/\(repository)/actions/runs/\(run)"
        }
        if let job { context.append(("CI job", job)) }
        return context
    }

    /// The CI's id of the current pipeline run, shared by its shard jobs; empty outside CI.
    static func ciRunId(environment: [String: String]) -> String {
        for key in ["GITHUB_RUN_ID", "CI_PIPELINE_ID", "CIRCLE_WORKFLOW_ID", "BUILD_TAG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return ""
    }
}

extension TranscriptPolicy: ExpressibleByArgument {}
