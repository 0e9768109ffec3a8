package import PayCheckCore

/// How PayCheck classifies a provider answer that is no answer at all (DESIGN.md §3: service and transport
/// failures are class S): an empty or unreadable 2xx body, a 2xx in the wrong media type, or a 5xx/429 the provider's
/// catalog does not name. The codes are PayCheck's own, stable for suites to assert.
package enum ServiceFailure {
    /// A 2xx answer with no body.
    static let emptyResponse = "empty-response"
    /// A 2xx answer whose body cannot be read in the provider's format.
    static let malformedResponse = "malformed-response"
    /// A 2xx answer in a media type the provider does not answer in.
    static let unexpectedContentType = "unexpected-content-type"
    /// The connection failed, was reset or closed before a complete answer.
    package static let connection = "connection"
    /// No answer within the step's time limit.
    package static let timeout = "timeout"

    /// The S-class error of a 2xx answer that cannot be the provider's, or `nil` when it can be read. It takes the
    /// answer as read (``HTTPResponseData/plainObservation``), so the body is not parsed again.
    static func unreadable(_ response: HTTPResponseData, by provider: any Provider) -> ObservedError? {
        guard (200..<300).contains(response.status), response.status != 204 else { return nil }
        if response.body.isEmpty {
            return ObservedError(errorClass: .S, code: self.emptyResponse, message: "the answer (\(response.status)) has no body")
        }
        let contentType = (response.header("Content-Type") ?? "").lowercased()
        if !contentType.isEmpty, !provider.answerMediaTypes.contains(where: { contentType.contains($0) }) {
            return ObservedError(
                errorClass: .S, code: self.unexpectedContentType,
                message: "the answer is '\(contentType)'; \(provider.id) answers in \(provider.answerMediaTypes.joined(separator: " or "))")
        }
        // The reading is JSON, else XML: XML (a text that starts with `<`) is not JSON either.
        let reading = response.plainObservation
        if provider.answerMediaTypes == ["json"], reading.body == nil || reading.rawBody.drop(while: \.isWhitespace).hasPrefix("<") {
            return ObservedError(
                errorClass: .S, code: self.malformedResponse, message: "the answer is not valid JSON (\(response.body.count) bytes)")
        }
        return nil
    }

    /// The S-class error of a 5xx or 429 answer: its status as the code.
    package static func status(_ response: HTTPResponseData) -> ObservedError? {
        guard response.status >= 500 || response.status == 429 else { return nil }
        let retry = response.header("Retry-After").map { ", Retry-After \($0)" } ?? ""
        return ObservedError(errorClass: .S, code: String(response.status), message: "the service answered \(response.status)\(retry)")
    }
}
