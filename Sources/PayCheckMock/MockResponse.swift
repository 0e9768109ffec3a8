import Hummingbird
import PayCheckCore

/// Builders for the JSON responses of the mock host.
enum MockResponse {
    /// The JSON content type sent with every control response.
    static let jsonContentType = "application/json"

    /// A response whose body is `value` rendered as JSON.
    static func json(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        self.text(JSONText.encode(value), status: status)
    }

    /// A response with a JSON content type and `text` as body, which the caller vouches is JSON (or
    /// deliberately is not, for the malformed-body fault).
    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: self.jsonContentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// A JSON error response `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        self.json(.object(["error": .string(message)]), status: status)
    }

    /// An empty `204 No Content` response.
    static func noContent() -> Response {
        Response(status: .noContent)
    }
}
