import Hummingbird

/// A complete HTTP response kept as plain values: what the ``IdempotencyStore`` replays and what a provider's
/// not-found handler (``ProviderNotFoundRoutes``) answers.
public struct StoredResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response with `text` as body and an `application/json` content type.
    public static func json(status: Int, _ text: String) -> StoredResponse {
        StoredResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    /// The Hummingbird response; headers whose name is not a valid field name are skipped.
    public var response: Response {
        var fields = HTTPFields()
        for header in self.headers {
            if let name = HTTPFields.Element.Name(header.name) {
                fields.append(HTTPFields.Element(name: name, value: header.value))
            }
        }
        return Response(
            status: HTTPResponse.Status(code: self.status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.body)))
    }
}
