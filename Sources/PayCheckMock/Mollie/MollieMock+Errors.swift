package import Foundation
package import PayCheckProviders
import PayCheckCore

extension MollieMock {
    /// A refused request in Mollie's `{status, title, detail, _links}` as hal+json (providers.md §4.8).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        HTTPResponseData(
            status: status, headers: [("Content-Type", "application/hal+json")],
            body: JSONText.encodeBytes(MollieFailure(code: status, detail: message).body))
    }
}
