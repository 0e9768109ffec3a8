package import PayCheckCore
package import PayCheckRunner

/// Renders a run as a versioned JSON document: everything the HTML report and the per-provider coverage
/// matrix need. The shape is documented by ``JSONReportSchema/jsonSchema``.
///
/// Keys are sorted and optional fields are always present (`null` when absent), so the output is
/// deterministic and diffable. Durations are seconds rounded to milliseconds; times are ISO 8601 in UTC.
package enum JSONReporter {
    /// The version of the report's shape, written as `schemaVersion`; bumped on incompatible changes.
    package static let schemaVersion = 1

    /// Renders `result` as pretty-printed JSON ending with a newline.
    package static func render(_ result: RunResult) -> String {
        var text: [UInt8] = []
        write(result) { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes the text of ``render(_:)`` to `emit` in pieces of about 64 KiB, case by case: a 10,000-case report
    /// (23 MB) never exists whole in memory, neither as a `Value` nor as text (docs/benchmarks.md, peak RSS).
    package static func write(_ result: RunResult, to emit: ([UInt8]) -> Void) {
        var out: [UInt8] = []
        out.reserveCapacity(Self.chunk + 4096)
        func flushIfFull(_ out: inout [UInt8]) {
            guard out.count >= Self.chunk else { return }
            emit(out)
            out.removeAll(keepingCapacity: true)
        }
        writeObject(header(result), streaming: "suites", indent: 0, into: &out) { out in
            writeArray(result.suites, indent: 1, into: &out) { suite, out in
                writeObject(suiteHeader(suite), streaming: "cases", indent: 2, into: &out) { out in
                    writeArray(suite.cases, indent: 3, into: &out) { testCase, out in
                        JSONText.write(self.testCase(testCase), into: &out, pretty: true, indent: 4)
                        flushIfFull(&out)
                    }
                }
            }
        }
        out.append(UInt8(ascii: "\n"))
        emit(out)
    }

    /// The size of the pieces ``write(_:to:)`` hands on.
    private static let chunk = 64 * 1024

    /// Writes `members` and one more member, `key`, whose value `body` writes, as ``JSONText`` writes an object:
    /// keys sorted, pretty.
    private static func writeObject(
        _ members: [String: Value], streaming key: String, indent: Int, into out: inout [UInt8], _ body: (inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        for (index, name) in (Array(members.keys) + [key]).sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.newline(&out, indent + 1)
            JSONText.writeString(name, into: &out)
            out.append(contentsOf: ": ".utf8)
            if let value = members[name] { JSONText.write(value, into: &out, pretty: true, indent: indent + 1) } else { body(&out) }
        }
        JSONText.newline(&out, indent)
        out.append(UInt8(ascii: "}"))
    }

    /// Writes `items` as ``JSONText`` writes an array, each item by `element` at depth `indent + 1`.
    private static func writeArray<Item>(_ items: [Item], indent: Int, into out: inout [UInt8], _ element: (Item, inout [UInt8]) -> Void) {
        if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
        out.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.newline(&out, indent + 1)
            element(item, &out)
        }
        JSONText.newline(&out, indent)
        out.append(UInt8(ascii: "]"))
    }

    /// The report as a `Value`, for callers that embed it (the HTML report, say).
    package static func value(_ result: RunResult) -> Value {
        var members = header(result)
        members["suites"] = .array(
            result.suites.map { suite in
                var members = suiteHeader(suite)
                members["cases"] = .array(suite.cases.map(testCase))
                return .object(members)
            })
        return .object(members)
    }

    /// Every member of the report but its suites.
    private static func header(_ result: RunResult) -> [String: Value] {
        [
            "schemaVersion": .int(schemaVersion),
            "tool": "paycheck",
            "version": .string(result.version),
            "target": .string(result.target),
            "targetKind": .string(result.targetKind),
            "hostname": .string(result.hostname),
            "startedAt": .string(ReportFormat.iso8601(result.startedAt)),
            "duration": seconds(result.duration),
            "counts": counts(result.counts),
            "exitCode": .int(Int(result.exitCode)),
            "verdict": .string(result.verdictWord),
            "notChecked": .array(result.notChecked.map(Value.string)),
            "providersNotChecked": .array(result.providersNotChecked.map(Value.string)),
            "warnings": .array(result.warnings.map(Value.string)),
            "coverage": coverage(result),
            "packs": .array(
                PackCoverage.of(result).map { pack in
                    .object([
                        "suite": .string(pack.suite.name), "file": .string(pack.suite.file), "scenarios": .int(pack.suite.cases.count),
                        "ran": .int(pack.ran),
                        "leftOut": .array(pack.leftOut.map { .object(["case": .string($0.name), "reason": .string($0.reason)]) }),
                    ])
                }),
            "baseline": result.baseline.map(baseline) ?? .null,
            "run": .object([
                "id": .string(result.runId),
                "shard": result.shard.map { .object(["index": .int($0.index), "count": .int($0.count)]) } ?? .null,
                "suiteDigest": .string(result.suiteDigest),
                "mergedFrom": .int(result.mergedFrom),
                "allowEmpty": .bool(result.allowEmpty),
                "requireAllProviders": .bool(result.requireAllProviders),
                "interrupted": .bool(result.interrupted),
            ]),
        ]
    }

    /// The comparison with `--baseline`.
    private static func baseline(_ baseline: BaselineComparison) -> Value {
        func change(_ change: BaselineComparison.Change) -> Value {
            .object([
                "file": .string(change.key.file), "suite": .string(change.key.suite), "name": .string(change.key.name),
                "before": change.before.map { .string($0.rawValue) } ?? .null, "after": .string(change.after.rawValue),
            ])
        }
        return .object([
            "file": .string(baseline.file),
            "newlyFailing": .array(baseline.newlyFailing.map(change)),
            "newlyPassing": .array(baseline.newlyPassing.map(change)),
            "added": .array(baseline.added.map(change)),
            "removed": .array(
                baseline.removed.map { removed in
                    .object([
                        "file": .string(removed.key.file), "suite": .string(removed.key.suite), "name": .string(removed.key.name),
                        "before": .string(removed.before.rawValue), "after": .null,
                    ])
                }),
        ])
    }

    /// Every member of one suite but its cases.
    private static func suiteHeader(_ suite: SuiteResult) -> [String: Value] {
        var c = Counts()
        for testCase in suite.cases { c.add(testCase.verdict) }
        return [
            "file": .string(suite.file),
            "name": .string(suite.name),
            "provider": optional(suite.provider),
            "pack": .bool(suite.isPack),
            "startedAt": .string(ReportFormat.iso8601(suite.startedAt)),
            "duration": seconds(suite.duration),
            "counts": counts(c),
        ]
    }

    /// One case.
    private static func testCase(_ testCase: CaseResult) -> Value {
        var members: [String: Value] = [
            "name": .string(testCase.name),
            "location": .string(testCase.location.description),
            "verdict": .string(testCase.verdict.rawValue),
            "skipReason": optional(testCase.skipReason?.description),
            "skipKind": optional(testCase.skipReason?.kind.rawValue),
            "skipBecause": optional(testCase.skipReason?.because),
            "tags": .array(testCase.tags.map(Value.string)),
            "startedAt": .string(ReportFormat.iso8601(testCase.startedAt)),
            "duration": seconds(testCase.duration),
            "steps": .array(testCase.steps.map(step)),
            "backendOutput": optional(testCase.backendOutput),
            "catches": optional(testCase.catches),
        ]
        // Only a case that stopped before its last step has `notRun`.
        if !testCase.notRun.isEmpty { members["notRun"] = .array(testCase.notRun.map(Value.string)) }
        return .object(members)
    }

    /// One step.
    private static func step(_ step: StepResult) -> Value {
        var object: [String: Value] = [
            "name": .string(step.name),
            "location": .string(step.location.description),
            "verdict": .string(step.verdict.rawValue),
            "issue": optional(step.issue?.name),
            "issueKind": optional(step.issue?.kind),
            "transportCause": { if case .transport(let error)? = step.issue { .string(error.cause.rawValue) } else { .null } }(),
            "attempts": .int(step.attempts),
            "invalid": .bool(step.invalidStep),
            "duration": seconds(step.duration),
            "error": optional(step.error),
            "outcome": optional(step.outcome?.rawValue),
            "nativeState": optional(step.nativeState),
            "errorCode": step.errorCode.map { .object(["class": .string($0.errorClass.rawValue), "code": .string($0.code)]) } ?? .null,
            "mismatches": .array(step.mismatches.map(mismatch)),
            "exchanges": .array(step.exchanges.map(exchange)),
            "evidence": .array(step.evidence.map(evidence)),
            "findings": .array(step.findings.map(\.json)),
        ]
        if case .findings(_, let gate)? = step.issue { object["findingGate"] = .string(gate.rawValue) }
        return .object(object)
    }

    /// What passed between the mock and the merchant's backend.
    static func evidence(_ evidence: Evidence) -> Value {
        .object([
            "kind": .string(evidence.kind.rawValue),
            "sequence": .int(evidence.sequence),
            "provider": optional(evidence.provider),
            "method": .string(evidence.method),
            "target": .string(evidence.target),
            "headers": headers(evidence.headers),
            "body": .string(evidence.body),
            "status": evidence.status.map(Value.int) ?? .null,
            "answer": .string(evidence.answer),
            "attempt": evidence.attempt.map(Value.int) ?? .null,
            "error": optional(evidence.error),
            "at": .string(evidence.at),
        ])
    }

    /// One failed expectation.
    private static func mismatch(_ mismatch: Mismatch) -> Value {
        .object([
            "location": .string(mismatch.location.description),
            "subject": .string(mismatch.subject),
            "expected": .string(mismatch.expected.text),
            "actual": .string(mismatch.actual.text),
            "kind": .string(mismatch.kind.rawValue),
        ])
    }

    /// One HTTP exchange (also a recording's, ``RecordingFile``).
    package static func exchange(_ exchange: Exchange) -> Value {
        var members: [String: Value] = [
            "method": .string(exchange.method),
            "url": .string(exchange.url),
            "requestHeaders": headers(exchange.requestHeaders),
            "requestBody": .string(exchange.requestBody),
            "status": exchange.status.map(Value.int) ?? .null,
            "responseHeaders": headers(exchange.responseHeaders),
            "responseBody": .string(exchange.responseBody),
            "duration": seconds(exchange.duration),
            "error": optional(exchange.error),
        ]
        // Only an exchange a live target retried has `retries`.
        if !exchange.retries.isEmpty { members["retries"] = .array(exchange.retries.map(Value.string)) }
        // Only an answer the adapter read as something else (MIT's, decrypted) has `readBody`.
        if let read = exchange.readBody { members["readBody"] = .string(read) }
        return .object(members)
    }

    /// Per provider, the sorted sets of canonical outcomes, native states and error codes observed in any step.
    private static func coverage(_ result: RunResult) -> Value {
        var members: [String: Value] = [:]
        for (provider, coverage) in ProviderCoverage.of(result) {
            let sortedCodes = coverage.errorCodes.sorted()
            let codes = coverage.codes
            members[provider] = .object([
                "mapping": .array(
                    (coverage.table?.states ?? []).map { row in
                        .object(["state": .string(row.key), "outcome": .string(row.outcome.rawValue), "covered": .bool(coverage.states.contains(row.key))])
                    }),
                "catalog": .array(
                    (coverage.table?.errorCodes ?? []).map { entry in
                        .object(["code": .string(entry.code), "class": .string(entry.errorClass.rawValue), "covered": .bool(codes.contains(entry.code))])
                    }),
                "outcomes": .array(coverage.outcomes.map(\.rawValue).sorted().map(Value.string)),
                "nativeStates": .array(coverage.states.sorted().map(Value.string)),
                "errorCodes": .array(
                    sortedCodes.map { code in
                        .object(["class": .string(code.errorClass.rawValue), "code": .string(code.code), "id": .string(code.key)])
                    }),
            ])
        }
        return .object(members)
    }

    /// `class/code`, the error code's identity in the coverage matrix.
    /// Counts as an object.
    private static func counts(_ c: Counts) -> Value {
        .object([
            "total": .int(c.total), "passed": .int(c.passed), "failed": .int(c.failed),
            "errors": .int(c.errors), "skipped": .int(c.skipped),
        ])
    }

    /// Headers as `[[name, value], …]`, order and duplicates kept.
    private static func headers(_ headers: [(name: String, value: String)]) -> Value {
        .array(headers.map { .array([.string($0.name), .string($0.value)]) })
    }

    /// Seconds rounded to milliseconds.
    private static func seconds(_ seconds: Double) -> Value { .double(ReportFormat.roundedSeconds(seconds)) }

    /// A string, or `null`.
    private static func optional(_ s: String?) -> Value { s.map(Value.string) ?? .null }
}
