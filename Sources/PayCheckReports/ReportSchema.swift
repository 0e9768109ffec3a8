import PayCheckRunner
/// The JSON Schema (draft 2020-12) of the report written by ``JSONReporter``, documenting every field.
///
/// Readers should check `schemaVersion` first: fields may be added within a version, but never removed or
/// changed in meaning.
package enum JSONReportSchema {
    /// The schema as JSON text.
    package static let jsonSchema: String = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://paycheck.dev/schemas/report-1.json",
          "title": "PayCheck run report",
          "description": "Everything one `paycheck run` produced, already redacted. Durations are seconds rounded to milliseconds; times are ISO 8601 in UTC with milliseconds (`2026-01-15T10:00:00.250Z`); locations are `file:line:column`, 1-based. Optional fields are always present and `null` when absent.",
          "type": "object",
          "additionalProperties": false,
          "required": ["schemaVersion", "tool", "version", "target", "targetKind", "hostname", "startedAt", "duration", "counts", "exitCode", "verdict", "notChecked", "providersNotChecked", "warnings", "suites", "coverage", "packs", "baseline", "run"],
          "properties": {
            "schemaVersion": { "const": 1, "description": "The version of this shape; bumped on incompatible changes." },
            "tool": { "const": "paycheck", "description": "The tool that wrote the report." },
            "version": { "type": "string", "description": "The paycheck version that ran." },
            "target": { "type": "string", "description": "The target as given, e.g. `mock`, `sandbox`, `url=http://127.0.0.1:8080`." },
            "targetKind": { "type": "string", "description": "The kind of target: `mock`, `sandbox` or `url`." },
            "hostname": { "type": "string", "description": "The machine the run happened on." },
            "startedAt": { "$ref": "#/$defs/time", "description": "When the run started." },
            "duration": { "$ref": "#/$defs/seconds", "description": "Wall-clock seconds of the whole run (cases may run in parallel)." },
            "counts": { "$ref": "#/$defs/counts", "description": "Case verdicts over the whole run." },
            "exitCode": { "type": "integer", "enum": [0, 1, 2, 3, 4, 130], "description": "The process exit code: 0 all passed (skips allowed), 1 conformance failures, 2 suite or usage invalid, 3 could not run (errors win over failures), 4 nothing was checked (no case ran; 0 with --allow-empty), or with --require-all-providers a selected provider had no credentials, 130 interrupted by SIGINT or SIGTERM." },
            "verdict": { "type": "string", "description": "The verdict in words: `conformant`, `not conformant`, `suite invalid`, `could not run` (every case that ran errored) or `could not run N of M cases`, `nothing checked`, `interrupted`." },
            "notChecked": { "type": "array", "items": { "type": "string" }, "description": "Why the run checked less than it selected; empty when everything selected was checked." },
            "providersNotChecked": { "type": "array", "items": { "type": "string" }, "description": "The selected providers the run could not check (no credentials for the live target)." },
            "warnings": { "type": "array", "items": { "type": "string" }, "description": "Problems with the run's setup that did not stop it, e.g. a secret too short to be redacted safely." },
            "suites": { "type": "array", "items": { "$ref": "#/$defs/suite" }, "description": "Suite results in plan order." },
            "packs": {
              "type": "array",
              "description": "What each merchant pack covered against the backend (a run with --contract): the suites that ran a `merchant:` step or had a scenario the contract left out; empty otherwise.",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["suite", "file", "scenarios", "ran", "leftOut"],
                "properties": {
                  "suite": { "type": "string", "description": "The pack's suite name." },
                  "file": { "type": "string", "description": "Its file." },
                  "scenarios": { "type": "integer", "description": "Its cases selected for this run." },
                  "ran": { "type": "integer", "description": "How many of them ran (passed, failed or errored)." },
                  "leftOut": {
                    "type": "array",
                    "description": "The scenarios skipped because the contract does not describe what they need (no `return:` page, no `pay:` request).",
                    "items": {
                      "type": "object", "additionalProperties": false, "required": ["case", "reason"],
                      "properties": { "case": { "type": "string" }, "reason": { "type": "string" } }
                    }
                  }
                }
              }
            },
            "baseline": {
              "type": ["object", "null"],
              "additionalProperties": false,
              "required": ["file", "newlyFailing", "newlyPassing", "added", "removed"],
              "description": "The comparison with a previous report (`--baseline`); null without one. Cases are matched by file and name.",
              "properties": {
                "file": { "type": "string", "description": "The baseline report, as given." },
                "newlyFailing": { "type": "array", "items": { "$ref": "#/$defs/change" }, "description": "Cases that fail or error now and passed or were skipped before." },
                "newlyPassing": { "type": "array", "items": { "$ref": "#/$defs/change" }, "description": "Cases that pass now and failed or errored before." },
                "added": { "type": "array", "items": { "$ref": "#/$defs/change" }, "description": "Cases the baseline did not have (before is null)." },
                "removed": { "type": "array", "items": { "$ref": "#/$defs/change" }, "description": "Cases of the baseline this run does not have (after is null)." }
              }
            },
            "run": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "shard", "suiteDigest", "mergedFrom", "allowEmpty", "requireAllProviders", "interrupted"],
              "description": "What `paycheck merge` needs to put the shards of one run back together.",
              "properties": {
                "id": { "type": "string", "description": "The run id (`--run-id`, or the CI's run id: GITHUB_RUN_ID, CI_PIPELINE_ID); the same in every shard of one run." },
                "shard": {
                  "type": ["object", "null"],
                  "additionalProperties": false,
                  "required": ["index", "count"],
                  "description": "Which shard this report is (`--shard k/n`); null for a whole run or a merge.",
                  "properties": {
                    "index": { "type": "integer", "minimum": 1, "description": "k, 1-based." },
                    "count": { "type": "integer", "minimum": 1, "description": "n." }
                  }
                },
                "suiteDigest": { "type": "string", "description": "A digest of the selected suites' text and case names before sharding: equal for every shard of one run." },
                "mergedFrom": { "type": "integer", "minimum": 0, "description": "How many reports `paycheck merge` combined into this one; 0 for a run." },
                "allowEmpty": { "type": "boolean", "description": "Whether the run was allowed to check nothing (`--allow-empty`)." },
                "requireAllProviders": { "type": "boolean", "description": "Whether every selected provider had to be checked (`--require-all-providers`)." },
                "interrupted": { "type": "boolean", "description": "Whether a signal stopped the run." }
              }
            },
            "coverage": {
              "type": "object",
              "description": "Per provider id (raw HTTP suites are left out): what the run observed, for the provider × outcome/error-code matrix. Steps of every verdict count.",
              "additionalProperties": { "$ref": "#/$defs/providerCoverage" }
            }
          },
          "$defs": {
            "change": {
              "type": "object",
              "additionalProperties": false,
              "required": ["file", "suite", "name", "before", "after"],
              "description": "A case whose verdict changed against the baseline.",
              "properties": {
                "file": { "type": "string", "description": "The suite file." },
                "suite": { "type": "string", "description": "The suite name (a file with rows holds several suites)." },
                "name": { "type": "string", "description": "The case name." },
                "before": { "type": ["string", "null"], "enum": ["passed", "failed", "error", "skipped", null], "description": "The verdict in the baseline; null for a new case." },
                "after": { "type": ["string", "null"], "enum": ["passed", "failed", "error", "skipped", null], "description": "The verdict now; null for a removed case." }
              }
            },
            "seconds": { "type": "number", "minimum": 0, "description": "Seconds, rounded to milliseconds." },
            "time": { "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$", "description": "ISO 8601 in UTC with milliseconds." },
            "location": { "type": "string", "pattern": "^.+:[0-9]+:[0-9]+$", "description": "`file:line:column` in a suite file, 1-based." },
            "verdict": {
              "type": "string",
              "enum": ["passed", "failed", "error", "skipped"],
              "description": "passed: every expectation held; failed: an expectation did not hold (non-conformance); error: it could not run (transport, timeout, template, sandbox down); skipped: not run, or an expected failure (xfail)."
            },
            "counts": {
              "type": "object",
              "additionalProperties": false,
              "required": ["total", "passed", "failed", "errors", "skipped"],
              "description": "How many cases had each verdict.",
              "properties": {
                "total": { "type": "integer", "minimum": 0, "description": "All cases." },
                "passed": { "type": "integer", "minimum": 0, "description": "Cases that passed." },
                "failed": { "type": "integer", "minimum": 0, "description": "Cases that failed." },
                "errors": { "type": "integer", "minimum": 0, "description": "Cases that could not run." },
                "skipped": { "type": "integer", "minimum": 0, "description": "Cases skipped, xfail included." }
              }
            },
            "headers": {
              "type": "array",
              "description": "Headers in wire order as `[name, value]` pairs; duplicates kept; secrets already redacted.",
              "items": { "type": "array", "prefixItems": [{ "type": "string" }, { "type": "string" }], "minItems": 2, "maxItems": 2 }
            },
            "suite": {
              "type": "object",
              "additionalProperties": false,
              "required": ["file", "name", "provider", "pack", "startedAt", "duration", "counts", "cases"],
              "description": "One suite file.",
              "properties": {
                "file": { "type": "string", "description": "The suite file path as given on the command line." },
                "name": { "type": "string", "description": "The `suite:` name as written (may be empty; reporters fall back to the file name)." },
                "provider": { "type": ["string", "null"], "description": "The provider id, or null for raw HTTP suites." },
                "pack": { "type": "boolean", "description": "Whether the suite is a merchant pack (a case has a `merchant:` step); `packs` counts what each covered." },
                "startedAt": { "$ref": "#/$defs/time", "description": "When the suite's first case started." },
                "duration": { "$ref": "#/$defs/seconds", "description": "Sum of the case durations." },
                "counts": { "$ref": "#/$defs/counts", "description": "Case verdicts in this suite." },
                "cases": { "type": "array", "items": { "$ref": "#/$defs/case" }, "description": "Case results in file order." }
              }
            },
            "case": {
              "type": "object",
              "additionalProperties": false,
              "required": ["name", "location", "verdict", "skipReason", "skipKind", "skipBecause", "tags", "startedAt", "duration", "steps"],
              "description": "One case.",
              "properties": {
                "name": { "type": "string", "description": "The case name as written (duplicates are possible; the JUnit report makes them unique)." },
                "location": { "$ref": "#/$defs/location", "description": "Where the case starts." },
                "verdict": { "$ref": "#/$defs/verdict", "description": "The case verdict." },
                "skipReason": { "type": ["string", "null"], "description": "Why it was skipped, or `xfail: <reason>` for an expected failure; null otherwise." },
                "skipBecause": { "type": ["string", "null"], "description": "Why this case in particular needs what the target lacks (for needsMock: its `requires: { mock: … }` reason, or the first step only the mock serves); the skipReason ends with it. Null otherwise." },
                "skipKind": { "enum": [\#(SkipReason.Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), null], "description": "What kept the case from running (its `skipReason`'s kind): skip (its own `skip:`), needsMock (`requires: [mock]` on a target without the mock's control API), noCredentials, notInContract (a pack scenario the backend's contract leaves out), failFast, interrupted, notRecorded (a replay without it), xfail (failed as expected), other (read from an older file); null when it ran." },
                "tags": { "type": "array", "items": { "type": "string" }, "description": "The suite's and the case's tags." },
                "startedAt": { "$ref": "#/$defs/time", "description": "When the case started." },
                "duration": { "$ref": "#/$defs/seconds", "description": "Seconds the case took." },
                "steps": { "type": "array", "items": { "$ref": "#/$defs/step" }, "description": "Steps that ran, in order; the case stops at the first step that does not pass." },
                "backendOutput": { "type": ["string", "null"], "description": "What the merchant's backend (started by the run) wrote while a case that did not pass ran; null otherwise." },
                "catches": { "type": ["string", "null"], "description": "The case's `catches:`: the mistake a failure of the case reveals; null when it says none." },
                "notRun": { "type": "array", "items": { "type": "string" }, "description": "Present when the case stopped before its last step: the steps after the one that did not pass, as written (`call createSession`), which did not run." }
              }
            },
            "step": {
              "type": "object",
              "additionalProperties": false,
              "required": ["name", "location", "verdict", "issue", "issueKind", "transportCause", "attempts", "invalid", "duration", "error", "outcome", "nativeState", "errorCode", "mismatches", "exchanges"],
              "description": "One step (its last attempt when retried).",
              "properties": {
                "name": { "type": "string", "description": "The step label." },
                "location": { "$ref": "#/$defs/location", "description": "Where the step is written." },
                "verdict": { "$ref": "#/$defs/verdict", "description": "The step verdict." },
                "issue": { "type": ["string", "null"], "enum": ["mismatch", "transport", "runTimeout", "invalidStep", "couldNotRun", "interrupted", "finding", null], "description": "Why the step did not pass: expectations not met (`mismatch`, verdict failed); the exchange never completed (`transport`); the run timeout ended it; the step is invalid as written (exit 2); it could not run; the run was interrupted; the merchant's backend broke a provider rule the run gates on (`finding`, verdict failed; see `findingGate`). Null when it passed." },
                "findingGate": { "type": "string", "enum": ["info", "warning", "error"], "description": "For a `finding` issue: the severity `--fail-on findings[:severity]` gated on; the step's findings of that severity or more failed it." },
                "issueKind": { "type": ["string", "null"], "description": "What happened, for a runTimeout (beforeCase, whileStepRan, endedRetries), invalidStep (template, step, input), couldNotRun (provider, clockNotRestored, premiseNotMet, serviceFailed, notStarted, unexpected) or interrupted (stopped, beforeCases, quitTwice) issue; `reported` when read from a report that did not say; null for the other issues." },
                "transportCause": { "type": ["string", "null"], "enum": ["timeout", "connect", "closed", "tls", "other", null], "description": "For a `transport` issue: no answer in time, no connection, the connection closed before a whole answer, a failed TLS handshake, or another client error." },
                "attempts": { "type": "integer", "minimum": 0, "description": "How many attempts ran (1 without retry)." },
                "invalid": { "type": "boolean", "description": "Whether the step is invalid as written (the suite must change; exit 2)." },
                "duration": { "$ref": "#/$defs/seconds", "description": "Seconds, all attempts included." },
                "error": { "type": ["string", "null"], "description": "Why the step could not run (verdict `error`); null otherwise." },
                "outcome": { "type": ["string", "null"], "description": "The canonical outcome observed (`succeeded`, `pending`, `rejected`…), for provider steps." },
                "nativeState": { "type": ["string", "null"], "description": "The provider's native state the outcome was mapped from, e.g. `REJECTED`." },
                "errorCode": {
                  "type": ["object", "null"],
                  "description": "The provider error catalog entry observed (without its message), usually `class` and `code`.",
                  "additionalProperties": { "type": "string" }
                },
                "mismatches": { "type": "array", "items": { "$ref": "#/$defs/mismatch" }, "description": "Expectations that did not hold." },
                "exchanges": { "type": "array", "items": { "$ref": "#/$defs/exchange" }, "description": "The HTTP exchanges of the last attempt." },
                "evidence": { "type": "array", "items": { "$ref": "#/$defs/evidence" }, "description": "In merchant cases: the requests the backend sent to the mock and the notifications the mock sent to the backend while the step ran, in order." },
                "findings": { "type": "array", "items": { "$ref": "#/$defs/finding" }, "description": "In merchant cases: what the provider's rules found wrong with the backend's requests while the step ran." }
              }
            },
            "evidence": {
              "type": "object",
              "additionalProperties": false,
              "required": ["kind", "sequence", "provider", "method", "target", "headers", "body", "status", "answer", "attempt", "error", "at"],
              "description": "A request the merchant's backend sent to the mock (with the mock's answer), or a notification the mock sent to the backend (with the backend's answer); redacted.",
              "properties": {
                "kind": { "enum": ["request", "notification"], "description": "`request`: backend → mock; `notification`: mock → backend." },
                "sequence": { "type": "integer", "description": "Its number in the mock's journal (the order things happened)." },
                "provider": { "type": ["string", "null"], "description": "The provider of a notification." },
                "method": { "type": "string", "description": "The HTTP method." },
                "target": { "type": "string", "description": "The path on the mock (request) or the backend's URL (notification)." },
                "headers": { "$ref": "#/$defs/headers", "description": "The headers sent." },
                "body": { "type": "string", "description": "The body sent." },
                "status": { "type": ["integer", "null"], "description": "The answer's status, or null when none came." },
                "answer": { "type": "string", "description": "The answer's body." },
                "attempt": { "type": ["integer", "null"], "description": "The delivery attempt of a notification." },
                "error": { "type": ["string", "null"], "description": "Why a notification got no answer." },
                "at": { "type": "string", "description": "When, on the mock's clock (ISO 8601)." }
              }
            },
            "finding": {
              "type": "object",
              "additionalProperties": false,
              "required": ["rule", "severity", "message", "request", "sequence", "source"],
              "description": "A breach of a provider rule by a request of the merchant's backend (`paycheck explain <rule>`).",
              "properties": {
                "rule": { "type": "string", "description": "The rule id, e.g. `placetopay.nonce-reused`." },
                "severity": { "enum": ["info", "warning", "error"], "description": "How much it matters." },
                "message": { "type": "string", "description": "What was wrong with this request." },
                "request": { "type": "string", "description": "The request, e.g. `POST /placetopay/api/session`." },
                "sequence": { "type": "integer", "description": "The request's number in the mock's journal." },
                "source": { "type": "string", "description": "Where the rule comes from (providers.md section, provider docs)." }
              }
            },
            "mismatch": {
              "type": "object",
              "additionalProperties": false,
              "required": ["location", "subject", "expected", "actual", "kind"],
              "description": "A failed expectation.",
              "properties": {
                "location": { "$ref": "#/$defs/location", "description": "Where the expectation is written." },
                "subject": { "type": "string", "description": "What was checked, e.g. `status`, `body.status.status`, `header content-type`, `outcome`." },
                "expected": { "type": "string", "description": "The expectation in words, e.g. `eq 200`." },
                "actual": { "type": "string", "description": "The actual value, or `(absent)`." },
                "kind": { "type": "string", "description": "The failure type, e.g. `StatusMismatch`, `BodyMismatch`, `OutcomeMismatch`, `UnexpectedPass`; the JUnit failure `type`." }
              }
            },
            "exchange": {
              "type": "object",
              "additionalProperties": false,
              "required": ["method", "url", "requestHeaders", "requestBody", "status", "responseHeaders", "responseBody", "duration", "error"],
              "description": "One HTTP request and its response, redacted.",
              "properties": {
                "method": { "type": "string", "description": "The request method." },
                "url": { "type": "string", "description": "The request URL." },
                "requestHeaders": { "$ref": "#/$defs/headers", "description": "Request headers." },
                "requestBody": { "type": "string", "description": "Request body text (cut at 64 KiB)." },
                "readBody": { "type": "string", "description": "Present when the provider's adapter read the answer as something other than its body: MIT's encrypted answer, decrypted with the merchant's key (redacted like the body). paycheck drift compares it." },
                "retries": { "type": "array", "items": { "type": "string" }, "description": "Present when a live target retried the exchange: each attempt before the one shown, why it was retried and how long the run waited (`attempt 1: HTTP 503, retried after 0.2s`)." },
                "status": { "type": ["integer", "null"], "description": "Response status, or null when there was no response." },
                "responseHeaders": { "$ref": "#/$defs/headers", "description": "Response headers." },
                "responseBody": { "type": "string", "description": "Response body text (cut at 64 KiB)." },
                "duration": { "$ref": "#/$defs/seconds", "description": "Seconds from sending to the full response." },
                "error": { "type": ["string", "null"], "description": "The transport error when there was no response; null otherwise." }
              }
            },
            "providerCoverage": {
              "type": "object",
              "additionalProperties": false,
              "required": ["outcomes", "nativeStates", "errorCodes", "mapping", "catalog"],
              "description": "What one provider's steps observed; each list sorted and without duplicates.",
              "properties": {
                "mapping": {
                  "type": "array",
                  "description": "Every row of the provider's native-state → outcome table, in table order, and whether a step observed it.",
                  "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["state", "outcome", "covered"],
                    "properties": {
                      "state": { "type": "string", "description": "`STATE` or `STATE/REASON`." },
                      "outcome": { "type": "string", "description": "The canonical outcome the row maps to." },
                      "covered": { "type": "boolean", "description": "Whether any step of the run observed this native state." }
                    }
                  }
                },
                "catalog": {
                  "type": "array",
                  "description": "Every entry of the provider's error catalog, in catalog order, and whether a step observed it.",
                  "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["code", "class", "covered"],
                    "properties": {
                      "code": { "type": "string", "description": "The native error code." },
                      "class": { "type": "string", "description": "Its class: C, S, P, A or T." },
                      "covered": { "type": "boolean", "description": "Whether any step of the run observed this code." }
                    }
                  }
                },
                "outcomes": { "type": "array", "items": { "type": "string" }, "description": "Canonical outcomes observed." },
                "nativeStates": { "type": "array", "items": { "type": "string" }, "description": "Native states observed." },
                "errorCodes": {
                  "type": "array",
                  "description": "Error codes observed, sorted by `id`.",
                  "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["id", "class", "code"],
                    "properties": {
                      "id": { "type": "string", "description": "`class/code`, the column key in the coverage matrix." },
                      "class": { "type": ["string", "null"], "description": "The error class." },
                      "code": { "type": ["string", "null"], "description": "The error code." }
                    }
                  }
                }
              }
            }
          }
        }
        """#
}
