import Foundation
import PayCheckCore
import PayCheckProviders

/// Runs the steps of one case in order, with its own variables, recorder and redactor.
struct CaseExecutor {
    /// The runner (configuration, providers, transport, clock).
    let runner: Runner
    /// The suite the case belongs to.
    let suite: Suite
    /// The case being run.
    let testCase: Case
    /// Where the target serves things.
    let endpoints: Endpoints
    /// When the run timeout passes, on the runner's clock.
    let deadline: Date?
    /// Sends and records the case's exchanges, with the case's redactor.
    let recorder: ExchangeRecorder
    /// The case's variables: built-ins, vars, `--var` values and captures so far.
    var variables: [String: Value]
    /// Warnings for the run, such as a `secret: true` capture too short to be redacted.
    var warnings: [String] = []
    /// Runs the `merchant:` steps and watches a merchant case's steps, when the run has a contract.
    let merchant: MerchantExecutor?

    /// Where the current target serves things.
    struct Endpoints: Sendable {
        /// The mock host base URL (control API), if the target has one.
        var controlURL: String?
        /// The provider's API base URL, for provider suites.
        var providerURL: String?
        /// The provider's credentials on this target.
        var credentials: [String: String]
        /// The time limit of one exchange on this target for this provider, when a profile sets one.
        var timeout: Double?
    }

    init(runner: Runner, suite: Suite, testCase: Case, endpoints: Endpoints, deadline: Date?, redactor: Redactor, merchant: MerchantTarget? = nil) {
        self.runner = runner
        self.suite = suite
        self.testCase = testCase
        self.endpoints = endpoints
        self.deadline = deadline
        let recorder = ExchangeRecorder(transport: runner.transport, redactor: redactor)
        self.recorder = recorder
        self.merchant = merchant.map { target in
            MerchantExecutor(runner: runner, target: target, providerID: suite.provider ?? "", controlURL: endpoints.controlURL, recorder: recorder)
        }
        var builtins: [String: Value] = [
            "target": .object([
                "kind": .string(runner.configuration.target.kind),
                "name": .string(runner.configuration.target.description),
                "providerUrl": .string(endpoints.providerURL ?? ""),
            ])
        ]
        if let control = endpoints.controlURL { builtins["mock"] = .object(["url": .string(control)]) }
        for (name, value) in runner.configuration.secrets { builtins[name] = .string(value) }
        self.variables = builtins
    }

    var renderer: TemplateRenderer {
        let (clock, offset) = (runner.clock, runner.nowOffset)
        return TemplateRenderer(
            variables: variables, environment: runner.configuration.environment, now: { clock.now().addingTimeInterval(offset) }, random: runner.random)
    }

    /// Runs the case and returns its steps and verdict (before xfail is applied). The steps' exchanges are as sent and
    /// received: ``redactExchanges(of:)`` redacts those a report or a recording keeps.
    mutating func run() async -> (Verdict, [StepResult]) {
        await runSteps()
    }

    /// Redacts the exchanges of `steps` with every secret the case knows by its end, also those captured from a
    /// response after an exchange was recorded. Done once per kept case rather than per exchange as it is recorded:
    /// most passing cases' transcripts are dropped, and redacting them was an eighth of the runner's CPU
    /// (docs/benchmarks.md).
    func redactExchanges(of steps: inout [StepResult]) {
        let redactor = recorder.redactor
        for index in steps.indices where !steps[index].exchanges.isEmpty {
            steps[index].exchanges = steps[index].exchanges.map(redactor.redact)
        }
    }

    /// Runs the steps in order until one does not pass.
    mutating func runSteps() async -> (Verdict, [StepResult]) {
        var results: [StepResult] = []
        if let setup = bindVariables() {
            return (.error, [setup])
        }
        var cursor = await merchant?.start(testCase)
        for step in testCase.steps {
            if Task.isCancelled {
                results.append(StepResult(name: redacted(step.summary), location: step.location, issue: cancellationIssue))
                return (.error, results)
            }
            var result = await execute(step)
            await merchant?.observe(step, into: &result, after: results, cursor: &cursor, renderer: renderer)
            results.append(result)
            if result.verdict != .passed { return (result.verdict, results) }
        }
        return (.passed, results)
    }

    /// Evaluates suite vars, case vars and `--var` overrides; returns an error step when one fails.
    mutating func bindVariables() -> StepResult? {
        for binding in suite.vars + testCase.vars {
            if let overridden = runner.configuration.variables[binding.name] {
                variables[binding.name] = overridden
                if binding.value.isDeclaredString, let text = runner.configuration.variableTexts[binding.name] {
                    variables[binding.name] = .string(text)
                }
                continue
            }
            // `--secret name=value` overrides a suite variable of the same name, as `--var` does.
            if let secret = runner.configuration.secrets[binding.name] {
                variables[binding.name] = .string(secret)
                continue
            }
            do {
                variables[binding.name] = try renderer.render(binding.value)
            } catch {
                return StepResult(name: "vars", location: error.location, issue: .invalidStep(StepProblem(.template, redacted(message(error)))))
            }
        }
        let bound = Set((suite.vars + testCase.vars).map(\.name))
        for (name, value) in runner.configuration.variables where !bound.contains(name) { variables[name] = value }
        return nil
    }

    func message(_ error: TemplateRenderer.RenderError) -> String {
        error.hint.map { "\(error.message) (\($0))" } ?? error.message
    }

    func redacted(_ text: String) -> String { recorder.redactor.redact(text) }

    /// Runs one step, retrying when it has a `retry:` policy.
    mutating func execute(_ step: Step) async -> StepResult {
        if let local = await performLocal(step) { return local }
        let started = runner.clock.now()
        let wallStart = DispatchTime.now().uptimeNanoseconds
        var attempts = 0
        var last: Attempt
        /// Set when the run deadline, not the retry budget, ended the retries.
        var cutByDeadline = false
        repeat {
            attempts += 1
            last = await attempt(step)
            guard let retry = step.retry, last.issue == nil || last.isTransport else { break }
            let condition = retry.until ?? step.expect
            var conditionHolds = last.issue == nil
            if conditionHolds, let condition, let observation = last.observation {
                conditionHolds = (try? ExpectationEvaluator(renderer: renderer).evaluate(condition, against: observation))?.isEmpty ?? false
            }
            if conditionHolds { break }
            let elapsed = runner.clock.now().timeIntervalSince(started)
            if elapsed + retry.every > retry.within { break }
            if let deadline, runner.clock.now().addingTimeInterval(retry.every) > deadline {
                cutByDeadline = true
                break
            }
            do {
                try await runner.clock.sleep(seconds: retry.every)
            } catch {
                cutByDeadline = runTimeoutMessage != nil
                break
            }
        } while true
        var result = finish(step, last)
        result.attempts = attempts
        result.duration = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        switch result.issue {
        case .transport?, .couldNotRun?, .interrupted?:
            // The run deadline passed while the step ran: that, not the step's own failure, is why it ended.
            if let timeout = runTimeoutMessage { result.issue = .runTimeout(StepProblem(.whileStepRan, timeout + (result.error.map { " (\($0))" } ?? ""))) }
        case nil, .mismatches?, .runTimeout?, .invalidStep?, .findings?:
            break
        }
        if cutByDeadline, let issue = result.issue, issue.verdict == .failed || !result.invalidStep, !result.isRunTimeout {
            // The retry budget was not used up: the run timeout stopped it, which says nothing about conformance.
            let limit = runner.configuration.runTimeout.map { " (\(Value.format($0))s)" } ?? ""
            result.issue = .runTimeout(
                StepProblem(.endedRetries, "timed out: the run timeout\(limit) ended the retries after \(attempts) attempts" + (result.error.map { " (\($0))" } ?? "")))
            return result
        }
        if attempts > 1, result.verdict != .passed, let retry = step.retry {
            result.issue = result.issue?.mapMessage { "\($0) (after \(attempts) attempts over \(Value.format(retry.within))s)" }
        }
        return result
    }

    /// The raw outcome of one attempt.
    struct Attempt {
        var observation: Observation?
        /// Why the attempt got no observation.
        var issue: StepIssue?
        /// Where the issue is, when not the step (a template inside it).
        var issueLocation: SourceLocation?
        var exchanges: [Exchange] = []

        /// Whether the exchange never completed: the one failure a `retry:` tries again.
        var isTransport: Bool {
            if case .transport? = issue { true } else { false }
        }
    }

    /// Performs the step's action once.
    func attempt(_ step: Step) async -> Attempt {
        var attempt = Attempt()
        do {
            attempt.observation = try await perform(step)
        } catch let error as TemplateRenderer.RenderError {
            attempt.issue = Task.isCancelled ? cancellationIssue : .invalidStep(StepProblem(.template, message(error)))
            attempt.issueLocation = error.location
        } catch let error as TransportError {
            attempt.issue = .transport(error)
        } catch let error as ProviderError {
            switch error.kind {
            case .invalidStep: attempt.issue = .invalidStep(StepProblem(.step, error.message))
            case .couldNotRun: attempt.issue = .couldNotRun(StepProblem(.provider, error.message))
            case .nonConformance(let expected):
                attempt.issue = .mismatches([
                    Mismatch(
                        location: step.location, subject: step.merchant != nil ? MerchantExecutor.answerSubject : "provider answer",
                        expected: .words(expected), actual: .words(error.message), kind: .nonConformance)
                ])
            }
        } catch is CancellationError {
            attempt.issue = cancellationIssue
        } catch {
            attempt.issue = .couldNotRun(StepProblem(.unexpected, String(describing: error)))
        }
        attempt.exchanges = recorder.takeExchanges()
        // What the adapter read, where it says it is not the answer's body (MIT decrypts it): kept on the answer's exchange.
        if let read = attempt.observation?.readAs, let last = attempt.exchanges.lastIndex(where: { $0.status != nil }) {
            attempt.exchanges[last].readBody = ExchangeRecorder.text(Array(read.utf8))
        }
        return attempt
    }

    /// Turns the last attempt into a step result: expectations, then captures.
    mutating func finish(_ step: Step, _ attempt: Attempt) -> StepResult {
        var result = StepResult(name: redacted(title(step)), location: step.location, exchanges: attempt.exchanges)
        switch attempt.issue {
        case nil:
            guard let observation = attempt.observation else { return result }
            return self.evaluate(step, observation, into: result)
        case .transport(let error)?:
            // A transport failure is class S (DESIGN.md §3): a step that expects an S-class error checks it like any
            // answer. Any other step whose exchange never completed is one error with its cause, never a list of
            // failed expectations (a missing status, a class that is not the expected one).
            if let expect = step.expect {
                var observation = Observation(status: nil)
                observation.error = ObservedError(errorClass: .S, code: error.cause.serviceCode, message: redacted(error.message))
                if self.expectsServiceError(expect, observation) { return self.evaluate(step, observation, into: result) }
            }
            result.issue = .transport(error).mapMessage(redacted)
        case .mismatches(let mismatches)?:
            result.issue = .mismatches(mismatches.map(redacted))
        case let issue?:
            result.issue = issue.mapMessage(redacted)
            if let location = attempt.issueLocation { result.location = location }
        }
        return result
    }

    /// A mismatch with its expected and actual values redacted: a value a secret shows in becomes its masked words.
    func redacted(_ mismatch: Mismatch) -> Mismatch {
        var mismatch = mismatch
        let expected = redacted(mismatch.expected.text)
        if expected != mismatch.expected.text { mismatch.expected = .words(expected) }
        let actual = redacted(mismatch.actual.text)
        if actual != mismatch.actual.text { mismatch.actual = .words(actual) }
        return mismatch
    }

    /// Whether `expect` asks for an error whose class the transport failure in `observation` (class S) has.
    func expectsServiceError(_ expect: Expectations, _ observation: Observation) -> Bool {
        let classChecks = expect.error.filter { $0.field == "class" }
        guard !classChecks.isEmpty else { return false }
        let classOnly = Expectations(error: classChecks, location: expect.location)
        return (try? ExpectationEvaluator(renderer: renderer).evaluate(classOnly, against: observation))?.isEmpty == true
    }

    /// Checks an observation against the step's expectations, then captures.
    mutating func evaluate(_ step: Step, _ observation: Observation, into result: StepResult) -> StepResult {
        var result = result
        for (name, value) in observation.defines { variables[name] = value }
        result.outcome = observation.outcome
        result.nativeState = observation.nativeState
        if let e = observation.error {
            result.errorCode = ProviderErrorCode(e.errorClass, e.code)
            result.providerError = redacted("\(e.code): \(e.message)")
        }
        let evaluator = ExpectationEvaluator(renderer: renderer)
        do {
            var mismatches: [Mismatch] = []
            if let until = step.retry?.until { mismatches += try evaluator.evaluate(until, against: observation) }
            if let expect = step.expect { mismatches += try evaluator.evaluate(expect, against: observation) }
            if runner.configuration.replay != nil {
                // A value the recording redacted cannot be checked on a replay; it is left out, and the run says so.
                let unchecked = mismatches.filter { $0.actual.text.contains(Redactor.mask) }
                mismatches.removeAll { $0.actual.text.contains(Redactor.mask) }
                for mismatch in unchecked {
                    warnings.append("\(mismatch.location): \(mismatch.subject) was not checked on the replay: the recording redacted it")
                }
            }
            if !mismatches.isEmpty, runner.configuration.target.live != nil, let failure = observation.error, failure.errorClass == .S {
                // A service failure (429, 5xx, an unreadable answer) that outlasted the live target's retries is not a
                // conformance verdict (DESIGN.md §3: class S): the step could not run.
                let status = observation.status.map { "HTTP \($0), " } ?? ""
                result.issue = .couldNotRun(
                    StepProblem(
                        .serviceFailed,
                        redacted(
                            "the provider's service failed (\(status)class S, \(failure.code)) after this target's retries, so the step's "
                                + "expectations were not checked: " + mismatches.map(\.message).joined(separator: "; "))))
                return result
            }
            if !mismatches.isEmpty {
                // In the order they are written in the suite, so a report reads top to bottom like the file.
                result.issue = .mismatches(
                    mismatches.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
                        .map(redacted))
                return result
            }
        } catch {
            result.issue = Task.isCancelled ? cancellationIssue : .invalidStep(StepProblem(.template, redacted(message(error))))
            result.location = error.location
            return result
        }
        for capture in step.captures {
            guard let value = captured(capture, from: observation) else {
                result.issue = .mismatches([
                    Mismatch(
                        location: capture.location, subject: "capture \(capture.name)", expected: .words("a value at \(describe(capture.source))"),
                        actual: .value(nil), kind: .capture)
                ])
                return result
            }
            variables[capture.name] = value
            if capture.secret {
                if !recorder.addSecret(value.interpolated) {
                    warnings.append(
                        "\(testCase.location.file): case '\(testCase.name)': the secret capture '\(capture.name)' is shorter than "
                            + "\(Redactor.minimumSecretLength) characters and cannot be redacted safely: it may appear in clear in the output and reports")
                }
            }
        }
        return result
    }

    func captured(_ capture: Capture, from observation: Observation) -> Value? {
        switch capture.source {
        case .status: return observation.status.map(Value.int)
        case .outcome: return observation.outcome.map { .string($0.rawValue) }
        case .header(let name): return observation.header(name).map(Value.string)
        case .body(let path):
            if path.components.isEmpty { return observation.body ?? .string(observation.rawBody) }
            return observation.body.flatMap { path.lookup(in: $0) }
        case .regex(let pattern):
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
            let text = observation.rawBody
            guard let match = try? BoundedRegex.firstMatch(regex, in: text) else { return nil }
            let group = match.numberOfRanges > 1 ? 1 : 0
            guard let range = Range(match.range(at: group), in: text) else { return nil }
            return .string(String(text[range]))
        }
    }

    func describe(_ source: Capture.Source) -> String {
        switch source {
        case .status: "status"
        case .outcome: "outcome"
        case .header(let name): "header \(name)"
        case .body(let path): path.components.isEmpty ? "body" : "body.\(path)"
        case .regex(let pattern): "regex '\(pattern)'"
        }
    }

    /// Seconds one exchange of this step may take, within the run deadline.
    func timeout(for step: Step) -> Double {
        var seconds = step.timeout ?? endpoints.timeout ?? runner.configuration.stepTimeout
        if let deadline { seconds = min(seconds, max(0.001, deadline.timeIntervalSince(runner.clock.now()))) }
        return seconds
    }

    /// The error of a step stopped by the run timeout, once the deadline has passed; `nil` before.
    var runTimeoutMessage: String? {
        guard let deadline, runner.clock.now() >= deadline else { return nil }
        let limit = runner.configuration.runTimeout.map { " (\(Value.format($0))s)" } ?? ""
        return "timed out: the run timeout\(limit) was reached while this step ran"
    }

    /// The issue of a step that was cancelled: the run timeout's, or a plain interruption.
    var cancellationIssue: StepIssue {
        runTimeoutMessage.map { .runTimeout(StepProblem(.whileStepRan, $0)) } ?? .interrupted(StepProblem(.stopped, "interrupted: the run was stopped"))
    }

    /// The step's title for reports: its `name:`, or its summary with the templates of an `http:` step rendered
    /// (`http GET http://127.0.0.1:8080/kv/7` rather than `… {{ mock.url }}/kv/{{ key }}`); redacted by the caller.
    func title(_ step: Step) -> String {
        guard step.name == nil, case .http(let http) = step.kind,
            let method = try? renderer.renderString(http.method), let url = try? renderer.renderString(http.url)
        else { return step.summary }
        return "http \(method.uppercased()) \(url)"
    }
}
