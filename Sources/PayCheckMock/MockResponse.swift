import Foundation
import Hummingbird
import PayCheckCore

/// Builders for the responses of the mock host: JSON, and the HTML of the payer-facing pages.
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

    /// An HTML page (`text/html; charset=utf-8`); the caller escapes what it puts in with ``escapeHTML(_:)``.
    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// `text` with `&`, `<`, `>` and `"` escaped, for HTML text and attribute values, and what XML 1.0 cannot carry
    /// replaced (the payer pages are XHTML): ``XMLText/html(_:)``, on bytes — four Foundation `replacingOccurrences`
    /// per value were a sixth of the mock's CPU serving MIT's link page under load (docs/benchmarks.md).
    static func escapeHTML(_ text: String) -> String {
        XMLText.html(text)
    }

    /// An empty `204 No Content` response.
    static func noContent() -> Response {
        Response(status: .noContent)
    }
}
