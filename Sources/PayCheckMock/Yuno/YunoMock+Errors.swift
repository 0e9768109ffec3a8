package import Foundation
package import PayCheckProviders

extension YunoMock {
    /// A refused request in Yuno's `{code, messages}` (providers.md §3.7): 413 `REQUEST_TOO_LARGE` or 408
    /// `REQUEST_TIMEOUT` (codes of the mock's choosing; §3.7 documents none for these).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        YunoFailure(status, status == 413 ? "REQUEST_TOO_LARGE" : "REQUEST_TIMEOUT", message).data
    }
}
