import Foundation

/// A pending job of a ``MockScheduler``, as ``MockScheduler/pendingJobs`` lists it.
public struct ScheduledJob: Sendable, Equatable {
    /// Identifies a scheduled job; ids grow in scheduling order.
    public struct ID: Hashable, Sendable {
        /// The sequence number.
        public let rawValue: Int
    }

    /// The job's id.
    public let id: ID
    /// The mock-clock instant at which it becomes due.
    public let due: Date
    /// The scope whose clock decides when it is due.
    public let scope: ClockScope
    /// A short description, e.g. `webhook wh-3 attempt 2`.
    public let label: String
}
