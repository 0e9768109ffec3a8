import Foundation
import PayCheckCore
import PayCheckMock
import PayCheckProviders
@testable import PayCheckRunner
import Testing

/// The merchant layer's executor on its own: what it concludes when the mock's journal cannot tell it anything.
@Suite("Merchant executor")
struct MerchantExecutorTests {
    /// A transport that answers every request with `status` and `body`, or fails.
    struct FixedTransport: HTTPTransport {
        var status: Int?
        var body = ""

        func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
            guard let status else { throw TransportError(.connect, "refused") }
            return HTTPResponseData(status: status, body: Array(body.utf8))
        }
    }

    static func executor(_ transport: FixedTransport) throws -> MerchantExecutor {
        let (contract, diagnostics) = MerchantContract.load(file: MerchantBackendTests.contractFile, catalog: MockRegistry.providers)
        #expect(!diagnostics.hasErrors, "\(diagnostics)")
        var configuration = RunConfiguration()
        configuration.clockScope = "merchant-executor-tests"
        let runner = Runner(configuration: configuration, providers: MockRegistry.providers, transport: transport)
        return MerchantExecutor(
            runner: runner, target: MerchantTarget(contract: try #require(contract), backendURL: "http://127.0.0.1:9"), providerID: "mollie",
            controlURL: "http://127.0.0.1:9", recorder: ExchangeRecorder(transport: transport, redactor: Redactor()))
    }

    @Test("a step interrupted while it reads the journal is interrupted, never 'the backend created no payment'")
    func interruptedIsInterrupted() async throws {
        let executor = try Self.executor(FixedTransport(status: 200, body: #"{"count": 0, "next": 1, "requests": []}"#))
        let task = Task { try await executor.createdPayments(since: 0) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // Not interrupted, the same empty page is what it says: no payment.
        #expect(try await executor.createdPayments(since: 0).isEmpty)
    }

    @Test("a journal the run cannot read is could-not-run, not a verdict on the backend")
    func unreadableJournal() async throws {
        for transport in [FixedTransport(status: nil), FixedTransport(status: 503, body: "down"), FixedTransport(status: 200, body: "not json")] {
            let executor = try Self.executor(transport)
            do {
                _ = try await executor.createdPayments(since: 0)
                Issue.record("\(transport): no error")
            } catch let error as ProviderError {
                guard case .couldNotRun = error.kind else { Issue.record("\(transport): \(error)"); continue }
                #expect(error.message.contains("journal"))
            }
        }
    }
}
