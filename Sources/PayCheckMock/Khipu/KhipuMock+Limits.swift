extension KhipuState: BoundedState {
    /// Payments.
    var resourceCount: Int { self.payments.count }

    /// Removes the oldest payment still stored, and its notification token.
    mutating func evictOldest() -> Bool {
        while self.oldest < self.creationOrder.count {
            let id = self.creationOrder[self.oldest]
            self.oldest += 1
            if self.oldest > 1024, self.oldest * 2 > self.creationOrder.count {
                self.creationOrder.removeFirst(self.oldest)
                self.oldest = 0
            }
            if let payment = self.payments.removeValue(forKey: id) {
                self.byToken[payment.notificationToken] = nil
                return true
            }
        }
        return false
    }
}

extension KhipuMock {
    /// Keeps at most `providerResources` payments.
    package func apply(_ limits: MockLimits) { self.store.capacity = limits.providerResources }

    /// Payments held and evicted.
    package var stateUsage: (entries: Int, evicted: Int)? {
        let usage = self.store.usage
        return (usage.entries ?? 0, usage.evicted)
    }
}
