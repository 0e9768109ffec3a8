import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a callback with the number of signals received so far, instead of the default
/// immediate exit, so that `paycheck run` can stop starting cases, let running steps be cancelled and still
/// write reports. Stopped by ``cancel()``, which restores the default handlers.
final class SignalWatcher: Sendable {
    /// The dispatch sources; only touched in `init` and `cancel`, which callers do not overlap.
    private let sources: Mutex<[any DispatchSourceSignal]>
    /// Signals received, shared with the dispatch handlers.
    private let count = SignalCount()
    /// The watched signal numbers.
    private let signals: [Int32]

    /// Watches `signals`; `onSignal` gets the signal number and how many signals have arrived, this one included.
    init(_ signals: [Int32] = [SIGINT, SIGTERM], onSignal: @escaping @Sendable (Int32, Int) -> Void) {
        self.signals = signals
        let count = self.count
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number, count.value.add(1, ordering: .relaxed).newValue) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }

    /// How many signals arrived.
    var received: Int { count.value.load(ordering: .relaxed) }

    /// Stops watching and restores the default handlers.
    func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources = []
        }
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// A signal counter the dispatch handlers and the watcher share.
final class SignalCount: Sendable {
    /// The count.
    let value = Atomic<Int>(0)
}
