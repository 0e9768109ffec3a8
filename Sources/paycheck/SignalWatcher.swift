import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a callback with the number of signals received so far, instead of the default
/// immediate exit, so that `paycheck run` can stop starting cases, let running steps be cancelled and still
/// write reports (``RunInterruption``). It watches until the process exits: restoring the default action before
/// the exit would let a late signal kill the process with its reports already written.
final class SignalWatcher: Sendable {
    /// The dispatch sources, kept alive for the process's life (never touched after `init`).
    private let sources: Mutex<[any DispatchSourceSignal]>
    /// Signals received, shared with the dispatch handlers.
    private let count = SignalCount()

    /// Watches `signals`; `onSignal` gets the signal number and how many signals have arrived, this one included.
    init(_ signals: [Int32] = [SIGINT, SIGTERM], onSignal: @escaping @Sendable (Int32, Int) -> Void) {
        let count = self.count
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            // On Linux the signals are held (blocked) from before `main` and libdispatch reads them from a signalfd,
            // which also takes one that came before the watcher; setting SIG_IGN would discard that pending one.
            // Where dispatch watches through kqueue, the default action must be turned off instead.
            #if !os(Linux)
                signal(number, SIG_IGN)
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number, count.value.add(1, ordering: .relaxed).newValue) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }
}

/// A signal counter the dispatch handlers and the watcher share.
final class SignalCount: Sendable {
    /// The count.
    let value = Atomic<Int>(0)
}
