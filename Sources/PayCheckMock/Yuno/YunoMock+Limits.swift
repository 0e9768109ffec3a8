import PayCheckCore

extension YunoState: BoundedState {
    /// Payments.
    var resourceCount: Int { self.payments.count }

    /// Removes the oldest payment.
    mutating func evictOldest() -> Bool {
        while !self.paymentOrder.isEmpty {
            let id = self.paymentOrder.removeFirst()
            if let payment = self.payments.removeValue(forKey: id) {
                if let order = payment.body["merchant_order_id"]?.stringValue {
                    self.paymentsByOrder[order]?.removeAll { $0 == id }
                    if self.paymentsByOrder[order]?.isEmpty == true { self.paymentsByOrder[order] = nil }
                }
                return true
            }
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
