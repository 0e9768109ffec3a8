import Foundation
import Hummingbird
import Logging
import PayCheckCore
import PayCheckMock
import PayCheckProviders
import PayCheckRunner
import PayCheckTestSupport
import Synchronization
import Testing

/// A merchant's webhook endpoint: records every POST body it receives.
final class MerchantReceiver: Sendable {
    let bodies = Mutex<[String]>([])

    var application: some ApplicationProtocol {
        let router = Router()
        router.post("/hooks/placetopay") { request, context -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            self.bodies.withLock { $0.append(String(buffer: body)) }
            return .ok
        }
        var logger = Logger(label: "merchant-receiver")
        logger.logLevel = .critical
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                self.ports.yield(channel.localAddress?.port ?? 0)
            }, logger: logger)
    }

    let (portStream, ports) = AsyncStream.makeStream(of: Int.self)
}

@Suite("Merchant-style notification flow")
struct MerchantNotificationTests {
    @Test("a merchant's own HTTP receiver gets one signed notification when a session becomes final")
    func receiverGetsSignedNotification() async throws {
        let receiver = MerchantReceiver()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await receiver.application.runService(gracefulShutdownSignals: []) }
            var iterator = receiver.portStream.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let secret = "merchant-secret-4c1f"
            let run = InProcessRun(providers: MockRegistry.providers, mocks: MockRegistry.builtIn)
            let suites = try run.load([
                (
                    "merchant.yaml",
                    """
                    suite: merchant
                    provider: placetopay
                    cases:
                      - name: approved payment is notified to the merchant
                        steps:
                          - mock: site
                            with: { login: merchant-site, secretKey: "\(secret)", notificationUrl: "http://127.0.0.1:\(port)/hooks/placetopay" }
                          - call: createSession
                            auth: { login: merchant-site, secretKey: "\(secret)" }
                            with:
                              payment: { reference: M-1, description: merchant flow, amount: { currency: COP, total: 1000 } }
                              returnUrl: https://merchant.test/return
                            capture: { requestId: body.requestId }
                          - payer: pay
                            with: { requestId: "{{ requestId }}", card: "4110760000000081" }
                            expect: { outcome: succeeded }
                    """
                )
            ])
            let (result, _) = try await run.run(suites)
            #expect(result.counts.passed == 1, "\(result.suites.first?.cases.first?.failingStep.map { "\($0.error ?? "") \($0.mismatches)" } ?? "")")
            let bodies = receiver.bodies.withLock { $0 }
            #expect(bodies.count == 1, "exactly one attempt (providers.md §1.9)")
            let notification = try #require(bodies.first.flatMap { JSONText.parse($0) })
            guard case .object(let fields) = notification, case .object(let status)? = fields["status"],
                case .string(let state)? = status["status"], case .string(let date)? = status["date"],
                case .string(let signature)? = fields["signature"], let requestId = fields["requestId"]?.number
            else {
                Issue.record("unexpected notification shape: \(notification)")
                group.cancelAll()
                return
            }
            #expect(state == "APPROVED")
            #expect(fields["reference"] == "M-1")
            #expect(!signature.hasPrefix("sha256:") && signature.count == 40, "bare SHA-1 until a site activates SHA-256")
            #expect(PlacetoPayNotificationSignature.verify(signature, requestId: Int(requestId), status: state, date: date, secretKey: secret, algorithm: .sha1))
            #expect(!PlacetoPayNotificationSignature.verify(signature, requestId: Int(requestId), status: "REJECTED", date: date, secretKey: secret, algorithm: .sha1))
            group.cancelAll()
        }
    }
}
