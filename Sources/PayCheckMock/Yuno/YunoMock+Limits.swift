extension YunoState: BoundedState {
    /// Payments.
    var resourceCount: Int { self.payments.count }

    /// Removes the oldest payment.
    mutating func evictOldest() -> Bool {
        while !self.paymentOrder.isEmpty {
            let id = self.paymentOrder.removeFirst()
            if self.payments.removeValue(forKey: id) != nil { return true }
        }
        return false
    }
}

extension YunoMock {
    /// Keeps at most `providerResources` payments.
    package func apply(_ limits: MockLimits) { self.store.capacity = limits.providerResources }

    /// Payments held and evicted.
    package var stateUsage: (entries: Int, evicted: Int)? {
        let usage = self.store.usage
        return (usage.entries ?? 0, usage.evicted)
    }
}
