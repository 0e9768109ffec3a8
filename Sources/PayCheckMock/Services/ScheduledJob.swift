package import PayCheckCore
package import Foundation

/// A pending job of a ``MockScheduler``, as ``MockScheduler/pendingJobs`` lists it.
package struct ScheduledJob: Sendable, Equatable {
    /// Identifies a scheduled job; ids grow in scheduling order.
    package struct ID: Hashable, Sendable {
        /// The sequence number.
        package let rawValue: Int
    }

    /// The job's id.
    package let id: ID
    /// The mock-clock instant at which it becomes due.
    package let due: Date
    /// The scope whose clock decides when it is due.
    package let scope: ClockScope
    /// A short description, e.g. `webhook wh-3 attempt 2`.
    package let label: String
}
