package import Foundation
package import PayCheckProviders
import Hummingbird
import PayCheckCore

extension PlacetoPayMock {
    /// A refused request in PlacetoPay's envelope: `{status: {status: FAILED, reason: request_not_valid, message,
    /// date}}` (providers.md §1.8).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        let failure = PlacetoPayFailure(HTTPResponse.Status(code: status), reason: "request_not_valid", message: message, at: now)
        return HTTPResponseData.json(status: status, JSONText.encode(.object(["status": failure.statusJSON])))
    }
}
