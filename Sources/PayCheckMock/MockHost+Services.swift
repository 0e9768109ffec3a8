package import PayCheckCore
extension MockHost {
    /// The clock of the current request's scope (``ClockScope/current``), or the default clock outside a request.
    var currentClock: MockClock {
        self.clockScopes.current
    }

    /// Runs due scheduler jobs every `interval` of real time until the calling task is cancelled, so that jobs
    /// also fire as real time passes, not only when the clock control route moves mock time.
    ///
    /// ``run(host:port:handleSignals:onRunning:)`` runs it next to the server; call it yourself in the same task
    /// group when you serve ``makeApplication(host:port:onRunning:)`` in your own service group.
    package func runScheduler(every interval: Duration = .seconds(1)) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await self.scheduler.runDue()
        }
    }
}
