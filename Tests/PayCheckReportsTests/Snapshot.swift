import Foundation
import Testing

/// Compares `actual` with the golden file `Snapshots/<name>.<ext>` (read from `Bundle.module`).
///
/// With `RECORD_SNAPSHOTS=1`, or when the golden file does not exist yet, writes `actual` to the source tree
/// instead and fails, so a human reviews the new file before it counts.
func assertSnapshot(
    _ actual: String, named name: String, ext: String, filePath: String = #filePath,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let sourceURL = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent("\(name).\(ext)")
    let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
    let expected = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Snapshots")
        .flatMap { try? String(contentsOf: $0, encoding: .utf8) }
    if record || expected == nil {
        do {
            try actual.write(to: sourceURL, atomically: true, encoding: .utf8)
            let why = record ? "RECORD_SNAPSHOTS=1" : "it did not exist"
            Issue.record(
                "recorded snapshot \(sourceURL.path) because \(why); review it, then run the tests again",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("could not record snapshot \(sourceURL.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected, expected != actual else { return }
    Issue.record(
        "output differs from snapshot \(name).\(ext) (re-record with RECORD_SNAPSHOTS=1):\n\(firstDifference(expected, actual))",
        sourceLocation: sourceLocation)
}

/// The first differing line of two texts with a little context.
private func firstDifference(_ expected: String, _ actual: String) -> String {
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let index = zip(e, a).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(e.count, a.count)
    let line = { (lines: [Substring]) in index < lines.count ? String(lines[index]).debugDescription : "(end of text)" }
    return "line \(index + 1):\n  - expected: \(line(e))\n  + actual:   \(line(a))\n(expected \(e.count) lines, got \(a.count))"
}
