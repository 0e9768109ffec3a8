import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Every link the mocks emit can be followed: the built-in suites of the five providers run against a standalone
/// mock with every transcript kept, and each URL an answer carries is fetched. One on the mock's host must be served
/// (a 404 or 405 fails; a 401 of an API link fetched without the key is served, and so is a 410 for a payment the
/// merchant deleted); one elsewhere must be a documentation
/// page or a static image of the provider's, like the real API's.
@Suite("Links the mocks emit")
struct LinkWalkTests {
    /// External hosts the real APIs link to as well (documentation, icons and bank logos), with the path they may use.
    static let externalAllowed: [(host: String, pathPrefix: String)] = [
        ("docs.mollie.com", "/"), ("icons.prod.y.uno", "/"), ("khipu.com", "/images/"), ("khipu.com", "/merchant/"),
    ]

    @Test("every URL in the mocks' answers is served by the mock, or is a documentation page or image of the provider")
    func everyLinkIsServed() async throws {
        let cli = try CLI(files: [:])
        let (mock, base) = try cli.startStandaloneMock()
        defer { if mock.isRunning { mock.terminate() } }
        let mockHost = try #require(URL(string: base)?.host.map { "\($0):\(URL(string: base)?.port ?? 80)" })
        let suites = ["mollie", "khipu", "placetopay", "yuno", "mit"].map { CardSentinelTests.root.appendingPathComponent("Suites/\($0)").path }
        let run = try cli.run(
            ["run"] + suites + [
                "--target", "url=\(base)", "--transcripts", "all", "--quiet", "--report-json", "report.json",
                "--report-junit", "", "--report-html", "",
            ])
        #expect(run.status == 0, "\(run.stdout.suffix(2000))\(run.stderr.suffix(1000))")
        let report = try #require(JSONSerialization.jsonObject(with: Data(try cli.read("report.json").utf8)) as? [String: Any])

        // The URLs in each answer, less those the request itself carried (a merchant's own URLs, echoed back).
        let pattern = try NSRegularExpression(pattern: #"https?://[^\s"\\<>']+"#)
        func urls(in text: String) -> Set<String> {
            Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
        }
        var emitted: Set<String> = []
        for suite in report["suites"] as? [[String: Any]] ?? [] {
            for testCase in suite["cases"] as? [[String: Any]] ?? [] {
                for step in testCase["steps"] as? [[String: Any]] ?? [] {
                    for exchange in step["exchanges"] as? [[String: Any]] ?? [] {
                        let sent = urls(in: exchange["requestBody"] as? String ?? "").union(urls(in: exchange["url"] as? String ?? ""))
                        emitted.formUnion(urls(in: exchange["responseBody"] as? String ?? "").subtracting(sent))
                    }
                }
            }
        }
        // Only the providers' answers: not the control API's echo of what a suite's receiver got.
        // Nor the URLs of the reference merchants the mock hosts (`/merchants/…`: a webhook endpoint is POST only).
        emitted = emitted.filter { !$0.contains("/__paycheck/echo/") && !$0.contains("/__paycheck/kv") && !$0.contains("/merchants/") }
        #expect(emitted.count > 20, "\(emitted.sorted())")

        var followed = 0
        for link in emitted.sorted() {
            guard let url = URL(string: link), let host = url.host else { continue }
            let authority = "\(host):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
            if authority != mockHost {
                // A merchant URL a suite made up (`*.test`, `*.example`, RFC 2606's example.com — public, for a sandbox that
                // refuses what does not resolve — a closed local port) is the suite's, not the mock's.
                if host.hasSuffix(".test") || host.hasSuffix(".example") || host == "example.com" || host == "127.0.0.1" { continue }
                #expect(
                    Self.externalAllowed.contains { host == $0.host && url.path.hasPrefix($0.pathPrefix) },
                    "the mock links to \(link), which it does not serve")
                continue
            }
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: link), timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 1 << 20)
            #expect(
                ![404, 405].contains(response.status.code) && response.status.code < 500,
                "\(link) answered \(response.status.code)")
            followed += 1
        }
        #expect(followed > 20)
    }
}
