import Foundation
import PayCheckCore
import PayCheckReports
import PayCheckRunner
import PayCheckTestSupport
import Testing

/// Collects every string of a result, to prove a secret appears nowhere.
func allText(_ result: RunResult) -> String {
    var out = [result.target]
    for suite in result.suites {
        for c in suite.cases {
            out.append(c.name)
            out.append(c.skipReason?.description ?? "")
            for step in c.steps {
                out += [step.name, step.error ?? ""]
                out += step.mismatches.flatMap { [$0.expected.text, $0.actual.text, $0.subject] }
                for e in step.exchanges {
                    out += [e.url, e.requestBody, e.responseBody, e.error ?? ""]
                    out += (e.requestHeaders + e.responseHeaders).map { "\($0.name): \($0.value)" }
                }
            }
        }
    }
    return out.joined(separator: "\n")
}

@Suite("Runner against the embedded mock host")
struct RunnerTests {
    @Test("a passing flow captures, chains and passes; events report every case and suite")
    func passingFlow() async throws {
        var configuration = RunConfiguration()
        configuration.transcripts = .all
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "flow.yaml",
                """
                suite: flow
                cases:
                  - name: store and read back
                    steps:
                      - http: { method: POST, url: "{{ mock.url }}/__paycheck/kv", json: { n: 1 } }
                        expect: { status: 201 }
                        capture: { key: body.id }
                      - http: { url: "{{ mock.url }}/__paycheck/kv/{{ key }}" }
                        expect: { status: 200, body: { value.n: 1 } }
                  - name: echo
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/x" }
                        expect: { body: { method: GET } }
                """
            )
        ])
        let (result, events) = try await run.run(suites)
        #expect(result.counts.passed == 2)
        #expect(result.exitCode == 0)
        #expect(events.filter { if case .caseFinished = $0 { true } else { false } }.count == 2)
        #expect(events.filter { if case .suiteFinished = $0 { true } else { false } }.count == 1)
        let exchange = try #require(result.suites[0].cases[0].steps[0].exchanges.first)
        #expect(exchange.method == "POST" && exchange.status == 201)

        // By default only failed and errored cases keep their exchanges, so memory does not grow with passing cases.
        let (lean, _) = try await InProcessRun().run(suites)
        #expect(lean.suites[0].cases.allSatisfy { $0.steps.allSatisfy(\.exchanges.isEmpty) })
        #expect(lean.suites[0].cases[0].steps.count == 2, "the steps themselves stay")
    }

    @Test("a wrong expectation fails with its location, expected and actual; exit code 1")
    func wrongExpectation() async throws {
        let run = InProcessRun()
        let suites = try run.load([
            (
                "wrong.yaml",
                """
                suite: wrong
                cases:
                  - name: status is not 200
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/x?status=404" }
                        expect:
                          status: 200
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let c = result.suites[0].cases[0]
        #expect(c.verdict == .failed)
        let mismatch = try #require(c.failingStep?.mismatches.first)
        #expect(mismatch.location == SourceLocation(file: "wrong.yaml", line: 7, column: 19))
        #expect(mismatch.expected.text == "200" && mismatch.actual.text == "404")
        #expect(result.exitCode == 1)
    }

    @Test("an unreachable URL is an error, not a failure; exit code 3")
    func unreachable() async throws {
        let run = InProcessRun()
        let suites = try run.load([
            (
                "down.yaml",
                """
                suite: down
                cases:
                  - name: nobody listens
                    steps:
                      - http: { url: "http://127.0.0.1:1/x" }
                        expect: { status: 200 }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        #expect(result.suites[0].cases[0].verdict == .error)
        #expect(result.suites[0].cases[0].failingStep?.error?.contains("http://127.0.0.1:1/x") == true)
        #expect(result.exitCode == 3)
    }

    @Test("retry outlasts injected faults using the virtual clock, without sleeping")
    func retryWithFaults() async throws {
        // One case at a time: both cases share the virtual clock, whose jumps would eat each other's budget.
        var configuration = RunConfiguration()
        configuration.jobs = 1
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "retry.yaml",
                """
                suite: retry
                cases:
                  - name: flaky route recovers
                    steps:
                      - mock: fault
                        with: { path: /__paycheck/echo/flaky, count: 3, kind: status, status: 503 }
                      - http: { url: "{{ mock.url }}/__paycheck/echo/flaky" }
                        retry: { every: 1m, for: 1h }
                        expect: { status: 200 }
                  - name: gives up after its time budget
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/never?status=500" }
                        retry: { every: 1s, for: 3s }
                        expect: { status: 200 }
                """
            )
        ])
        let clock = VirtualClock()
        let before = clock.now()
        let (result, _) = try await run.run(suites, clock: clock)
        let recovered = result.suites[0].cases[0]
        #expect(recovered.verdict == .passed, "\(recovered.steps.map { $0.error ?? "" })")
        #expect(recovered.steps.last?.attempts == 4)
        let gaveUp = result.suites[0].cases[1]
        #expect(gaveUp.verdict == .failed)
        #expect(gaveUp.steps[0].attempts == 4)
        #expect(clock.now().timeIntervalSince(before) >= 180, "virtual time moved, real time did not")
    }

    @Test("a --secret value is usable in requests but appears nowhere in the result")
    func secretRedaction() async throws {
        var configuration = RunConfiguration()
        configuration.secrets = ["apiKey": "SENTINEL-s3cr3t-9f2b"]
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "secret.yaml",
                """
                suite: secret
                cases:
                  - name: the secret is sent and echoed back
                    steps:
                      - http:
                          method: POST
                          url: "{{ mock.url }}/__paycheck/echo/{{ apiKey }}?k={{ apiKey }}"
                          headers: { X-Key: "{{ apiKey }}", Authorization: "Bearer {{ apiKey }}" }
                          json: { key: "{{ apiKey }}", card: "4110760000000081" }
                        expect:
                          body: { json.key: "not-the-secret" }
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        #expect(result.suites[0].cases[0].verdict == .failed, "the expectation compares against the real secret")
        let text = allText(result)
        #expect(!text.contains("SENTINEL-s3cr3t-9f2b"))
        #expect(!text.contains("4110760000000081"))
        #expect(text.contains("0081"), "card numbers keep their last four digits")
    }

    @Test("tags, filter and shard select cases; skip and xfail are reported as skipped")
    func selection() async throws {
        let yaml = """
            suite: select
            tags: [all]
            cases:
              - name: fast one
                tags: [fast]
                steps: [{ wait: 1ms }]
              - name: slow one
                tags: [slow]
                steps: [{ wait: 1ms }]
              - name: skipped one
                skip: not today
                steps: [{ wait: 1ms }]
              - name: known bug
                xfail: the echo cannot say 418
                steps:
                  - http: { url: "{{ mock.url }}/__paycheck/echo/x" }
                    expect: { status: 418 }
            """
        var configuration = RunConfiguration()
        configuration.skipTags = ["slow"]
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([("select.yaml", yaml)])
        let (result, _) = try await run.run(suites)
        let verdicts = result.suites[0].cases.map { "\($0.name)=\($0.verdict.rawValue)" }
        #expect(verdicts == ["fast one=passed", "skipped one=skipped", "known bug=skipped"])
        #expect(result.suites[0].cases[2].skipReason == .xfail("the echo cannot say 418"))
        #expect(result.exitCode == 0)

        configuration.skipTags = []
        configuration.shard = (index: 2, count: 2)
        let sharded = RunPlan(suites: suites, configuration: configuration)
        #expect(sharded.items.map(\.caseIndex) == [1, 3])
        configuration.shard = nil
        configuration.filter = "FAST"
        #expect(RunPlan(suites: suites, configuration: configuration).items.map(\.caseIndex) == [0])
        configuration.filter = nil
        configuration.target = .sandbox
        let requiresMock = try run.load([("m.yaml", "suite: m\ncases:\n  - name: c\n    requires: [mock]\n    steps: [{ wait: 1ms }]\n")])
        #expect(RunPlan(suites: requiresMock, configuration: configuration).items.first?.skipReason?.kind == .needsMock)
        // Why the mock: written in `requires: { mock: … }`, else the first step only the mock serves.
        let why = try run.load([
            (
                "w.yaml",
                "suite: w\ncases:\n  - name: written\n    requires: { mock: a site only the mock has }\n    steps: [{ wait: 1ms }]\n"
                    + "  - name: derived\n    requires: [mock]\n    steps: [{ wait: 1ms }, { mock: clock, with: { advance: 1s } }]\n"
                    + "  - name: none\n    requires: [mock]\n    steps: [{ wait: 1ms }]\n"
            )
        ])
        let reasons = RunPlan(suites: why, configuration: configuration).items.map(\.skipReason)
        #expect(reasons.map { $0?.because } == ["a site only the mock has", "it drives the mock's control API (mock: clock)", nil])
        #expect(reasons[0]?.description == "requires the mock's payer/control API; target 'sandbox' has none — a site only the mock has")
        #expect(reasons[0]?.summary == reasons[2]?.summary)
        let read = reasons[0].map { SkipReason(reading: $0.description, kind: $0.kind.rawValue, because: $0.because) }
        #expect(read == reasons[0])
    }

    @Test("an xfail case that passes is a failure")
    func unexpectedPass() async throws {
        let run = InProcessRun()
        let suites = try run.load([("x.yaml", "suite: x\ncases:\n  - name: c\n    xfail: should fail\n    steps: [{ wait: 1ms }]\n")])
        let (result, _) = try await run.run(suites)
        #expect(result.suites[0].cases[0].verdict == .failed)
    }

    @Test("--fail-fast stops starting cases after the first failure")
    func failFast() async throws {
        var configuration = RunConfiguration()
        configuration.failFast = true
        configuration.jobs = 1
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "ff.yaml",
                """
                suite: ff
                cases:
                  - name: fails
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/x" }
                        expect: { status: 500 }
                  - name: never starts
                    steps: [{ wait: 1ms }]
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        #expect(result.suites[0].cases.map(\.verdict) == [.failed, .skipped])
        #expect(result.suites[0].cases[1].skipReason == .failFast)
    }

    @Test("an undefined variable is a lint error at the template's location, before anything runs")
    func undefinedVariable() async throws {
        let run = InProcessRun()
        let error = #expect(throws: InProcessError.self) {
            try run.load([("u.yaml", "suite: u\ncases:\n  - name: c\n    steps:\n      - http: { url: \"{{ mock.url }}/{{ nope }}\" }\n")])
        }
        #expect(error?.message.contains("u.yaml:5:22: error: undefined variable 'nope' in '{{ nope }}'") == true, "\(error?.message ?? "")")
    }

    @Test("a case that moves the mock clock runs alone")
    func exclusiveCases() async throws {
        var configuration = RunConfiguration()
        configuration.jobs = 4
        let suites = try InProcessRun().load([
            (
                "c.yaml",
                """
                suite: c
                cases:
                  - name: a
                    steps: [{ wait: 1ms }]
                  - name: clock mover
                    steps:
                      - mock: clock
                        with: { advance: 31m }
                  - name: b
                    steps: [{ wait: 1ms }]
                """
            )
        ])
        let plan = RunPlan(suites: suites, configuration: configuration)
        #expect(plan.items.map(\.exclusive) == [false, true, false])
        let (result, _) = try await InProcessRun(configuration: configuration).run(suites)
        #expect(result.counts.passed == 3)
    }
}

/// How failed steps read in reports.
@Suite("Step titles and mismatch order")
struct StepTitleTests {
    @Test("an http step's title shows its rendered URL, secrets redacted; mismatches come in source order")
    func renderedTitleAndOrder() async throws {
        var configuration = RunConfiguration()
        configuration.secrets = ["token": "tok-9f3c1e7a"]
        let run = InProcessRun(configuration: configuration)
        let suites = try run.load([
            (
                "t.yaml",
                """
                suite: t
                vars: { key: k42 }
                cases:
                  - name: c
                    steps:
                      - http: { url: "{{ mock.url }}/__paycheck/echo/{{ key }}/{{ token }}" }
                        expect:
                          body: { nothing: 1 }
                          status: 500
                """
            )
        ])
        let (result, _) = try await run.run(suites)
        let step = try #require(result.suites.first?.cases.first?.steps.first)
        #expect(step.name.hasPrefix("http GET http://127.0.0.1:") && step.name.contains("/__paycheck/echo/k42/"), "\(step.name)")
        #expect(!step.name.contains("tok-9f3c1e7a") && !step.name.contains("{{"))
        #expect(step.mismatches.map(\.subject) == ["body.nothing", "status"])
    }

    @Test("a case that stops at a step lists the steps after it as not run, in the reports too")
    func stepsNotRun() async throws {
        let yaml = """
            suite: stops
            cases:
              - name: stops at the second step
                steps:
                  - http: { url: "{{ mock.url }}/__paycheck/echo/a" }
                  - http: { url: "{{ mock.url }}/__paycheck/echo/b" }
                    expect: { status: 418 }
                  - wait: 1ms
                  - http: { url: "{{ mock.url }}/__paycheck/echo/c" }
              - name: passes
                steps: [{ wait: 1ms }]
            """
        let run = InProcessRun(configuration: RunConfiguration())
        let (result, _) = try await run.run(try run.load([("stops.yaml", yaml)]))
        let cases = result.suites[0].cases
        #expect(cases[0].verdict == .failed && cases[0].steps.count == 2)
        #expect(cases[0].notRun.count == 2 && cases[0].notRun[0].hasPrefix("wait") && cases[0].notRun[1].contains("/echo/c"), "\(cases[0].notRun)")
        #expect(cases[1].notRun.isEmpty)
        let json = JSONReporter.render(result)
        #expect(json.contains("\"notRun\": [") && HTMLReporter.render(result).contains("<small>not run</small>"))
    }
}
