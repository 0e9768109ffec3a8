import Foundation

extension Duration {
    /// The duration in seconds, as the mock clock counts them.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = self.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
