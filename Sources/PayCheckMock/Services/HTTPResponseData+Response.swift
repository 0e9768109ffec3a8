package import Hummingbird
package import PayCheckProviders
package import PayCheckCore

/// A complete HTTP response as plain values (the one `HTTPResponseData` the runner and adapters use too): what the
/// ``IdempotencyStore`` replays and what a provider answers to a request no route serves (``ProviderMock/unrouted(method:path:allowed:now:)``).
extension HTTPResponseData {
    /// A JSON response with `text` as body and an `application/json` content type.
    package static func json(status: Int, _ text: String) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    /// A JSON response with `value` written as its body (``JSONText/encodeBytes(_:pretty:)``).
    package static func json(status: Int, _ value: Value) -> HTTPResponseData {
        HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: JSONText.encodeBytes(value))
    }

    /// The Hummingbird response; headers whose name is not a valid field name are skipped.
    package var response: Response {
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
