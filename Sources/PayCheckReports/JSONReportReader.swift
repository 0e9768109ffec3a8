import Foundation
package import PayCheckCore
package import PayCheckRunner

/// Reads a report written by ``JSONReporter`` back into a ``RunResult``, so `paycheck merge` and `--baseline` work
/// from the files CI jobs keep. Everything the reporters render is read back: verdicts, steps with their
/// mismatches, observed outcomes and codes, transcripts, provider tables and the run's shard information.
package enum JSONReportReader {
    /// Why a file is not a report this version can read.
    package struct Failure: Error, CustomStringConvertible {
        /// The message, naming the file.
        package var description: String
    }

    /// Parses `text` (the contents of `file`).
    /// - Throws: ``Failure`` naming the file and what is wrong.
    package static func read(_ text: String, file: String) throws(Failure) -> RunResult {
        guard let root = JSONText.parse(text)?.objectValue else {
            throw Failure(description: "\(file): not a JSON object (is it a PayCheck JSON report?)")
        }
        guard root["tool"]?.stringValue == "paycheck" else {
            throw Failure(description: "\(file): not a PayCheck report (no \"tool\": \"paycheck\")")
        }
        guard root["schemaVersion"]?.intValue == JSONReporter.schemaVersion else {
            throw Failure(
                description: "\(file): report schema version \(root["schemaVersion"]?.displayText ?? "missing"), "
                    + "this paycheck reads version \(JSONReporter.schemaVersion)")
        }
        guard let run = root["run"]?.objectValue else {
            throw Failure(description: "\(file): the report has no \"run\" member (written by an older paycheck?)")
        }
        let reader = Reader(file: file)
        var result = RunResult(
            suites: try (root["suites"]?.arrayValue ?? []).map(reader.suite),
            target: root["target"]?.stringValue ?? "", targetKind: root["targetKind"]?.stringValue ?? "",
            version: root["version"]?.stringValue ?? "", hostname: root["hostname"]?.stringValue ?? "",
            startedAt: reader.date(root["startedAt"]), duration: root["duration"]?.numberValue ?? 0,
            providerTables: reader.tables(root["coverage"]), warnings: reader.strings(root["warnings"]))
        result.notChecked = reader.strings(root["notChecked"])
        result.providersNotChecked = reader.strings(root["providersNotChecked"])
        result.runId = run["id"]?.stringValue ?? ""
        result.suiteDigest = run["suiteDigest"]?.stringValue ?? ""
        result.mergedFrom = run["mergedFrom"]?.intValue ?? 0
        result.allowEmpty = run["allowEmpty"]?.boolValue ?? false
        result.requireAllProviders = run["requireAllProviders"]?.boolValue ?? false
        result.interrupted = run["interrupted"]?.boolValue ?? false
        if let shard = run["shard"]?.objectValue, let index = shard["index"]?.intValue, let count = shard["count"]?.intValue {
            result.shard = (index, count)
        }
        return result
    }

    /// One exchange as ``JSONReporter/exchange(_:)`` writes it.
    package static func exchange(_ value: Value) -> Exchange { Reader(file: "").exchange(value) }

    /// Reads the parts of one file.
    private struct Reader {
        let file: String

        func suite(_ value: Value) throws(Failure) -> SuiteResult {
            guard let object = value.objectValue, let path = object["file"]?.stringValue else {
                throw Failure(description: "\(file): a suite without a \"file\"")
            }
            var cases: [CaseResult] = []
            for item in object["cases"]?.arrayValue ?? [] { cases.append(try self.testCase(item)) }
            var result = SuiteResult(
                file: path, name: object["name"]?.stringValue ?? path, provider: object["provider"]?.stringValue,
                cases: cases, startedAt: self.date(object["startedAt"]))
            result.isPack = object["pack"]?.boolValue ?? false
            return result
        }

        func testCase(_ value: Value) throws(Failure) -> CaseResult {
            guard let object = value.objectValue, let name = object["name"]?.stringValue,
                let verdict = object["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:))
            else { throw Failure(description: "\(file): a case without a name or a verdict") }
            var result = CaseResult(
                name: name, location: self.location(object["location"]), verdict: verdict,
                skipReason: object["skipReason"]?.stringValue.map {
                    SkipReason(reading: $0, kind: object["skipKind"]?.stringValue, because: object["skipBecause"]?.stringValue)
                }, tags: self.strings(object["tags"]),
                steps: (object["steps"]?.arrayValue ?? []).map(self.step), duration: object["duration"]?.numberValue ?? 0,
                startedAt: self.date(object["startedAt"]))
            result.backendOutput = object["backendOutput"]?.stringValue
            result.notRun = self.strings(object["notRun"])
            result.catches = object["catches"]?.stringValue
            return result
        }

        func step(_ value: Value) -> StepResult {
            let object = value.objectValue ?? [:]
            let findings = (object["findings"]?.arrayValue ?? []).compactMap(Finding.init(json:))
            let issue = StepIssue(
                name: object["issue"]?.stringValue, verdict: object["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:)) ?? .error,
                message: object["error"]?.stringValue, invalid: object["invalid"]?.boolValue ?? false,
                cause: object["transportCause"]?.stringValue, mismatches: (object["mismatches"]?.arrayValue ?? []).map(self.mismatch),
                findings: findings, gate: object["findingGate"]?.stringValue.flatMap(FindingSeverity.init(rawValue:)), kind: object["issueKind"]?.stringValue)
            var step = StepResult(
                name: object["name"]?.stringValue ?? "", location: self.location(object["location"]),
                issue: issue, outcome: object["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:)),
                nativeState: object["nativeState"]?.stringValue,
                errorCode: object["errorCode"].flatMap(Self.errorCode),
                exchanges: (object["exchanges"]?.arrayValue ?? []).map(self.exchange),
                attempts: object["attempts"]?.intValue ?? 1, duration: object["duration"]?.numberValue ?? 0)
            step.findings = findings
            step.evidence = (object["evidence"]?.arrayValue ?? []).map(self.evidence)
            return step
        }

        func mismatch(_ value: Value) -> Mismatch {
            let object = value.objectValue ?? [:]
            return Mismatch(
                location: self.location(object["location"]), subject: object["subject"]?.stringValue ?? "",
                expected: .words(object["expected"]?.stringValue ?? ""), actual: .words(object["actual"]?.stringValue ?? ""),
                kind: object["kind"]?.stringValue.flatMap(Mismatch.Kind.init(rawValue:)) ?? .body)
        }

        func evidence(_ value: Value) -> Evidence {
            let object = value.objectValue ?? [:]
            return Evidence(
                kind: object["kind"]?.stringValue.flatMap(Evidence.Kind.init(rawValue:)) ?? .request,
                sequence: object["sequence"]?.intValue ?? 0, provider: object["provider"]?.stringValue,
                method: object["method"]?.stringValue ?? "", target: object["target"]?.stringValue ?? "",
                headers: self.headers(object["headers"]), body: object["body"]?.stringValue ?? "", status: object["status"]?.intValue,
                answer: object["answer"]?.stringValue ?? "", attempt: object["attempt"]?.intValue, error: object["error"]?.stringValue,
                at: object["at"]?.stringValue ?? "")
        }

        func exchange(_ value: Value) -> Exchange {
            let object = value.objectValue ?? [:]
            var exchange = Exchange(
                method: object["method"]?.stringValue ?? "", url: object["url"]?.stringValue ?? "",
                requestHeaders: self.headers(object["requestHeaders"]), requestBody: object["requestBody"]?.stringValue ?? "",
                status: object["status"]?.intValue, responseHeaders: self.headers(object["responseHeaders"]),
                responseBody: object["responseBody"]?.stringValue ?? "", duration: object["duration"]?.numberValue ?? 0,
                error: object["error"]?.stringValue)
            exchange.retries = self.strings(object["retries"])
            exchange.readBody = object["readBody"]?.stringValue
            return exchange
        }

        /// The provider tables, from the coverage matrix's `mapping` and `catalog` rows.
        func tables(_ value: Value?) -> [String: ProviderTable] {
            var tables: [String: ProviderTable] = [:]
            for (provider, coverage) in value?.objectValue ?? [:] {
                let object = coverage.objectValue ?? [:]
                let states = (object["mapping"]?.arrayValue ?? []).compactMap { row -> (key: String, outcome: Outcome)? in
                    guard let state = row["state"]?.stringValue, let outcome = row["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:)) else { return nil }
                    return (state, outcome)
                }
                let codes = (object["catalog"]?.arrayValue ?? []).compactMap(Self.errorCode)
                tables[provider] = ProviderTable(states: states, errorCodes: codes)
            }
            return tables
        }

        func headers(_ value: Value?) -> [(name: String, value: String)] {
            (value?.arrayValue ?? []).compactMap { pair in
                guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                    let text = items[1].stringValue
                else { return nil }
                return (name, text)
            }
        }

        func strings(_ value: Value?) -> [String] { (value?.arrayValue ?? []).compactMap(\.stringValue) }

        /// An error code written as `{class, code}`; `nil` without both, or with a class that is not C, S, P, A or T.
        static func errorCode(_ value: Value) -> ProviderErrorCode? {
            guard let code = value["code"]?.stringValue, let errorClass = value["class"]?.stringValue.flatMap(ErrorClass.init(rawValue:)) else { return nil }
            return ProviderErrorCode(errorClass, code)
        }

        func date(_ value: Value?) -> Date { value?.stringValue.flatMap { ISOTimestamp.parse($0) } ?? Date(timeIntervalSince1970: 0) }

        /// `file:line:column`; the file may itself contain colons.
        func location(_ value: Value?) -> SourceLocation {
            let text = value?.stringValue ?? ""
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
                return SourceLocation(file: text, line: 1, column: 1)
            }
            return SourceLocation(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column)
        }
    }
}
