extension MollieState: BoundedState {
    /// Payments.
    var resourceCount: Int { self.payments.count }

    /// Removes the oldest payment (lists are built from `order`, so it leaves them too).
    mutating func evictOldest() -> Bool {
        while !self.order.isEmpty {
            let id = self.order.removeFirst()
            if self.payments.removeValue(forKey: id) != nil { return true }
        }
        return false
    }
}

extension MollieMock {
    /// Keeps at most `providerResources` payments.
    package func apply(_ limits: MockLimits) { self.store.capacity = limits.providerResources }

    /// Payments held and evicted.
    package var stateUsage: (entries: Int, evicted: Int)? {
        let usage = self.store.usage
        return (usage.entries ?? 0, usage.evicted)
    }
}
