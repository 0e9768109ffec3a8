import Foundation
import PayCheckCore
import HTTPTypes

/// Reads the JSON body of a control request into a `Value`, with 400 errors that quote what was sent.
enum MockRequestBody {
    /// Parses `bytes` as one JSON value of any type (surrounding whitespace allowed).
    /// - Throws: ``MockHTTPError`` (400) when the body is empty or not JSON.
    static func value(_ bytes: [UInt8]) throws(MockHTTPError) -> Value {
        guard let value = JSONText.parse(bytes) else {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                throw MockHTTPError(.badRequest, "request body is empty; expected a JSON value")
            }
            throw MockHTTPError(.badRequest, "request body is not valid JSON: \(MockHTTPError.quoted(text))")
        }
        return value
    }

    /// Parses `bytes` as a JSON object, for control requests.
    /// - Throws: ``MockHTTPError`` (400) when the body is empty, not JSON, or not an object.
    static func object(_ bytes: [UInt8]) throws(MockHTTPError) -> [String: Value] {
        guard let object = try self.value(bytes).objectValue else {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw MockHTTPError(.badRequest, "request body must be a JSON object, got \(MockHTTPError.quoted(text))")
        }
        return object
    }
}
