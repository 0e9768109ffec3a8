package import Foundation
package import PayCheckCore
package import PayCheckRunner

/// A recording on disk (`--record DIR`): `recording.json` says what run it is (the target, each provider's base URL,
/// the cases and their files), and `cases/NNNN.json` holds each case's exchanges — redacted exactly as the reports
/// are, in the JSON report's exchange shape — and the random numbers it drew.
package enum RecordingFile {
    /// The version of the shape, written as `schemaVersion`.
    package static let schemaVersion = 1

    /// What `recording.json` says besides the cases.
    package struct Header: Sendable {
        /// The target recorded (`sandbox`, a profile's target…), when, and with which PayCheck.
        package var target: String
        package var recordedAt: Date
        package var version: String
        /// Each provider's base URL on that target.
        package var baseURLs: [String: String]

        /// Creates a header.
        package init(target: String, recordedAt: Date, version: String, baseURLs: [String: String]) {
            self.target = target
            self.recordedAt = recordedAt
            self.version = version
            self.baseURLs = baseURLs
        }
    }

    /// Why a recording cannot be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The message.
        package var description: String
    }

    /// Writes `cases` to `directory`, replacing an earlier recording there.
    package static func write(_ cases: [RunRecording.Case], header: Header, to directory: String) throws {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let casesFolder = folder.appendingPathComponent("cases", isDirectory: true)
        try? FileManager.default.removeItem(at: casesFolder)
        try FileManager.default.createDirectory(at: casesFolder, withIntermediateDirectories: true)
        var index: [Value] = []
        for (number, record) in cases.enumerated() {
            let name = "cases/" + String(format: "%04d", number + 1) + ".json"
            let body: Value = .object([
                "file": .string(record.file), "suite": .string(record.suite), "provider": record.provider.map(Value.string) ?? .null,
                "case": .string(record.name), "verdict": .string(record.verdict.rawValue),
                "skipReason": record.skipReason.map { .string($0.description) } ?? .null,
                "skipKind": record.skipReason.map { .string($0.kind.rawValue) } ?? .null,
                "skipBecause": record.skipReason?.because.map { .string($0) } ?? .null,
                "random": .array(record.random.map { .string(String($0, radix: 16)) }),
                "startedAt": record.startedAt.map { .string(ReportFormat.iso8601($0)) } ?? .null,
                "exchanges": .array(record.exchanges.map(JSONReporter.exchange)),
            ])
            try Data(JSONText.encodeBytes(body, pretty: true) + [UInt8(ascii: "\n")]).write(to: folder.appendingPathComponent(name))
            index.append(
                .object([
                    "file": .string(record.file), "suite": .string(record.suite), "case": .string(record.name),
                    "verdict": .string(record.verdict.rawValue), "path": .string(name),
                ]))
        }
        let top: Value = .object([
            "schemaVersion": .int(schemaVersion), "tool": "paycheck", "version": .string(header.version),
            "target": .string(header.target), "recordedAt": .string(ReportFormat.iso8601(header.recordedAt)),
            "providers": .object(header.baseURLs.mapValues(Value.string)), "cases": .array(index),
        ])
        try Data(JSONText.encodeBytes(top, pretty: true) + [UInt8(ascii: "\n")]).write(to: folder.appendingPathComponent("recording.json"))
    }

    /// Refuses recorded exchanges a replay would misread: each must be an object with a method and a URL, a status
    /// that is an HTTP status (100–599) or absent (no answer), and bodies and an error that are text. A status written
    /// as `"two hundred"` would otherwise replay as no status at all, and a case could pass on it.
    static func checkExchanges(_ value: Value?, in file: String) throws(Failure) {
        guard let value, value != .null else { return }
        guard let exchanges = value.arrayValue else { throw Failure(description: "'\(file)': 'exchanges' is not a list") }
        for (index, exchange) in exchanges.enumerated() {
            let at = "'\(file)': exchange \(index + 1)"
            guard let object = exchange.objectValue else { throw Failure(description: "\(at) is not an object") }
            guard object["method"]?.stringValue?.isEmpty == false, object["url"]?.stringValue != nil else {
                throw Failure(description: "\(at) has no method or URL")
            }
            if let status = object["status"], status != .null {
                guard let code = status.wholeNumber, (100...599).contains(code), status.number != nil else {
                    throw Failure(description: "\(at) has status \(status.brief), not an HTTP status (100–599)")
                }
            }
            for key in ["requestBody", "responseBody", "error"] {
                if let field = object[key], field != .null, field.stringValue == nil {
                    throw Failure(description: "\(at) has \(key) \(field.brief), not text")
                }
            }
            for key in ["requestHeaders", "responseHeaders"] {
                if let field = object[key], field != .null, field.arrayValue == nil {
                    throw Failure(description: "\(at) has \(key) \(field.brief), not a list of name-value pairs")
                }
            }
        }
    }

    /// Reads the recording in `directory`.
    /// - Throws: ``Failure`` naming the file that is missing or not a recording.
    package static func read(_ directory: String) throws(Failure) -> (header: Header, cases: [RunRecording.Case]) {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        func json(_ name: String) throws(Failure) -> [String: Value] {
            let path = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "cannot read '\(path)'" + (name == "recording.json" ? ": '\(directory)' is not a recording (paycheck run --record DIR makes one)" : ""))
            }
            guard let object = JSONText.parse(Array(data))?.objectValue else { throw Failure(description: "'\(path)' is not a JSON object") }
            return object
        }
        let top = try json("recording.json")
        guard top["tool"]?.stringValue == "paycheck", top["schemaVersion"]?.intValue == schemaVersion else {
            throw Failure(description: "'\(directory)/recording.json' is not a PayCheck recording of schema version \(schemaVersion)")
        }
        let header = Header(
            target: top["target"]?.stringValue ?? "", recordedAt: top["recordedAt"]?.stringValue.flatMap { ISOTimestamp.parse($0) } ?? Date(timeIntervalSince1970: 0),
            version: top["version"]?.stringValue ?? "", baseURLs: (top["providers"]?.objectValue ?? [:]).compactMapValues(\.stringValue))
        var cases: [RunRecording.Case] = []
        for entry in top["cases"]?.arrayValue ?? [] {
            guard let path = entry["path"]?.stringValue, !path.contains(".."), path.hasPrefix("cases/") else {
                throw Failure(description: "'\(directory)/recording.json' lists a case without a path under cases/")
            }
            let body = try json(path)
            guard let file = body["file"]?.stringValue, let suite = body["suite"]?.stringValue, let name = body["case"]?.stringValue,
                let verdict = body["verdict"]?.stringValue.flatMap(Verdict.init(rawValue:))
            else { throw Failure(description: "'\(directory)/\(path)' lacks file, suite, case or verdict") }
            try Self.checkExchanges(body["exchanges"], in: "\(directory)/\(path)")
            var record = RunRecording.Case(
                file: file, suite: suite, provider: body["provider"]?.stringValue, name: name, verdict: verdict,
                skipReason: body["skipReason"]?.stringValue.map {
                    SkipReason(reading: $0, kind: body["skipKind"]?.stringValue, because: body["skipBecause"]?.stringValue)
                },
                random: (body["random"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { UInt64($0, radix: 16) } },
                exchanges: (body["exchanges"]?.arrayValue ?? []).map(JSONReportReader.exchange))
            record.startedAt = body["startedAt"]?.stringValue.flatMap { ISOTimestamp.parse($0) }
            cases.append(record)
        }
        return (header, cases)
    }
}
