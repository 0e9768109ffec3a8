extension PlacetoPayState: BoundedState {
    /// Sessions.
    var resourceCount: Int { self.sessions.count }

    /// Removes the session with the lowest `requestId` still stored, and its wake-up.
    mutating func evictOldest() -> Bool {
        while self.oldestRequestId < self.nextRequestId {
            let requestId = self.oldestRequestId
            self.oldestRequestId += 1
            if self.sessions[requestId] != nil {
                self.sessions[requestId] = nil
                self.wakeUps[requestId] = nil
                return true
            }
        }
        return false
    }
}

extension PlacetoPayMock {
    /// Keeps at most `providerResources` sessions.
    package func apply(_ limits: MockLimits) { self.store.capacity = limits.providerResources }

    /// Sessions held and evicted.
    package var stateUsage: (entries: Int, evicted: Int)? {
        let usage = self.store.usage
        return (usage.entries ?? 0, usage.evicted)
    }
}
