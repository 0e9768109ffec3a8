package import PayCheckCore
import PayCheckRunner

extension CaseResult {
    /// Where a reader should look: the first failed expectation of the failing step, else the failing step, else
    /// the case.
    var reportLocation: SourceLocation {
        guard let step = failingStep else { return location }
        return step.mismatches.first?.location ?? step.location
    }

    /// One line saying what went wrong, for annotations and code-quality entries (empty for passing cases).
    var problemSummary: String {
        guard let step = failingStep else { return verdict == .failed ? "failed" : "" }
        if let mismatch = step.mismatches.first {
            let more = step.mismatches.count > 1 ? " (and \(step.mismatches.count - 1) more)" : ""
            return "\(step.name): \(mismatch.message)\(more)"
        }
        return "\(step.name): \(step.error ?? "could not run")"
    }
}
