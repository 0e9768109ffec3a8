package import AsyncHTTPClient
import NIOCore
import PayCheckCore
import PayCheckMock
import PayCheckRunner
import NIOHTTP1

/// Lets the mock send webhooks through the run's AsyncHTTPClient.
package struct AsyncOutboundHTTP: OutboundHTTP {
    private let client: HTTPClient

    /// Wraps a client whose lifetime the caller scopes.
    package init(client: HTTPClient) { self.client = client }

    /// POSTs the body and returns the status.
    package func post(url: String, headers: [(String, String)], body: [UInt8]) async throws -> Int {
        try await self.postForReply(url: url, headers: headers, body: body).status
    }

    /// POSTs the body and returns the status and the response body (at most 1 MiB is read).
    package func postForReply(url: String, headers: [(String, String)], body: [UInt8]) async throws
        -> (status: Int, body: [UInt8])
    {
        try await self.send(method: "POST", url: url, headers: headers, body: body)
    }

    /// Sends the request and returns the status and the response body (at most 1 MiB is read).
    package func send(method: String, url: String, headers: [(String, String)], body: [UInt8]?) async throws
        -> (status: Int, body: [UInt8])
    {
        if let problem = HTTPURLCheck.problem(url) { throw MockHostError(message: "cannot send to \(problem)") }
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(10))
        let collected = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), Array(collected.readableBytesView))
    }
}
