import PayCheckCore
import Synchronization

/// The pending injected faults, consumed one count per matching request.
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

    /// Creates an empty registry.
    init() {}

    /// Parses and registers a fault from a control body; returns the stored fault.
    func add(json object: [String: Value]) throws(MockHTTPError) -> Fault {
        try self.state.withLock { (state) throws(MockHTTPError) -> Fault in
            let fault = try Fault(json: object, id: "fault-\(state.lastID + 1)")
            state.lastID += 1
            state.faults.append(fault)
            return fault
        }
    }

    /// Consumes one count of the oldest fault whose prefix matches `path` and returns its kind.
    func consume(path: String) -> Fault.Kind? {
        self.state.withLock { state in
            guard let index = state.faults.firstIndex(where: { path.hasPrefix($0.pathPrefix) }) else {
                return nil
            }
            let kind = state.faults[index].kind
            state.faults[index].remaining -= 1
            if state.faults[index].remaining <= 0 {
                state.faults.remove(at: index)
            }
            return kind
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
