import Foundation
import Hummingbird

/// Answers `/__paycheck/echo` and everything below it, for any method, with a description of the request.
enum EchoResponder {
    /// Builds `{"method","path","query","headers","json","body"}` for `request`.
    ///
    /// The status is 200 unless the query has `status=NNN` (200–599). Repeated query keys and
    /// repeated headers keep the last value. Statuses 204 and 304 are sent without a body.
    /// - Throws: ``MockHTTPError`` (400) for an invalid `status`.
    static func response(to request: Request, body: [UInt8]) throws(MockHTTPError) -> Response {
        var status = HTTPResponse.Status.ok
        var query: [(String, JSONText)] = []
        var queryIndex: [String: Int] = [:]
        for (key, value) in request.uri.queryParameters {
            let name = String(key).removingPercentEncoding ?? String(key)
            if let index = queryIndex[name] {
                query[index] = (name, .string(String(value)))
            } else {
                queryIndex[name] = query.count
                query.append((name, .string(String(value))))
            }
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

        var headers: [(String, JSONText)] = []
        var headerIndex: [String: Int] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            if let index = headerIndex[name] {
                headers[index] = (name, .string(field.value))
            } else {
                headerIndex[name] = headers.count
                headers.append((name, .string(field.value)))
            }
        }

        let text = String(decoding: body, as: UTF8.self)
        let json = (try? JSONText.validated(body)).map(JSONText.raw) ?? .null
        let document = JSONText.object([
            ("method", .string(request.method.rawValue)),
            ("path", .string(request.uri.path)),
            ("query", .object(query)),
            ("headers", .object(headers)),
            ("json", json),
            ("body", .string(text)),
        ])
        if status == .noContent || status == .notModified {
            return Response(status: status)
        }
        return MockResponse.json(document, status: status)
    }
}
