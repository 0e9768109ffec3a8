/// The canonical outcome every provider's native states map to (DESIGN.md §3, providers.md §6).
package enum Outcome: String, Sendable, CaseIterable, Codable {
    /// Paid / approved.
    case succeeded
    /// Not final: keep polling or wait for the notification.
    case pending
    /// Final: the payment was refused.
    case declined
    /// Final: the payer or the merchant abandoned it.
    case canceled
    /// Final: it timed out.
    case expired
    /// Technical or unknown: reconcile by querying.
    case error
}

/// The error classes, generalising MIT's SDK families to every provider (DESIGN.md §3).
package enum ErrorClass: String, Sendable, CaseIterable, Codable {
    /// Configuration / client setup.
    case C
    /// Service / transport.
    case S
    /// Payment request invalid.
    case P
    /// Authentication.
    case A
    /// Tokenised payment.
    case T

    /// What the class means, in a few words.
    package var meaning: String {
        switch self {
        case .C: "configuration or client setup"
        case .S: "service or transport"
        case .P: "payment request invalid"
        case .A: "authentication"
        case .T: "tokenised payment"
        }
    }
}
