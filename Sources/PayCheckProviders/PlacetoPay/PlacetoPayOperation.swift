/// The `call:` operations of the PlacetoPay adapter (providers.md §1.4–§1.9).
public enum PlacetoPayOperation: String, Sendable, CaseIterable {
    /// `POST {base}/api/session` — create a checkout session (§1.4).
    case createSession
    /// `POST {base}/api/session/{requestId}` — query a session, the source of truth (§1.5).
    case querySession
    /// `POST {base}/api/session/{requestId}/cancel` — the merchant cancels a pending session (§1.6).
    case cancelSession
    /// `POST {base}/api/transaction` — checkout, reauthorization, reverse, confirm, cancel (§1.7).
    case transaction
    /// `POST {base}/api/reverse` — the legacy reversal the PHP SDK still uses (§1.7).
    case reverse
    /// `POST {base}/api/collect` — charge a stored token without the payer (§1.8).
    case collect
    /// Local: check a received notification's `signature` with the secret key (§1.9).
    case verifyNotification
    /// Local: compute a notification `signature`, e.g. to build a tampered copy (§1.9).
    case signNotification

    /// Whether the operation runs without HTTP.
    public var isLocal: Bool {
        self == .verifyNotification || self == .signNotification
    }

    /// Whether the body takes the create-session defaults `ipAddress` and `userAgent`.
    var takesClientDefaults: Bool {
        self == .createSession || self == .collect
    }

    /// Whether the `with:` parameter `requestId` goes into the path instead of the body.
    var requestIdInPath: Bool {
        self == .querySession || self == .cancelSession
    }

    /// The path below the base URL, with `requestId` for the session routes.
    func path(requestId: String?) -> String {
        switch self {
        case .createSession: "/api/session"
        case .querySession: "/api/session/\(requestId ?? "")"
        case .cancelSession: "/api/session/\(requestId ?? "")/cancel"
        case .transaction: "/api/transaction"
        case .reverse: "/api/reverse"
        case .collect: "/api/collect"
        case .verifyNotification, .signNotification: ""
        }
    }
}
