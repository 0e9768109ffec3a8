import Foundation

/// Reads suite files (YAML through Yams `compose`, never `Decodable`) into validated `Suite` values,
/// collecting every problem of every file as a `Diagnostic` with its location.
package struct SuiteLoader: Sendable {
    /// What the loader knows about providers, to check `provider:` and action names.
    package var catalog: any ProviderCatalog
    /// Reads a file's text; injected so tests can load from memory.
    package var readFile: @Sendable (String) throws -> String
    /// Variables given from outside the suites (`--var`, `--secret`), which templates may read.
    package var externalVariables: Set<String> = []

    /// Creates a loader reading from the file system.
    package init(catalog: any ProviderCatalog = EmptyProviderCatalog(), readFile: (@Sendable (String) throws -> String)? = nil) {
        self.catalog = catalog
        self.readFile = readFile ?? SuiteLoader.readText
    }

    /// The result of loading: the suites that loaded cleanly, every diagnostic, and the source texts read.
    package struct Result: Sendable {
        /// Suites without errors, in path order.
        package var suites: [Suite]
        /// Every problem found, in file order.
        package var diagnostics: [Diagnostic]
        /// The text of each file read, for quoting source lines in diagnostics.
        package var sources: [String: String]
        /// Suite files found (including ones that failed to load).
        package var files: [String]
        /// The paths given that do not exist, each with the index of its diagnostic in ``diagnostics``.
        package var missing: [(path: String, diagnostic: Int)] = []
    }

    /// Loads files and folders (folders recursively, `*.yaml` and `*.yml`, sorted; step fragments skipped).
    package func load(paths: [String]) -> Result {
        var diagnostics: [Diagnostic] = []
        var missing: [(path: String, diagnostic: Int)] = []
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    let found = SuiteLoader.suiteFiles(in: path)
                    files += found.files
                    for skipped in found.skipped {
                        diagnostics.append(Diagnostic(.warning, at: nil, "skipped '\(skipped)': it is named like a suite but is not a regular file"))
                    }
                } else {
                    files.append(path)
                }
            } else {
                missing.append((path, diagnostics.count))
                diagnostics.append(Diagnostic(at: nil, "no such file or folder '\(path)'"))
            }
        }
        var result = load(files: files, explicit: Set(paths))
        result.diagnostics = diagnostics + result.diagnostics
        result.missing = missing
        return result
    }

    /// Loads the given files. Files that are step fragments (top-level `steps:` without `suite:`) are
    /// skipped unless named in `explicit`.
    package func load(files: [String], explicit: Set<String> = []) -> Result {
        // Files parse independently, on every core (parsing was a sixth of a 1,000-case run and most of `lint`,
        // docs/benchmarks.md); the results are merged in file order, so the outcome does not depend on the cores.
        let loads = UnsafeMutableBufferPointer<FileLoad?>.allocate(capacity: files.count)
        loads.initialize(repeating: nil)
        defer {
            loads.deinitialize()
            loads.deallocate()
        }
        let slots = FileLoadSlots(loads)
        if files.count < 4 {
            for (index, file) in files.enumerated() { slots.store(index, loadFile(file, fragmentAllowed: !explicit.contains(file))) }
        } else {
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                slots.store(index, loadFile(files[index], fragmentAllowed: !explicit.contains(files[index])))
            }
        }
        var suites: [Suite] = []
        var diagnostics: [Diagnostic] = []
        var sources: [String: String] = [:]
        var suiteFiles: [String] = []
        for (file, load) in zip(files, loads) {
            guard let load else { continue }
            diagnostics += load.diagnostics
            guard let text = load.text else { continue }
            sources[file] = text
            sources.merge(load.includedSources) { a, _ in a }
            switch load.outcome {
            case .suites(let parsed):
                suiteFiles.append(file)
                suites += parsed
            case .fragment:
                break
            case .invalid:
                suiteFiles.append(file)
            }
        }
        return Result(suites: suites, diagnostics: diagnostics, sources: sources, files: suiteFiles)
    }

    /// What loading one file gave: its text (`nil` when it could not be read), the files it included, its
    /// problems, and its suites (each with the file's digest) when it has no error.
    private struct FileLoad {
        var text: String?
        var includedSources: [String: String] = [:]
        var diagnostics: [Diagnostic]
        var outcome: SuiteParser.Outcome = .invalid
    }

    /// The result slots of ``load(files:explicit:)``: each written once, by the one iteration that owns its index.
    private final class FileLoadSlots: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<FileLoad?>
        init(_ slots: UnsafeMutableBufferPointer<FileLoad?>) { self.slots = slots }
        func store(_ index: Int, _ load: FileLoad) { slots[index] = load }
    }

    /// Reads and parses one file.
    private func loadFile(_ file: String, fragmentAllowed: Bool) -> FileLoad {
        let text: String
        do {
            text = try readFile(file)
        } catch let error as SuiteTextError {
            return FileLoad(text: nil, diagnostics: [Diagnostic(at: error.location(in: file), error.message, hint: error.hint)])
        } catch {
            return FileLoad(text: nil, diagnostics: [Diagnostic(at: nil, "cannot read '\(file)': \(error.localizedDescription)")])
        }
        var parser = SuiteParser(file: file, text: text, catalog: catalog, loader: self)
        var outcome = parser.parseSuite(fragmentAllowed: fragmentAllowed)
        if case .suites(let parsed) = outcome {
            checkFlow(of: parsed, text: text, into: &parser.diagnostics)
            if parser.diagnostics.hasErrors { outcome = .invalid }
        }
        if case .suites(let parsed) = outcome {
            let digest = StableDigest.of(
                [text] + parser.includedSources.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
            outcome = .suites(
                parser.diagnostics.hasErrors
                    ? []
                    : parsed.map { suite in
                        var suite = suite
                        suite.sourceDigest = digest
                        return suite
                    })
        }
        return FileLoad(text: text, includedSources: parser.includedSources, diagnostics: parser.diagnostics, outcome: outcome)
    }

    /// Parses one suite from text (for tests and editors); a suite with `rows:` gives its first row's suite.
    package func parse(text: String, file: String) -> (suite: Suite?, diagnostics: [Diagnostic]) {
        let (suites, diagnostics) = parseAll(text: text, file: file)
        return (suites.first, diagnostics)
    }

    /// Parses the suites of one file from text: one, or one per row of the suite's `rows:`.
    package func parseAll(text: String, file: String) -> (suites: [Suite], diagnostics: [Diagnostic]) {
        var parser = SuiteParser(file: file, text: text, catalog: catalog, loader: self)
        let outcome = parser.parseSuite(fragmentAllowed: false)
        if case .suites(let suites) = outcome {
            checkFlow(of: suites, text: text, into: &parser.diagnostics)
            if !parser.diagnostics.hasErrors { return (suites, parser.diagnostics) }
        }
        return ([], parser.diagnostics)
    }

    /// Adds the variable-flow problems of `suites` to `diagnostics` — also when other errors were found, so that a
    /// file's problems all come in one pass. A step that did not parse loses its captures, so then a name the file
    /// writes as a key anywhere (`capture: { name: … }`, `vars:`, `set:`) is not reported undefined: that would be
    /// the other error's echo; nor is a template another error already stands at.
    private func checkFlow(of suites: [Suite], text: String, into diagnostics: inout [Diagnostic]) {
        let hadErrors = diagnostics.hasErrors
        let reported = Set(diagnostics.filter { $0.severity == .error }.compactMap(\.location))
        for suite in suites {
            diagnostics += VariableFlowCheck(external: externalVariables).check(suite).filter { diagnostic in
                guard hadErrors, let name = diagnostic.message.split(separator: "'").dropFirst().first else { return true }
                // Nor where another error already stands (`{{ row.a }}` outside a table is that error, not a second).
                if let location = diagnostic.location, reported.contains(location) { return false }
                return !text.contains("\(name):")
            }
        }
    }

    /// The `*.yaml`/`*.yml` regular files below `folder`, sorted; entries named like suites that are not regular
    /// files (a folder called `x.yaml`, a device) are returned apart, to be skipped with a warning.
    static func suiteFiles(in folder: String) -> (files: [String], skipped: [String]) {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return ([], []) }
        var files: [String] = []
        var skipped: [String] = []
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") else { continue }
            let path = base + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
                    || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            {
                files.append(path)
            } else {
                skipped.append(path)
            }
        }
        return (files.sorted(), skipped.sorted())
    }

    /// The largest suite file read (4 MiB; the built-in suites' largest is a few KiB). Loading time is linear in the
    /// input, so the bound keeps a run's or an editor's lint under a second or so.
    package static let maximumFileBytes = 4 << 20

    /// Reads a suite file as UTF-8 text, without a leading byte-order mark; a binary file or invalid UTF-8 is a
    /// ``SuiteTextError`` at the offending byte.
    @Sendable static func readText(_ path: String) throws -> String {
        // Never more than the bound is read, so a huge file is refused at once (a 50 MB one took YAML 30 s).
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let bytes = Array(try handle.read(upToCount: maximumFileBytes + 1) ?? Data())
        guard bytes.count <= maximumFileBytes else {
            throw SuiteTextError(
                bytes: [], offset: 0, message: "the file is more than the \(maximumFileBytes >> 20) MiB a suite file may be",
                hint: "split it into several files (a folder of suites runs as one), or move large data into variables")
        }
        if let nul = bytes.firstIndex(of: 0) {
            throw SuiteTextError(bytes: bytes, offset: nul, message: "the file is binary (a NUL byte at offset \(nul)), not a YAML suite")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else {
            var valid = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decode: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): valid += UTF8.width(scalar)
                case .emptyInput, .error: break decode
                }
            }
            let byte = String(bytes[valid], radix: 16, uppercase: true)
            throw SuiteTextError(bytes: bytes, offset: valid, message: "the file is not UTF-8 text (byte 0x\(byte) at offset \(valid)); save it as UTF-8")
        }
        // A UTF-8 byte-order mark (as Windows editors save) is not part of the YAML; without it, columns on the first
        // line are the ones an editor shows.
        return text.first == "\u{FEFF}" ? String(text.dropFirst()) : text
    }
}

/// A suite file that is not UTF-8 text (or too large to read), with the offset of the first offending byte.
struct SuiteTextError: Error {
    /// The file's bytes.
    var bytes: [UInt8]
    /// Where the first offending byte is.
    var offset: Int
    /// What is wrong, in plain words.
    var message: String
    /// What to do about it.
    var hint = "suites are UTF-8 YAML text"

    /// The 1-based line and column of the offending byte.
    func location(in file: String) -> SourceLocation {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return SourceLocation(file: file, line: line, column: column)
    }
}
