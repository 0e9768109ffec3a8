package import Foundation
package import PayCheckProviders
import PayCheckCore

extension KhipuMock {
    /// A refused request in khipu's `{status, message}` (providers.md §2.6).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        HTTPResponseData.json(status: status, KhipuFailure(code: status, message: message).body)
    }
}
