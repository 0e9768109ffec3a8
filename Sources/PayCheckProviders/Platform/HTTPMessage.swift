package import PayCheckCore

/// An HTTP request as providers build it and the runner sends it.
package struct HTTPRequestData: Sendable {
    /// The method, upper case.
    package var method: String
    /// The absolute URL, query included.
    package var url: String
    /// Headers in order.
    package var headers: [(name: String, value: String)]
    /// The body bytes.
    package var body: [UInt8]

    /// Creates a request.
    package init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response as the runner received it.
package struct HTTPResponseData: Sendable {
    /// The status code.
    package var status: Int
    /// Headers in order.
    package var headers: [(name: String, value: String)]
    /// The body bytes.
    package var body: [UInt8]
    /// The answer already read into an observation, when ``ProviderExecutor`` read it before the provider's reader
    /// (so an answer is decoded and parsed once); ``plainObservation`` hands it on.
    var reading: Observation?

    /// Creates a response.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The answer as an observation before any provider's mapping: status, headers, the body as text and parsed
    /// (JSON, else XML). Read once: the reading ``ProviderExecutor`` made, when it made one.
    var plainObservation: Observation {
        if let reading { return reading }
        let text = self.text
        return Observation(status: status, headers: headers, body: Observation.parseBody(text), rawBody: text)
    }

    /// The value of the first header named `name` (case-insensitive), if any.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return self.headers.first { $0.name.lowercased() == lowered }?.value
    }
}
