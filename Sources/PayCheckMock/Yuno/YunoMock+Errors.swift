package import Foundation
package import PayCheckProviders

extension YunoMock {
    /// A refused request in Yuno's `{code, messages}` (providers.md §3.7): 405 `UNSUPPORTED_METHOD` and 404 `NOT_FOUND`
    /// (§3.7's codes), 413 `REQUEST_TOO_LARGE` or 408 `REQUEST_TIMEOUT` (codes of the mock's choosing; §3.7 documents
    /// none for these).
    package func errorAnswer(status: Int, message: String, now: Date) -> HTTPResponseData {
        let code =
            switch status {
            case 405: "UNSUPPORTED_METHOD"
            case 404: "NOT_FOUND"
            case 413: "REQUEST_TOO_LARGE"
            default: "REQUEST_TIMEOUT"
            }
        return YunoFailure(status, code, message).data
    }
}
