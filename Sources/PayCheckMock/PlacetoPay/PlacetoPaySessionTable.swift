/// The sessions of one mock by `requestId`: a dictionary whose values are boxed.
///
/// Why not `[Int: PlacetoPaySession]`: a session is a large struct stored inline, so each time the dictionary
/// doubled it moved every session while the state's lock was held. Under load (Benchmarks/, `wrk` on
/// createSession, 100,000+ sessions in seconds) those moves were the latency tail — p99 ≈ 45 ms instead of
/// ≈ 4 ms with the capacity reserved up front. With one reference per entry a resize moves 8 bytes per session.
/// The boxes are immutable and every write stores a new one, so the table keeps value semantics.
struct PlacetoPaySessionTable {
    /// One stored session.
    private final class Box: Sendable {
        /// The session.
        let session: PlacetoPaySession

        init(_ session: PlacetoPaySession) {
            self.session = session
        }
    }

    /// The boxes by `requestId`.
    private var boxes: [Int: Box] = [:]

    /// Creates an empty table.
    init() {}

    /// The session `requestId`, or `nil`; assigning `nil` removes it.
    subscript(requestId: Int) -> PlacetoPaySession? {
        get { self.boxes[requestId]?.session }
        set { self.boxes[requestId] = newValue.map(Box.init) }
    }

    /// The number of sessions.
    var count: Int { self.boxes.count }
}
