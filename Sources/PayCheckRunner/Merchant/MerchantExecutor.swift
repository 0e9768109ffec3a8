import Foundation
import PayCheckCore
import PayCheckProviders

/// The merchant layer's executor, beside the provider executor: it runs `merchant:` steps through the run's contract
/// against the merchant's backend, and keeps with each step of a merchant case what passed between the mock and the
/// backend (``Evidence``), the findings, and whether the scenario's premise happened. The case loop knows steps; this
/// is the one place that knows contracts, backends and the mock's journal.
struct MerchantExecutor {
    /// The run (configuration, providers, transport, clock).
    let runner: Runner
    /// The run's contract and backend.
    let target: MerchantTarget
    /// The suite's provider id (empty for a suite without one).
    let providerID: String
    /// The mock's control URL, when the target has one.
    let controlURL: String?
    /// Sends and records the case's exchanges.
    let recorder: ExchangeRecorder
    /// How much the backend had written when the case started, when the run started it.
    let outputMark: Int?

    init(runner: Runner, target: MerchantTarget, providerID: String, controlURL: String?, recorder: ExchangeRecorder) {
        (self.runner, self.target, self.providerID, self.controlURL, self.recorder) = (runner, target, providerID, controlURL, recorder)
        self.outputMark = target.output?.mark
    }

    /// What a mismatch on the backend's answer is about (the provider's is `provider answer`).
    static let answerSubject = "backend answer"

    /// The error of a `merchant:` step in a run without a contract.
    static func notConfigured(_ step: MerchantStep) -> ProviderError {
        .couldNotRun("'merchant: \(step.action.rawValue)' needs the merchant's backend: run with --contract FILE (see docs/merchant.md)")
    }

    /// What the backend wrote since the case started, redacted, when the case `verdict` is failed or an error; `nil`
    /// otherwise, or when the run did not start the backend.
    func output(ifFailed verdict: Verdict, redactor: Redactor) -> String? {
        guard verdict == .failed || verdict == .error, let outputMark, let output = target.output else { return nil }
        return redactor.redact(output.text(since: outputMark))
    }

    /// Findings are part of the case's verdict: a case that passed fails when its steps broke a rule of the run's gate
    /// severity (``MerchantTarget/findingGate``).
    func gate(_ verdict: inout Verdict, _ steps: inout [StepResult]) {
        if verdict == .passed, let gate = target.findingGate, MerchantTarget.failOnFindings(&steps, gate: gate) { verdict = .failed }
    }

    /// Runs a `merchant:` step through the run's contract with its rendered `parameters`, in the case's `variables`.
    /// `expectsStatus`: the step checks the backend's status itself (a refused checkout).
    func perform(_ step: MerchantStep, parameters: Value, variables: [String: Value], timeout: Double, expectsStatus: Bool) async throws -> Observation {
        let kind = step.action
        let merchant = target
        let contract = merchant.contract
        var scope = merchant.variables.merging(variables) { _, own in own }
        if case .object(let members) = parameters { scope.merge(members) { _, given in given } }
        if kind != .checkout, case .object(let members) = parameters, let order = members["order"] {
            var current = scope["order"]?.objectValue ?? [:]
            current["id"] = order
            scope["order"] = .object(current)
        }
        scope["provider"] = .string(providerID)
        scope["backend"] = .object(["url": .string(merchant.backendURL)])
        let renderer = TemplateRenderer(variables: scope, environment: runner.configuration.environment, now: runner.clock.now, random: runner.random)
        switch kind {
        case .checkout:
            let cursor = await journalCursor()
            let response = try await send(
                try CaseExecutor.buildRequest(contract.checkout.request, renderer: renderer, base: merchant.backendURL), timeout: timeout)
            var observation = CaseExecutor.observation(from: response)
            let payments = if let cursor { try await createdPayments(since: cursor) } else { [CreatedPayment]() }
            try Self.checkOnePayment(payments)
            guard try Self.succeeded(response, expectsStatus, "the checkout (contract key 'checkout.request', \(contract.checkout.request.location))") else { return observation }
            guard let body = observation.body, let orderID = contract.checkout.orderID.lookup(in: body), orderID != .null else {
                throw ProviderError.nonConformance(
                    "the backend's checkout answer has no order id at '\(contract.checkout.orderID)' (contract \(contract.file))",
                    expected: "an order id at '\(contract.checkout.orderID)'")
            }
            var order: [String: Value] = ["id": .string(orderID.interpolated)]
            let declared = contract.checkout.paymentID.flatMap { $0.lookup(in: body) }.flatMap { $0 == .null ? nil : $0 }
            let created = payments.first?.id
            if let declared, let created, declared.interpolated != created.interpolated {
                // The app would send the shopper to another payment than the one this checkout created.
                throw ProviderError.nonConformance(
                    "the backend's checkout answer names payment '\(declared.interpolated)' at '\(contract.checkout.paymentID!)', but the payment it created at the mock is '\(created.interpolated)'",
                    expected: "the payment created during the checkout")
            }
            let payment = declared ?? created
            guard let payment else {
                throw ProviderError.nonConformance(
                    "the backend answered \(response.status) to the checkout but created no payment at the mock meanwhile "
                        + "(did it get the mock's URL from {{ mock.url }} in the contract's start.env?)",
                    expected: "a payment created at the mock during the checkout")
            }
            order["payment"] = .string(payment.interpolated)
            if let url = contract.checkout.checkoutURL?.lookup(in: body) { order["checkoutUrl"] = url }
            let linked = payments.first { $0.id.interpolated == payment.interpolated }
            order["created"] = .object([
                "count": .int(max(payments.count, 1)), "amount": linked?.amount ?? .null, "currency": linked?.currency ?? .null,
            ])
            observation.defines = ["order": .object(order)]
            return observation
        case .order:
            let response = try await send(
                try CaseExecutor.buildRequest(contract.order.request, renderer: renderer, base: merchant.backendURL), timeout: timeout)
            var observation = CaseExecutor.observation(from: response)
            guard try Self.succeeded(response, expectsStatus, "reading the order (contract key 'order.request', \(contract.order.request.location))") else { return observation }
            let read = contract.order
            guard let body = observation.body, let stateValue = read.state.lookup(in: body), stateValue != .null else {
                throw ProviderError.nonConformance(
                    "the backend's order answer has no state at '\(read.state)' (contract \(contract.file))", expected: "a state at '\(read.state)'")
            }
            let state = stateValue.interpolated
            guard let outcome = read.states[state] else {
                throw ProviderError.nonConformance(
                    "the backend's order state '\(state)' is not in the contract's states (\(read.states.keys.sorted().joined(separator: ", ")); \(read.location))",
                    expected: "one of the contract's states")
            }
            observation.outcome = outcome
            observation.nativeState = state
            var normalized: [String: Value] = ["state": .string(state), "outcome": .string(outcome.rawValue), "answer": body]
            if let id = scope["order"]?["id"] { normalized["id"] = id }
            if let path = read.fulfilments { normalized["fulfilments"] = path.lookup(in: body) ?? .null }
            observation.body = .object(normalized)
            return observation
        case .pay:
            guard let request = contract.payRequest else {
                throw ProviderError.invalidStep("'merchant: pay' needs a 'pay:' request in the contract \(contract.file)")
            }
            guard var order = scope["order"]?.objectValue, let session = order["payment"] else {
                throw ProviderError.invalidStep("'merchant: pay' pays the case's checkout: put a 'merchant: checkout' step before it")
            }
            let cursor = await journalCursor()
            let response = try await send(
                try CaseExecutor.buildRequest(request, renderer: renderer, base: merchant.backendURL), timeout: timeout)
            var observation = CaseExecutor.observation(from: response)
            let payments = if let cursor { try await createdPayments(since: cursor) } else { [CreatedPayment]() }
            try Self.checkOnePayment(payments)
            guard try Self.succeeded(response, expectsStatus, "the payment (contract key 'pay.request', \(request.location))") else { return observation }
            guard let payment = payments.first else {
                throw ProviderError.nonConformance(
                    "the backend answered \(response.status) to the payment but created no payment at the mock meanwhile",
                    expected: "a payment created at the mock from the SDK's token")
            }
            order["session"] = order["session"] ?? session
            order["payment"] = .string(payment.id.interpolated)
            order["created"] = .object(["count": .int(1), "amount": payment.amount ?? .null, "currency": payment.currency ?? .null])
            observation.defines = ["order": .object(order)]
            return observation
        case .payment:
            guard let order = scope["order"]?.objectValue, let id = order["payment"], let created = order["created"]?.objectValue else {
                throw ProviderError.invalidStep("'merchant: payment' reads the payment of the case's checkout: put a 'merchant: checkout' step before it")
            }
            return Observation(
                status: nil,
                body: .object([
                    "id": id, "amount": created["amount"] ?? .null, "currency": created["currency"] ?? .null,
                    "payments": created["count"] ?? .null,
                ]))
        case .notified:
            // Checked once the step's evidence is in (``checkPremise(of:in:after:)``): the case's notifications so far.
            guard case .object(let members) = parameters, let wanted = members["atLeast"] else { return Observation(status: nil) }
            guard let count = wanted.wholeNumber, count >= 1 else {
                throw ProviderError.invalidStep("'merchant: notified' takes 'atLeast' as a whole number of 1 or more, got \(wanted.brief)")
            }
            return Observation(status: nil)
        case .return:
            guard let request = contract.returnRequest else {
                throw ProviderError.invalidStep("'merchant: return' needs a 'return:' request in the contract \(contract.file)")
            }
            let response = try await send(
                try CaseExecutor.buildRequest(request, renderer: renderer, base: merchant.backendURL), timeout: timeout)
            // A return page that is not there (404) or breaks (5xx) is not a return the backend handled: a scenario
            // built on it would pass without testing anything. A redirect (to the app, to a receipt) is a return.
            _ = try Self.succeeded(response, expectsStatus, "the payer's return (contract key 'return.request', \(request.location))", accepting: 200..<400)
            return CaseExecutor.observation(from: response)
        }
    }

    /// One checkout (or one payment step), one payment: a second one is what a create retried without the same
    /// idempotency key leaves behind, and the shopper could be charged twice.
    private static func checkOnePayment(_ payments: [CreatedPayment]) throws {
        guard payments.count > 1 else { return }
        let ids = payments.map(\.id.interpolated).joined(separator: ", ")
        throw ProviderError.nonConformance(
            "the backend created \(payments.count) payments at the mock in one step (\(ids)): a create retried without the same idempotency key?",
            expected: "one payment per checkout")
    }

    /// Whether the backend answered `what` with 2xx. A step that expects a status (a refused checkout) checks any
    /// other answer itself (`false`); without one, any other answer is a failure: the shopper could not go on.
    private static func succeeded(_ response: HTTPResponseData, _ expectsStatus: Bool, _ what: String, accepting: Range<Int> = 200..<300) throws -> Bool {
        if accepting.contains(response.status) { return true }
        guard !expectsStatus else { return false }
        throw ProviderError.nonConformance(
            "the backend answered \(response.status) to \(what): \(response.text.prefix(300))",
            expected: accepting.upperBound > 300 ? "a 2xx or 3xx answer" : "a 2xx answer with the order")
    }

    /// Sends a request to the backend. A step interrupted meanwhile is interrupted, whatever the backend answered.
    private func send(_ request: HTTPRequestData, timeout: Double) async throws -> HTTPResponseData {
        let response = try await recorder.send(request, timeout: timeout)
        try Task.checkCancellation()
        return response
    }

    /// Where a merchant case starts in the mock's journal: each of its steps keeps what passed between the mock and
    /// the backend meanwhile. `nil` for a case without `merchant:` steps, or without a mock to ask.
    func start(_ testCase: Case) async -> Int? {
        guard testCase.steps.contains(where: { $0.merchant != nil }) else { return nil }
        return await journalCursor()
    }

    /// Keeps with `result` what passed between the mock and the backend since `cursor` (moved on), the findings, and
    /// whether the step's premise happened (``checkPremise(of:in:after:renderer:)``).
    func observe(_ step: Step, into result: inout StepResult, after earlier: [StepResult], cursor: inout Int?, renderer: TemplateRenderer) async {
        guard let from = cursor, let found = await evidence(since: from) else { return }
        (result.evidence, result.findings, cursor) = (found.evidence, found.findings, found.next)
        checkPremise(of: step, in: &result, after: earlier, renderer: renderer)
    }

    /// The journal number the mock's next record will get (`nil` without a mock or when it cannot be read).
    func journalCursor() async -> Int? {
        await journal(from: Int(Int32.max))?.next
    }

    /// A payment the backend created at the mock: its id, and the amount (a number) and currency it asked for where
    /// its provider's request says them in the clear.
    struct CreatedPayment {
        var id: Value
        var amount: Value?
        var currency: Value?
    }

    /// The distinct payments the backend created at the mock since journal number `cursor`, oldest first, as the mock
    /// recorded them (``RecordedRequest/Served``). A create the mock answered twice for one idempotency key counts once.
    /// A journal that cannot be read says nothing about the backend: an interrupted run is interrupted
    /// (`CancellationError`), any other failure could not run — never "the backend created no payment".
    func createdPayments(since cursor: Int) async throws -> [CreatedPayment] {
        let page = await journal(from: cursor)
        try Task.checkCancellation()
        guard let page else {
            throw ProviderError.couldNotRun("could not read the mock's journal to find the payment the backend created")
        }
        var payments: [CreatedPayment] = []
        for served in page.requests.compactMap(\.served) {
            guard let id = served.payment, !payments.contains(where: { $0.id.interpolated == id }) else { continue }
            payments.append(CreatedPayment(id: .string(id), amount: served.amount.map(Value.init(number:)), currency: served.currency.map(Value.string)))
        }
        return payments
    }

    /// What passed between the mock and the backend since journal number `cursor`: the backend's requests with the
    /// mock's answers and findings, and the notifications with the backend's answers, in order; and the next cursor.
    func evidence(since cursor: Int) async -> (evidence: [Evidence], findings: [Finding], next: Int)? {
        guard let control = controlURL, let scope = runner.configuration.clockScope,
            let journal = await journal(from: cursor)
        else { return nil }
        let redactor = recorder.redactor
        let redacted = { (headers: [RecordedRequest.Header]) in headers.map { ($0.name, redactor.redact($0.value)) } }
        var evidence: [Evidence] = []
        var findings: [Finding] = []
        for entry in journal.requests {
            evidence.append(
                Evidence(
                    kind: .request, sequence: entry.sequence, method: entry.method,
                    target: redactor.redact(entry.path + (entry.query.isEmpty ? "" : "?" + entry.query)),
                    headers: redacted(entry.headers), body: redactor.redact(entry.body), status: entry.answer?.status,
                    answer: redactor.redact(entry.answer?.body ?? ""), at: ISOTimestamp.format(entry.receivedAt)))
            for var finding in entry.findings {
                finding.message = redactor.redact(finding.message)
                findings.append(finding)
            }
        }
        let attempts = try? await runner.transport.send(ControlRequest.webhooks(scope: scope, from: cursor).http(base: control), timeout: 10)
        for attempt in attempts.flatMap(ControlRequest.webhookAttempts) ?? [] where attempt.sequence < journal.next {
            // An attempt numbered from `journal.next` on is seen on the next step, with the journal it sorts among.
            evidence.append(
                Evidence(
                    kind: .notification, sequence: attempt.sequence, provider: attempt.provider, method: "POST",
                    target: redactor.redact(attempt.url), headers: redacted(attempt.sentHeaders), body: redactor.redact(attempt.sentBody),
                    status: attempt.status, answer: redactor.redact(attempt.responseBody), attempt: attempt.attempt,
                    error: attempt.error.map(redactor.redact), at: ISOTimestamp.format(attempt.sentAt)))
        }
        evidence.sort { $0.sequence < $1.sequence }
        return (evidence, findings, journal.next)
    }

    /// The backend's requests to the mock (this run's scope) numbered from `from`, and the next number.
    private func journal(from: Int) async -> JournalPage? {
        guard let control = controlURL, let scope = runner.configuration.clockScope else { return nil }
        let request = ControlRequest.journal(scope: scope, origin: .merchant, from: from)
        return (try? await runner.transport.send(request.http(base: control), timeout: 10)).flatMap(ControlRequest.journalPage)
    }
}

extension MerchantExecutor {
    /// A merchant case's scenario must not pass on a premise that never happened. A step whose action exists to
    /// notify the backend (``ControlAction/delivers``) but after which no notification reached it is an error with
    /// the reason; a read of the order that fails while no notification reached the backend in the whole case says
    /// so beside the mismatch, since that is the usual cause (no webhook registered, a notification URL not set).
    func checkPremise(of step: Step, in result: inout StepResult, after earlier: [StepResult], renderer: TemplateRenderer) {
        guard let provider = runner.providers[providerID] else { return }
        let delivered = { (results: [StepResult]) in results.flatMap(\.evidence).filter { $0.kind == .notification && $0.status != nil }.count }
        let reached = { (results: [StepResult]) in delivered(results) > 0 }
        if let merchant = step.merchant, merchant.action == .notified, result.verdict == .passed {
            let wanted = (try? renderer.render(merchant.parameters))?["atLeast"]?.wholeNumber ?? 1
            let count = delivered(earlier + [result])
            if count < wanted {
                result.issue = .couldNotRun(
                    StepProblem(
                        .premiseNotMet,
                        "\(count) of the provider's notifications reached the backend during this case, this scenario needs at least \(wanted): "
                            + "its premise did not happen. \(Self.notificationHint(provider))"))
            }
            return
        }
        if result.verdict == .passed, case .provider(let action) = step.kind, action.kind == .payer || action.kind == .mock,
            provider.controlActions.contains(where: { $0.kind == action.kind && $0.name == action.name && $0.delivers }),
            !reached([result])
        {
            let tried = result.evidence.first { $0.kind == .notification }?.error.map { " (the mock tried: \($0))" } ?? ""
            result.issue = .couldNotRun(
                StepProblem(
                    .premiseNotMet,
                    "'\(action.kind.rawValue): \(action.name)' sent no notification that reached the backend\(tried), so this scenario's premise did "
                        + "not happen: \(Self.notificationHint(provider))"))
        }
        if step.merchant?.action == .order, case .mismatches(var mismatches) = result.issue,
            !reached(earlier + [result]), let index = mismatches.firstIndex(where: { $0.subject == "outcome" })
        {
            mismatches[index].actual.annotate("— no notification reached the backend during this case: \(Self.notificationHint(provider))")
            result.issue = .mismatches(mismatches)
        }
    }

    /// How a backend gets the provider's notifications, for the messages above.
    static func notificationHint(_ provider: any Provider) -> String {
        if let own = provider.contractNotificationURLUnused {
            return "\(own); check that it does (docs/merchant.md)"
        }
        return "set the contract's providers.\(provider.id).notificationUrl to the backend's notification route (docs/merchant.md)"
    }
}
