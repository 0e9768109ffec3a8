package import Hummingbird
import PayCheckCore

/// An error answered as `{"error": message}` with a JSON content type.
///
/// Control routes throw it for bad input; provider mocks may throw it too.
package struct MockHTTPError: Error, HTTPResponseError, CustomStringConvertible, Sendable {
    /// The response status.
    package var status: HTTPResponse.Status
    /// A lower-case, human-readable message that quotes the offending value.
    package var message: String
    /// Extra response headers.
    package var headers: HTTPFields

    /// Creates an error answered with `status` and `message`.
    package init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// Builds the JSON error response.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = MockResponse.json(
            .object(["error": .string(self.message)]),
            status: self.status
        )
        response.headers.append(contentsOf: self.headers)
        return response
    }

    /// The status and message, for logs.
    package var description: String { "\(self.status.code) \(self.message)" }

    /// Quotes a client-supplied value for a message, shortening very long values.
    static func quoted(_ value: String, limit: Int = 200) -> String {
        let shown = value.count > limit ? String(value.prefix(limit)) + "…" : value
        return "'\(shown)'"
    }
}
