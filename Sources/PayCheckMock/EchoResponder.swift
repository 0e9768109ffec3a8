import Foundation
import Hummingbird
import PayCheckCore

/// Answers `/__paycheck/echo` and everything below it, for any method, with a description of the request.
enum EchoResponder {
    /// Builds `{"method","path","query","headers","json","body"}` for `request`.
    ///
    /// The status is 200 unless the query has `status=NNN` (200–599). Repeated query keys and
    /// repeated headers keep the last value. Statuses 204 and 304 are sent without a body.
    /// - Throws: ``MockHTTPError`` (400) for an invalid `status`.
    static func response(to request: Request, body: [UInt8]) throws(MockHTTPError) -> Response {
        var status = HTTPResponse.Status.ok
        var query: [String: Value] = [:]
        for (key, value) in request.uri.queryParameters {
            let name = String(key).removingPercentEncoding ?? String(key)
            query[name] = .string(String(value))
            if name == "status" {
                guard let code = Int(value), (200...599).contains(code) else {
                    throw MockHTTPError(
                        .badRequest,
                        "invalid echo status \(MockHTTPError.quoted(String(value))): expected an integer from 200 to 599"
                    )
                }
                status = HTTPResponse.Status(code: code)
            }
        }

        var headers: [String: Value] = [:]
        for field in request.headers {
            headers[field.name.canonicalName] = .string(field.value)
        }

        let text = String(decoding: body, as: UTF8.self)
        let json = JSONText.parse(body) ?? .null
        let document = Value.object([
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "query": .object(query),
            "headers": .object(headers),
            "json": json,
            "body": .string(text),
        ])
        if status == .noContent || status == .notModified {
            return Response(status: status)
        }
        return MockResponse.json(document, status: status)
    }
}
