import Foundation
import PayCheckCore
import PayCheckProviders
import PayCheckRunner

extension RunSession {
    /// Runs `plan` against the merchant's backend of `contract`, the mock at `controlURL` playing the provider:
    /// sets up each provider's account for the run's scope, starts the backend (when the contract says how) and
    /// waits for its health URL, runs, and stops it.
    func runMerchant(
        _ plan: RunPlan, contract: MerchantContract, runner: Runner, controlURL: String, onEvent: @escaping @Sendable (RunEvent) -> Void
    ) async throws -> RunResult {
        var runner = runner
        // Whatever keeps the backend from running is reported with every secret of the run masked: its start-up
        // output may print the credentials it was handed, a template error the values it could not use.
        do {
            let scope = runner.configuration.clockScope ?? "run-" + Self.randomHex(12)
            runner.configuration.clockScope = scope
            // The backend is given the mock under the run's scoped root: its requests share the run's clock.
            let mockURL = controlURL + ControlAPI.scopedRoot(scope)
            // `{{ port }}`: a free port for the backend to listen on, so runs side by side never collide.
            var variables: [String: Value] = [
                "mock": .object(["url": .string(mockURL), "control": .string(controlURL)]), "port": .int(Self.freePort() ?? 8099),
            ]
            let renderer = { (variables: [String: Value]) in
                TemplateRenderer(variables: variables, environment: runner.configuration.environment, now: runner.clock.now, random: runner.random)
            }
            let backendURL = try Self.rendered(contract.backend.url, renderer(variables))
            variables["backend"] = .object(["url": .string(backendURL)])

            // Each provider's account for this run: its credentials, and the mock set up for it.
            var credentials: [String: Value] = [:]
            let providerIDs = Set(contract.providers.keys).union(plan.suites.compactMap(\.provider))
            for id in providerIDs.sorted() {
                guard let provider = self.providers[id] else { continue }
                let notificationURL = try contract.providers[id]?.notificationURL.map { try Self.rendered($0, renderer(variables)) }
                // A backend the user started has its credentials already: the mock's own (its provider pages say how to
                // set up, say, a PlacetoPay site for its notifications). A backend the run starts gets an account of its own.
                let account =
                    contract.backend.start == nil
                    ? MerchantAccount(credentials: provider.mockCredentials)
                    : provider.merchantAccount(scope: scope, notificationURL: notificationURL, secret: Self.randomHex(16))
                if let setup = account.setup {
                    try await Self.perform(setup, provider: id, controlURL: controlURL, scope: scope, transport: runner.transport, configuration: runner.configuration)
                }
                credentials[id] = .object(account.credentials.mapValues(Value.string))
                for field in provider.credentialFields where field.secret {
                    if let value = account.credentials[field.name] { runner.configuration.secrets["merchant_\(id)_\(field.name)"] = value }
                }
            }
            variables["credentials"] = .object(credentials)

            var process: BackendProcess?
            if let start = contract.backend.start {
                let configured = runner.configuration.environment
                var environment = configured.isEmpty ? ProcessInfo.processInfo.environment : configured
                for (name, value) in start.environment { environment[name] = try Self.rendered(value, renderer(variables)) }
                let folder = URL(fileURLWithPath: contract.file).deletingLastPathComponent()
                let directory = start.directory.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : folder.appendingPathComponent($0) } ?? folder
                let command = try Self.rendered(start.command, renderer(variables))
                // The command as written: rendered, it may carry a credential.
                onEvent(.note("starting the backend: \(start.command.source) (in \(directory.path))"))
                let started: BackendProcess
                do {
                    started = try BackendProcess(command: command, directory: directory.path, environment: environment)
                } catch {
                    throw RunSessionError.backend("could not start the backend '\(start.command.source)' in \(directory.path): \(error)")
                }
                process = started
                let health = try Self.rendered(start.health, renderer(variables))
                let healthURL = health.hasPrefix("/") ? (backendURL.hasSuffix("/") ? String(backendURL.dropLast()) : backendURL) + health : health
                do {
                    try await Self.waitUntilHealthy(healthURL, process: started, timeout: start.timeout, transport: runner.transport)
                } catch {
                    await started.stop()
                    throw error
                }
            }
            var shared = variables
            shared["backendMock"] = shared.removeValue(forKey: "mock")
            let target = MerchantTarget(contract: contract, backendURL: backendURL, output: process, variables: shared, findingGate: findingGate)
            // A pack scenario the contract cannot drive (no return page, no pay request) is skipped and reported as not
            // covered, not failed.
            var plan = plan
            plan.skipContractGaps(contract)
            let result = await runner.run(plan, controlURL: controlURL, merchant: target, onEvent: onEvent)
            await process?.stop()
            return result
        } catch RunSessionError.backend(let message) {
            throw RunSessionError.backend(runner.redactor.redact(message))
        }
    }

    /// Polls `url` (real time, every 100 ms) until it answers 2xx, the process exits, or `timeout` passes.
    static func waitUntilHealthy(_ url: String, process: BackendProcess, timeout: Double, transport: any HTTPTransport) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "no answer yet"
        while Date() < deadline {
            try Task.checkCancellation()
            guard process.isRunning else {
                throw RunSessionError.backend("the backend \(process.exitDescription) before \(url) answered; its output:\n\(process.tail)")
            }
            do {
                let response = try await transport.send(HTTPRequestData(method: "GET", url: url), timeout: 2)
                if (200..<300).contains(response.status) { return }
                last = "it answered \(response.status)"
            } catch {
                last = "\(error)"
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw RunSessionError.backend(
            "the backend did not answer 2xx on \(url) within \(Value.format(timeout))s (\(last)); its output:\n\(process.tail)")
    }

    /// Performs a provider's account set-up action on the mock, in the run's scope.
    static func perform(
        _ action: ProviderActionRequest, provider: String, controlURL: String, scope: String, transport: any HTTPTransport,
        configuration: RunConfiguration
    ) async throws {
        var headers = [(name: ControlAPI.clockScopeHeader, value: scope)]
        if let token = configuration.controlToken { headers.append((ControlAPI.controlTokenHeader, token)) }
        let request = ControlRequest.action(provider: provider, kind: action.kind, name: action.name, parameters: action.parameters)
        let response: HTTPResponseData
        do {
            response = try await transport.send(request.http(base: controlURL, headers: headers), timeout: 10)
        } catch {
            throw RunSessionError.backend("could not set up \(provider)'s account for the backend on the mock: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw RunSessionError.backend("the mock refused to set up \(provider)'s account for the backend (\(response.status)): \(response.text.prefix(300))")
        }
    }

    /// `template` rendered to text.
    static func rendered(_ template: Template, _ renderer: TemplateRenderer) throws -> String {
        do {
            return try renderer.renderString(template)
        } catch {
            throw RunSessionError.backend("\(error.location): \(error.message)")
        }
    }

    /// A TCP port free on the loopback interface now (the kernel's pick for port 0).
    static func freePort() -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `bytes` random bytes as lowercase hex.
    static func randomHex(_ bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
