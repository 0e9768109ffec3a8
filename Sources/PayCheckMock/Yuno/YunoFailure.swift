import Hummingbird
import PayCheckCore
import PayCheckProviders

/// A Yuno error: the `{code, messages}` envelope of providers.md §3.7 with its HTTP status.
struct YunoFailure: Error, HTTPResponseError, CustomStringConvertible {
    var httpStatus: Int
    var code: String
    var message: String

    init(_ httpStatus: Int, _ code: String, _ message: String) {
        self.httpStatus = httpStatus
        self.code = code
        self.message = message
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }
    var body: Value { .object(["code": .string(code), "messages": .array([.string(message)])]) }
    var data: HTTPResponseData { HTTPResponseData.json(status: httpStatus, body) }

    func response(from request: Request, context: some RequestContext) throws -> Response { data.response }

    var description: String { "\(httpStatus) \(code) \(message)" }

    /// Schema violations: `INVALID_REQUEST` "Invalid request", the only 400 example on these pages (§3.13 P2-17).
    static func invalid() -> Self { Self(400, "INVALID_REQUEST", "Invalid request") }
}
