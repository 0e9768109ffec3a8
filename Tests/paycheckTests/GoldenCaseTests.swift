import Foundation
import Testing

/// The golden case folders of `Tests/Cases/`: each runs the real `paycheck` binary on its own input and compares what
/// a user sees (exit code, console, and the report files it names) with the recorded outputs, normalised for times,
/// ports and versions. Re-record every folder with `Tests/Cases/record` (or one with `Tests/Cases/record NAME`).
///
/// A folder holds:
/// - `command`: the arguments, split at spaces (`"…"` keeps spaces), run in a copy of `input/`; several lines are
///   several commands run in order (shards, then their merge), and the last one's output is compared;
/// - `input/`: the suites and anything else the command reads;
/// - optional `environment`: `NAME=value` lines added to the environment (`$PAYCHECK_REPOSITORY` in a value is the
///   repository's root);
/// - optional `interrupt`: a text; SIGINT is sent once it appears on stdout;
/// - optional `requires`: the commands the folder needs besides `paycheck`, one a line (`python3` for the reference
///   shop); where one is not on PATH the folder is skipped, and says so;
/// - `expected/exit`, `expected/stdout`, `expected/stderr`, and `expected/files/PATH` for each output file to
///   compare (the file at PATH in the run's folder).
///
/// Every command runs with `PAYCHECK_REPOSITORY` set to the repository's root, so an input can reach what the
/// repository holds without a copy: a contract's `backend.start.command` (run by `/bin/sh -c`, with the run's
/// environment) starts `python3 "$PAYCHECK_REPOSITORY/ReferenceBackends/python-shop/shop.py"`, and
/// `PAYCHECK_PACKS=$PAYCHECK_REPOSITORY/Packs` in `environment` finds the packs. The outputs name the root as
/// `<repository>` and the run's folder as `<folder>`.
@Suite("Golden case folders (Tests/Cases)", .serialized)
struct GoldenCaseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Cases")
    /// The repository's root, `PAYCHECK_REPOSITORY` in every command's environment.
    static let repository = root.deletingLastPathComponent().deletingLastPathComponent()
    /// `PAYCHECK_RECORD_CASES`: `all`, or the names of the folders to re-record, separated by commas.
    static func recording(_ name: String) -> Bool {
        guard let value = ProcessInfo.processInfo.environment["PAYCHECK_RECORD_CASES"], !value.isEmpty else { return false }
        return value == "all" || value.split(separator: ",").contains { $0 == name }
    }

    static var names: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("command").path) }.sorted()
    }

    @Test("there are golden cases for every exit code and for diagnostics, redaction, merge, lint, explain, states, merchant runs and drift")
    func coverage() throws {
        let names = Self.names
        let exits = Set(
            names.compactMap { try? String(contentsOf: Self.root.appendingPathComponent("\($0)/expected/exit"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(exits.isSuperset(of: ["0", "1", "2", "3", "4", "130"]), "exit codes with a golden case: \(exits.sorted())")
        for topic in [
            "diagnostics", "redaction", "merge", "lint-", "explain-", "states-", "merchant-pass", "merchant-fail", "merchant-finding", "merchant-backend-fails",
            "drift-",
        ] {
            #expect(names.contains { $0.contains(topic) }, "no golden case about \(topic)")
        }
    }

    @Test("every command's --help fits 80 columns and prints each default once")
    func helpAt80Columns() throws {
        let helps = Self.names.filter { $0.hasPrefix("help-") }
        #expect(helps.count >= 11, "a help-<command> folder per command: \(helps)")
        for name in helps {
            let text = try String(contentsOf: Self.root.appendingPathComponent("\(name)/expected/stdout"), encoding: .utf8)
            for line in text.split(separator: "\n") {
                #expect(line.count <= 80, "\(name): \(line.count) columns: \(line)")
            }
            let joined = text.replacingOccurrences(of: "\n", with: " ")
            #expect(joined.components(separatedBy: "(default:").count - 1 <= joined.components(separatedBy: "--").count, "\(name)")
            #expect(!joined.contains(") (default:") || !joined.contains("(default: the"), "\(name): a default printed twice")
            #expect(!joined.contains("/__PAYCHECK"), "\(name): a path in a capitalised title")
        }
    }

    @Test("the binary's output matches the recorded one", arguments: GoldenCaseTests.names)
    func golden(name: String) throws {
        let source = Self.root.appendingPathComponent(name)
        let required = (try? String(contentsOf: source.appendingPathComponent("requires"), encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        if let missing = required.first(where: { !Self.onPath($0) }) {
            print("skipped \(name): \(missing) is not installed")
            return
        }
        let cli = try CLI(files: [:])
        defer { try? FileManager.default.removeItem(at: cli.folder) }
        let input = source.appendingPathComponent("input")
        if FileManager.default.fileExists(atPath: input.path) {
            for item in try FileManager.default.contentsOfDirectory(atPath: input.path) {
                try FileManager.default.copyItem(at: input.appendingPathComponent(item), to: cli.folder.appendingPathComponent(item))
            }
        }
        let commands = try String(contentsOf: source.appendingPathComponent("command"), encoding: .utf8)
            .split(separator: "\n").map { Self.words(String($0)) }.filter { !$0.isEmpty }
        let arguments = try #require(commands.last, "\(name)/command is empty")
        var environment = ["COLUMNS": "80", "PAYCHECK_REPOSITORY": Self.repository.path]
        if let text = try? String(contentsOf: source.appendingPathComponent("environment"), encoding: .utf8) {
            for line in text.split(separator: "\n") where line.contains("=") {
                let parts = line.split(separator: "=", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1]) : ""
                environment[String(parts[0])] = value.replacingOccurrences(of: "$PAYCHECK_REPOSITORY", with: Self.repository.path)
            }
        }
        for earlier in commands.dropLast() { _ = try cli.run(earlier, environment: environment) }
        let output: CLI.Output
        if let marker = try? String(contentsOf: source.appendingPathComponent("interrupt"), encoding: .utf8) {
            output = try cli.runInterrupted(arguments, after: marker.trimmingCharacters(in: .whitespacesAndNewlines))
        } else {
            output = try cli.run(arguments, environment: environment)
        }
        let expected = source.appendingPathComponent("expected")
        // The run's folder and the repository, by name: they differ from machine to machine.
        let paths: [(path: String, name: String)] = [(cli.folder.path, "<folder>"), (Self.repository.path, "<repository>")]
        let normalised = { (text: String) in Self.normalised(text, paths: paths) }
        var actual: [(path: String, text: String)] = [
            ("exit", "\(output.status)\n"), ("stdout", normalised(output.stdout)), ("stderr", normalised(output.stderr)),
        ]
        let files = expected.appendingPathComponent("files")
        for path in Self.files(under: files) {
            let produced = (try? String(contentsOf: cli.folder.appendingPathComponent(path), encoding: .utf8)).map(normalised) ?? "(no such file)\n"
            actual.append(("files/" + path, produced))
        }
        for (path, text) in actual {
            let file = expected.appendingPathComponent(path)
            if Self.recording(name) {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            let recorded = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if recorded != text {
                Issue.record(Comment(rawValue: "\(name)/expected/\(path) differs (re-record with Tests/Cases/record \(name)):\n" + Self.diff(recorded, text)))
            }
        }
    }

    /// Whether `command` is on PATH.
    static func onPath(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "command -v \"$1\"", "sh", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The files below `folder`, as paths relative to it.
    static func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    /// The words of a command line: split at spaces, `"…"` kept whole.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false
        for character in line.trimmingCharacters(in: .whitespacesAndNewlines) {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    /// What changes from run to run, replaced by a placeholder: durations, times, ports, the host, the version, and
    /// each of `paths` (a folder, as written or JSON-escaped) by its name.
    static func normalised(_ text: String, paths: [(path: String, name: String)] = []) -> String {
        var text = text
        for (path, name) in paths where !path.isEmpty {
            text = text.replacingOccurrences(of: path, with: name).replacingOccurrences(of: path.replacingOccurrences(of: "/", with: "\\/"), with: name)
        }
        let rules: [(String, String)] = [
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?"#, "<time>"),
            (#"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT"#, "<http-date>"),
            (#"(127\.0\.0\.1|localhost|\[::1\]):\d+"#, "$1:<port>"),
            (#"time="[0-9.]+""#, #"time="<t>""#),
            (#"timestamp="[^"]*""#, #"timestamp="<time>""#),
            (#"hostname="[^"]*""#, #"hostname="<host>""#),
            (#"name="version" value="[^"]*""#, #"name="version" value="<version>""#),
            (#""(duration|startedAt|hostname|version)": ("[^"]*"|[0-9.e-]+)"#, #""$1": "<$1>""#),
            (#"(in |, |\(|after )\d+(\.\d+)? ?(ms|s)\b"#, "$1<d>"),
            (#"paycheck [0-9]+\.[0-9]+\.[0-9]+[^\s"<]*"#, "paycheck <version>"),
            // The run's own mock-clock scope, and the answer lengths that carry it.
            (#"run-[0-9a-f]{6,}\b"#, "run-<id>"),
            (#"(Content-Length|content-length)(: |":"|",\s*")\d+"#, "$1$2<n>"),
            // The ids the Mollie mock gives the payments a merchant's backend creates.
            (#"\btr_[A-Za-z0-9]{10}\b"#, "tr_<id>"),
        ]
        for (pattern, replacement) in rules {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: replacement)
        }
        return text
    }

    /// A line diff of two texts: the first differing lines with a little context, `-` recorded, `+` now.
    static func diff(_ old: String, _ new: String) -> String {
        let a = old.components(separatedBy: "\n"), b = new.components(separatedBy: "\n")
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
        }
        var lines = ["@@ line \(start + 1) @@"]
        lines += a[max(0, start - 2)..<start].map { "  " + $0 }
        lines += a[start..<min(endA, start + 20)].map { "- " + $0 }
        lines += b[start..<min(endB, start + 20)].map { "+ " + $0 }
        if endA - start > 20 || endB - start > 20 { lines.append("  … (\(endA - start) recorded and \(endB - start) new lines differ)") }
        return lines.joined(separator: "\n")
    }
}
