import Foundation
import Hummingbird
import PayCheckCore
import PayCheckProviders

/// A PlacetoPay error envelope, `{"status":{"status":"FAILED","reason":…,"message":…,"date":…}}`
/// (providers.md §1.3), thrown by the provider routes and answered with its HTTP status.
struct PlacetoPayFailure: Error, HTTPResponseError, CustomStringConvertible {
    /// `status.reason`: a string, or a number (only the 401 authentication envelope uses `401`).
    enum Reason: Sendable, Equatable {
        /// A string reason such as `request_not_valid`.
        case text(String)
        /// A numeric reason such as `401`.
        case code(Int)
    }

    /// The HTTP status of the response.
    var status: HTTPResponse.Status
    /// `status.reason`.
    var reason: Reason
    /// `status.message`.
    var message: String
    /// `status.date` (mock time).
    var date: Date

    /// Creates an envelope with a string reason.
    init(_ status: HTTPResponse.Status, reason: String, message: String, at date: Date) {
        self.status = status
        self.reason = .text(reason)
        self.message = message
        self.date = date
    }

    /// The envelope's `status` object.
    var statusJSON: Value {
        let reason: Value =
            switch self.reason {
            case .text(let text): .string(text)
            case .code(let code): .int(code)
            }
        return .object([
            "status": .string(PlacetoPayStatus.Name.failed.rawValue),
            "reason": reason,
            "message": .string(self.message),
            "date": .string(PlacetoPayStatus.format(self.date)),
        ])
    }

    /// Builds the JSON response.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        MockResponse.json(.object(["status": self.statusJSON]), status: self.status)
    }

    /// The status and message, for logs.
    var description: String { "\(self.status.code) \(self.message)" }

    // MARK: Documented envelopes (providers.md §1.3)

    /// HTTP 401, reason `401`, "Authentication failed 10X" (Spanish for an `es…` locale).
    static func authentication(_ code: PlacetoPayAuthVerifier.FailureCode, locale: String?, at date: Date) -> Self {
        var failure = Self(.unauthorized, reason: "", message: code.message(locale: locale), at: date)
        failure.reason = .code(401)
        return failure
    }

    /// HTTP 404 `NA` "Page not found": an unknown route.
    static func pageNotFound(at date: Date) -> Self {
        Self(.notFound, reason: "NA", message: "Page not found", at: date)
    }

    /// HTTP 404 `request_not_valid` "The requested session does not exist" (documented for cancel; the mock uses
    /// it for query too — the SDK mock's 200/reason `0` would not raise in the official Python client).
    static func sessionNotFound(at date: Date) -> Self {
        Self(.notFound, reason: "request_not_valid", message: "The requested session does not exist", at: date)
    }

    /// HTTP 401 `unauthorized` "The session does not belong to your site", for a session of another site, as the
    /// official Python SDK's fixture `information_fails_session_not_found.json` shows (Spanish there).
    static func sessionOfAnotherSite(at date: Date) -> Self {
        Self(.unauthorized, reason: "unauthorized", message: "The session does not belong to your site", at: date)
    }

    /// HTTP 400 `action_not_allowed` for cancelling a session that is not pending (§1.6).
    static func sessionNotCancellable(_ message: String, at date: Date) -> Self {
        Self(.badRequest, reason: "action_not_allowed", message: message, at: date)
    }

    /// HTTP 400 `request_not_valid`: a transaction action that is unknown, not allowed, or names no transaction.
    static func requestNotValid(_ message: String, at date: Date) -> Self {
        Self(.badRequest, reason: "request_not_valid", message: message, at: date)
    }

    /// HTTP 400 `transaction_request_error` "The transaction has already expired" (§1.3, confirm after expiry).
    static func transactionExpired(at date: Date) -> Self {
        Self(.badRequest, reason: "transaction_request_error", message: "The transaction has already expired", at: date)
    }

    /// HTTP 400 `XN` "The token used is invalid" (§1.3, instrument APIs).
    static func invalidToken(at date: Date) -> Self {
        Self(.badRequest, reason: PlacetoPayStatus.Reason.rejected, message: "The token used is invalid", at: date)
    }

    /// HTTP 400 `BR` with a message naming the field: a create/collect validation error.
    ///
    /// Choice: validation errors are undocumented (providers.md §1.3, §1.13); `BR` is the documented reason for
    /// "The request could not be processed", and the message names the offending field and value.
    static func invalidField(_ message: String, at date: Date) -> Self {
        Self(.badRequest, reason: PlacetoPayStatus.Reason.failed, message: message, at: date)
    }
}
