package import Foundation
package import PayCheckProviders
import Hummingbird
import PayCheckCore

extension PlacetoPayMock {
    /// A refused request in PlacetoPay's envelope: `{status: {status: FAILED, reason: request_not_valid, message,
    /// date}}` (providers.md §1.8).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        let failure = PlacetoPayFailure(HTTPResponse.Status(code: status), reason: "request_not_valid", message: message, at: now)
        return HTTPResponseData.json(status: status, .object(["status": failure.statusJSON]))
    }

    /// Anything no route serves under `/placetopay`, another method on a known path included, is 404 `NA` "Page not
    /// found" (providers.md §1.3).
    package func unrouted(method: String, path: String, allowed: [String], now: Date) -> HTTPResponseData {
        let failure = PlacetoPayFailure.pageNotFound(at: now)
        return HTTPResponseData.json(status: 404, .object(["status": failure.statusJSON]))
    }
}
