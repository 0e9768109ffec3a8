/// "Did you mean" suggestions by edit distance.
package enum Suggest {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    package static func nearest(_ word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(lowered, candidate.lowercased())
            if best == nil || d < best!.1 { best = (candidate, d) }
        }
        guard let (candidate, d) = best else { return nil }
        let limit = max(1, min(3, candidate.count / 3 + 1))
        return d <= limit ? candidate : nil
    }

    /// Levenshtein distance with transpositions counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
