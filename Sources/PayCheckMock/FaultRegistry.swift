import PayCheckCore
import PayCheckProviders
import Synchronization

/// The pending injected faults: the oldest matching fault applies, one count per match (or its ratio of matches).
final class FaultRegistry: Sendable {
    /// Guarded contents.
    private struct State {
        /// Pending faults in registration order.
        var faults: [Fault] = []
        /// The last number used for a `fault-N` id.
        var lastID = 0
    }

    /// The guarded state.
    private let state = Mutex(State())
    /// The hosted providers, whose operations and base paths faults may name.
    private let providers: [any Provider]

    /// Creates an empty registry for `providers`.
    init(providers: [any Provider] = []) {
        self.providers = providers
    }

    /// Parses and registers a fault from a control body; returns the stored fault.
    func add(json object: [String: Value]) throws(MockHTTPError) -> Fault {
        let providers = self.providers
        return try self.state.withLock { (state) throws(MockHTTPError) -> Fault in
            let fault = try Fault(json: object, id: "fault-\(state.lastID + 1)", providers: providers)
            state.lastID += 1
            state.faults.append(fault)
            return fault
        }
    }

    /// The fault that applies to a request `method path`, if any, counted as applied.
    func consume(method: String, path: String) -> Fault? {
        self.consume { $0.matches(method: method, path: path) }
    }

    /// The webhook fault that applies to `provider`'s next notification, if any, counted as applied.
    func consumeWebhook(provider: String) -> Fault? {
        self.consume { fault in
            if case .webhooks(let id) = fault.target { return id == provider }
            return false
        }
    }

    /// Finds the oldest fault matching `predicate` that applies this time, and counts it.
    private func consume(where predicate: (Fault) -> Bool) -> Fault? {
        self.state.withLock { state in
            for index in state.faults.indices where predicate(state.faults[index]) {
                state.faults[index].seen += 1
                if let ratio = state.faults[index].ratio {
                    // Deterministic: applies whenever the running share of matches crosses the ratio.
                    let seen = Double(state.faults[index].seen)
                    guard (seen * ratio).rounded(.down) > ((seen - 1) * ratio).rounded(.down) else { continue }
                }
                state.faults[index].applied += 1
                let fault = state.faults[index]
                if let remaining = fault.remaining {
                    if remaining <= 1 { state.faults.remove(at: index) } else { state.faults[index].remaining = remaining - 1 }
                }
                return fault
            }
            return nil
        }
    }

    /// The pending faults in registration order.
    var pending: [Fault] {
        self.state.withLock { $0.faults }
    }

    /// Removes every pending fault and restarts ids at `fault-1`.
    func clear() {
        self.state.withLock { $0 = State() }
    }
}
