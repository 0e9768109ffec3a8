package import Foundation
package import PayCheckProviders

extension MITMock {
    /// A refused request as MIT's gateway answers what it cannot take: plain text (providers.md §5.11 C8).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: [("Content-Type", "text/plain")], body: Array(message.utf8))
    }
}
