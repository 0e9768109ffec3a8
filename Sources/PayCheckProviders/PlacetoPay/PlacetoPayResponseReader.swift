import Foundation
import PayCheckCore

/// Reads a PlacetoPay answer into an `Observation`: the mapped outcome of the state it reports and the catalog
/// entry of a `FAILED` envelope (providers.md §1.3, §1.5–§1.8).
///
/// Which state an answer reports depends on its shape:
/// - `querySession`, `collect`: the session's top-level `status` (§1.5, §1.8);
/// - `cancelSession`: the returned `session.status` (§1.6);
/// - `transaction`, `reverse`: the returned `payment.status` of the transaction (§1.7);
/// - `createSession`: none — its `OK` is not a session state.
///
/// Any answer whose top-level `status.status` is `FAILED` reports that state when it has no nested one (so an
/// error envelope maps to `error`) and fills `error` from the catalog: a 401's code is the number that ends its
/// message (`Authentication failed 102`, `Autenticación fallida 102`), any other code is `reason` verbatim.
/// `nativeState` is the key of the mapping row that applied (`REJECTED/?C`, or `REJECTED` for any other reason),
/// so the report's coverage lists exactly the rows of the table a run exercised; the reason itself stays in the
/// body. A state missing from the mapping, or a code missing from the catalog, is a conformance failure.
struct PlacetoPayResponseReader: Sendable {
    /// The adapter, for its mapping and catalog.
    var provider: PlacetoPayProvider

    /// The observation of `response` to `operation`.
    func observation(of response: HTTPResponseData, for operation: PlacetoPayOperation) throws -> Observation {
        var observation = response.plainObservation
        guard let body = observation.body, PlacetoPayJSON.object(body) != nil else { return observation }
        let top = PlacetoPayJSON.status(body)
        let failed = top?.status == "FAILED"
        if failed, let top {
            observation.error = try observedError(httpStatus: response.status, reason: top.reason, message: top.message)
        }
        if let state = reportedState(body, top: top, failed: failed, operation: operation) {
            try map(state, in: "the \(operation.rawValue) answer", into: &observation)
        }
        return observation
    }

    /// Maps the answer of a `payer:` action: the attempt's `transaction.status` (the Transaction object of §1.5),
    /// or, when the action made no transaction (cancel, abandon, tokenization), the returned `session` status.
    func payerObservation(_ observation: Observation, action: String) throws -> Observation {
        var observation = observation
        guard let status = observation.status, (200..<300).contains(status), let body = observation.body else { return observation }
        if let transaction = PlacetoPayJSON.status(PlacetoPayJSON.member(body, "transaction")) {
            try map((transaction.status, transaction.reason), in: "the payer's \(action) answer", into: &observation)
        } else if let session = PlacetoPayJSON.member(body, "session"), let status = PlacetoPayJSON.string(session, "status") {
            let reason = PlacetoPayJSON.string(session, "reason").flatMap { $0.isEmpty ? nil : $0 }
            try map((status, reason), in: "the payer's \(action) answer", into: &observation)
        }
        return observation
    }

    /// Sets the outcome and the mapping row of `state`, or fails naming the unmapped state.
    private func map(_ state: (status: String, reason: String?), in context: String, into observation: inout Observation) throws {
        try provider.map(state.status, reason: state.reason, in: context + " (providers.md §1.11)", into: &observation)
    }

    /// The state the answer reports, per its shape (see the type's documentation).
    private func reportedState(
        _ body: Value, top: (status: String, reason: String?, message: String?)?, failed: Bool,
        operation: PlacetoPayOperation
    ) -> (status: String, reason: String?)? {
        let nested: Value? =
            switch operation {
            case .cancelSession: PlacetoPayJSON.member(body, "session")
            case .transaction, .reverse: PlacetoPayJSON.member(body, "payment")
            default: nil
            }
        if let nested, let state = PlacetoPayJSON.status(nested) { return (state.status, state.reason) }
        guard let top else { return nil }
        switch operation {
        case .querySession, .collect: return (top.status, top.reason)
        default: return failed ? (top.status, top.reason) : nil
        }
    }

    /// The catalog error of a `FAILED` envelope.
    func observedError(httpStatus: Int, reason: String?, message: String?) throws -> ObservedError {
        var code = reason ?? ""
        if httpStatus == 401 || reason == "401", let number = message.flatMap(Self.trailingNumber) {
            code = number
        }
        let catalog = provider.errorCatalog
        let entry = catalog.entries.first { $0.code == code && $0.httpStatus == httpStatus } ?? catalog.entry(code)
        guard let entry else {
            throw ProviderError.nonConformance(
                "PlacetoPay answered FAILED with code '\(code)' (HTTP \(httpStatus), message \(message.map { "'\($0)'" } ?? "none"))",
                expected: "a code of the error catalog (providers.md §1.3)")
        }
        return ErrorCatalog.observed(entry, message: message)
    }

    /// The run of digits that ends `text` (after trimming), e.g. `102` in `Autenticación fallida 102`.
    static func trailingNumber(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = trimmed.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        return String(digits.reversed())
    }
}
