/// Sends HTTP requests from the mock to the outside world, e.g. provider webhooks to a merchant.
///
/// The mock target has no HTTP client of its own; the runner supplies an implementation backed by
/// AsyncHTTPClient, and tests supply a recording fake.
package protocol OutboundHTTP: Sendable {
    /// POSTs `body` with `headers` to `url` and returns the response status code.
    func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int

    /// POSTs `body` with `headers` to `url` and returns the response status code and body.
    ///
    /// The default implementation calls ``post(url:headers:body:)`` and returns an empty body.
    func postForReply(url: String, headers: [(String, String)], body: [UInt8]) async throws -> (status: Int, body: [UInt8])

    /// Sends any request (e.g. a reference merchant's `GET` to a provider) and returns the status and body.
    ///
    /// The default implementation sends `POST` through ``postForReply(url:headers:body:)`` and refuses other methods.
    func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8])
}

extension OutboundHTTP {
    /// Calls ``post(url:headers:body:)`` and returns its status with an empty body.
    package func postForReply(url: String, headers: [(String, String)], body: [UInt8]) async throws
        -> (status: Int, body: [UInt8])
    {
        (try await self.post(url: url, headers: headers, body: body), [])
    }

    /// Sends `POST` through ``postForReply(url:headers:body:)``; any other method throws ``OutboundHTTPError``.
    package func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> (status: Int, body: [UInt8])
    {
        guard method == "POST" else {
            throw OutboundHTTPError(message: "cannot \(method) '\(url)': this outbound HTTP client only sends POST")
        }
        return try await self.postForReply(url: url, headers: headers, body: body ?? [])
    }
}

/// The default ``OutboundHTTP`` used when none is configured: every call fails with a clear error.
package struct NoOutboundHTTP: OutboundHTTP {
    /// Creates the placeholder sender.
    package init() {}

    /// Always throws ``OutboundHTTPError``, naming the URL that could not be reached.
    package func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        throw OutboundHTTPError(
            message: "cannot POST to '\(url)': no outbound HTTP client is configured for the mock host "
                + "(pass one as MockHost(outbound:))"
        )
    }
}

/// The error thrown by ``NoOutboundHTTP`` (and usable by other senders) for a request that could not be sent.
package struct OutboundHTTPError: Error, CustomStringConvertible, Sendable {
    /// A lower-case, human-readable explanation quoting the URL.
    package var message: String

    /// Creates an error with `message`.
    package init(message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { self.message }
}
