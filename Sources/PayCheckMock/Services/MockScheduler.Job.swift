package import PayCheckCore
import Foundation

extension MockScheduler {
    /// A pending job with its work.
    struct Job: Sendable {
        /// The job's id, which is also its scheduling order.
        let id: ScheduledJob.ID
        /// The mock-clock instant at which it becomes due.
        let due: Date
        /// The scope whose clock decides, bound to ``ClockScope/current`` while the job runs.
        let scope: ClockScope
        /// A short description.
        let label: String
        /// The work.
        let work: @Sendable () async -> Void

        /// Whether `first` fires before `second`: earlier due time first, then earlier scheduling.
        static func firesBefore(_ first: Job, _ second: Job) -> Bool {
            if first.due != second.due { return first.due < second.due }
            return first.id.rawValue < second.id.rawValue
        }
    }
}
