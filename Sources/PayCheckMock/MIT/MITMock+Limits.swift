extension MITMock.State: BoundedState {
    /// The id of link number `number`: "PC" and the number in base 36, 8 upper-case alphanumerics (§5.11 C8).
    static func linkID(_ number: Int) -> String {
        let digits = String(number, radix: 36, uppercase: true)
        return "PC" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// WebPay Plus links.
    var resourceCount: Int { self.links.count }

    /// Removes the oldest link still stored.
    mutating func evictOldest() -> Bool {
        while self.oldestLink < self.next {
            let id = Self.linkID(self.oldestLink)
            self.oldestLink += 1
            if self.links.removeValue(forKey: id) != nil { return true }
        }
        return false
    }
}

extension MITMock {
    /// Keeps at most `providerResources` links.
    package func apply(_ limits: MockLimits) { self.state.capacity = limits.providerResources }

    /// Links held and evicted.
    package var stateUsage: (entries: Int, evicted: Int)? {
        let usage = self.state.usage
        return (usage.entries ?? 0, usage.evicted)
    }
}
