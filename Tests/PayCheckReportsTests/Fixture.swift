import Foundation
import PayCheckCore
import PayCheckRunner

/// A hand-built run with fixed dates and durations that exercises every verdict and the awkward characters.
enum Fixture {
    /// 2026-01-15T10:00:00Z.
    static let base = Date(timeIntervalSince1970: 1_768_471_200)

    /// Text XML 1.0 cannot carry (NUL, BEL, ESC, U+FFFE, U+FFFF), plus markup that must be escaped.
    static let nastyBody =
        "{\"message\":\"<b>Tarjeta</b> & \\\"rechazada\\\" 'sí' ]]> fin\",\"raw\":\"\u{0}\u{7}\u{1B}[31mred\u{1B}[0m\u{FFFE}\u{FFFF}\"}\r\n"

    /// A location in a suite file.
    static func loc(_ file: String, _ line: Int, _ column: Int) -> PayCheckCore.SourceLocation {
        PayCheckCore.SourceLocation(file: file, line: line, column: column)
    }

    static let lifecycleFile = "suites/placetopay/lifecycle.yaml"
    static let healthFile = "suites/http/health.yml"

    /// The lifecycle suite: passed, failed (two mismatches), error, skipped, xfail and a duplicate case name.
    static func lifecycle() -> SuiteResult {
        let f = lifecycleFile
        let createExchange = Exchange(
            method: "POST", url: "https://checkout.test/api/session",
            requestHeaders: [("Content-Type", "application/json"), ("Authorization", "[REDACTED]")],
            requestBody: #"{"auth":{"login":"[REDACTED]","tranKey":"[REDACTED]"},"payment":{"amount":{"currency":"USD","total":10},"reference":"R-1"}}"#,
            status: 200, responseHeaders: [("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")],
            responseBody:
                #"{"processUrl":"https://checkout.test/session/4711","requestId":4711,"status":{"message":"La petición se ha procesado correctamente","reason":"PC","status":"OK"}}"#,
            duration: 0.0456, error: nil)
        let queryExchange = Exchange(
            method: "POST", url: "https://checkout.test/api/session/4711", requestHeaders: [("Content-Type", "application/json")],
            requestBody: #"{"auth":"[REDACTED]"}"#, status: 200, responseHeaders: [("Content-Type", "application/json")],
            responseBody: #"{"status":{"status":"PENDING"}}"#, duration: 0.0304, error: nil)
        let created = CaseResult(
            name: "create session", location: loc(f, 5, 5), verdict: .passed, tags: ["smoke", "session"],
            steps: [
                StepResult(
                    name: "create session", location: loc(f, 7, 9), outcome: .pending, nativeState: "PENDING",
                    exchanges: [createExchange], duration: 0.051),
                StepResult(
                    name: "query session", location: loc(f, 14, 9), outcome: .pending, nativeState: "PENDING",
                    exchanges: [queryExchange], duration: 0.034),
            ],
            duration: 0.0875, startedAt: base)

        var payExchange = Exchange(
            method: "POST", url: "https://checkout.test/api/collect", requestHeaders: [("Content-Type", "application/json")],
            requestBody: #"{"instrument":{"card":{"number":"[REDACTED]"}},"note":"a < b && c > d"}"#, status: 402,
            responseHeaders: [("Content-Type", "application/json; charset=utf-8"), ("X-Odd", "tab\there")],
            responseBody: nastyBody, duration: 0.2, error: nil)
        payExchange.retries = ["attempt 1: HTTP 503, retried after 0.2s"]
        let rejected = CaseResult(
            name: "reject card <4111> & \"friends\"", location: loc(f, 20, 5), verdict: .failed, tags: ["card"],
            steps: [
                StepResult(
                    name: "pay", location: loc(f, 22, 9),
                    issue: .mismatches([
                        Mismatch(location: loc(f, 26, 13), subject: "status", expected: .words("eq 200"), actual: .value(.int(402)), kind: .status),
                        Mismatch(
                            location: loc(f, 27, 13), subject: "outcome", expected: .words("eq \"approved\""), actual: .value(.string("rejected")),
                            kind: .outcome),
                    ]),
                    outcome: .declined, nativeState: "REJECTED", errorCode: ProviderErrorCode(.P, "05"),
                    exchanges: [payExchange], attempts: 2, duration: 0.41)
            ],
            duration: 0.412, startedAt: base.addingTimeInterval(0.1))

        let timeout = CaseResult(
            name: "gateway timeout", location: loc(f, 30, 5), verdict: .error,
            steps: [
                StepResult(
                    name: "query", location: loc(f, 32, 9),
                    issue: .transport(TransportError(.connect, "transport: connection refused (127.0.0.1:9)")),
                    exchanges: [
                        Exchange(
                            method: "GET", url: "http://127.0.0.1:9/api/session/1", requestHeaders: [], requestBody: "", status: nil,
                            responseHeaders: [], responseBody: "", duration: 0.003, error: "connection refused")
                    ],
                    duration: 0.004)
            ],
            duration: 0.005, startedAt: base.addingTimeInterval(0.6))

        let refund = CaseResult(
            name: "refund", location: loc(f, 40, 5), verdict: .skipped, skipReason: SkipReason(.needsMock, "requires: sandbox", because: "the mock plays the payer (payer: pay)"),
            tags: ["refund"],
            startedAt: base.addingTimeInterval(0.7))

        let duplicate = CaseResult(
            name: "duplicate charge", location: loc(f, 45, 5), verdict: .skipped, skipReason: .xfail("PTP-12 duplicate reference accepted"),
            steps: [
                StepResult(
                    name: "pay twice", location: loc(f, 47, 9),
                    issue: .mismatches([
                        Mismatch(
                            location: loc(f, 50, 13), subject: "body.status.status", expected: .words("eq \"FAILED\""), actual: .value(.string("APPROVED")),
                            kind: .body)
                    ]),
                    outcome: .succeeded, nativeState: "APPROVED", duration: 0.02)
            ],
            duration: 0.021, startedAt: base.addingTimeInterval(0.8))

        let again = CaseResult(
            name: "create session", location: loc(f, 55, 5), verdict: .passed, tags: ["smoke"],
            steps: [
                StepResult(
                    name: "create session", location: loc(f, 57, 9), outcome: .pending, nativeState: "PENDING",
                    duration: 0.01)
            ],
            duration: 0.0115, startedAt: base.addingTimeInterval(0.9))

        return SuiteResult(
            file: f, name: "PlacetoPay lifecycle", provider: "placetopay",
            cases: [created, rejected, timeout, refund, duplicate, again], startedAt: base)
    }

    /// A raw HTTP suite with no `suite:` name, so reporters fall back to the file name.
    static func health() -> SuiteResult {
        let f = healthFile
        let ping = CaseResult(
            name: "ping", location: loc(f, 3, 5), verdict: .passed,
            steps: [
                StepResult(
                    name: "GET /health", location: loc(f, 4, 9),
                    exchanges: [
                        Exchange(
                            method: "GET", url: "https://status.test/health", requestHeaders: [("Accept", "text/plain")],
                            requestBody: "", status: 200, responseHeaders: [("Content-Type", "text/plain")], responseBody: "ok",
                            duration: 0.0012, error: nil)
                    ],
                    duration: 0.0015)
            ],
            duration: 0.002, startedAt: base.addingTimeInterval(1))
        return SuiteResult(file: f, name: "", provider: nil, cases: [ping], startedAt: base.addingTimeInterval(1))
    }

    /// The whole run.
    static func run() -> RunResult {
        RunResult(
            suites: [lifecycle(), health()], target: "mock", targetKind: "mock", version: "9.9.9-test", hostname: "ci-runner-1",
            startedAt: base, duration: 1.2345,
            providerTables: [
                "placetopay": ProviderTable(
                    states: [("APPROVED", .succeeded), ("PENDING", .pending), ("REJECTED/?C", .canceled), ("REJECTED", .declined)],
                    errorCodes: [ProviderErrorCode(.P, "05"), ProviderErrorCode(.A, "102")])
            ])
    }

    /// A parsed-suite stand-in for `RunEvent.caseFinished`.
    static func suite(for result: SuiteResult) -> Suite {
        Suite(
            file: result.file, name: result.name, provider: result.provider, description: nil, tags: [], vars: [], cases: [],
            location: loc(result.file, 1, 1))
    }

    /// The events a runner would emit for `run()`, suite by suite.
    static func events() -> [RunEvent] {
        let run = run()
        var events: [RunEvent] = [.started(total: run.counts.total, target: run.target)]
        for suite in run.suites {
            let parsed = self.suite(for: suite)
            events += suite.cases.map { RunEvent.caseFinished(suite: parsed, result: $0) }
            events.append(.suiteFinished(suite))
        }
        return events
    }
}
