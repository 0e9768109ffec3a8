/// How PayCheck reaches a merchant's own backend: a small YAML file (`paycheck schema contract`,
/// docs/merchant.md), so that one pack of suites runs against any backend.
///
/// ```yaml
/// contract: my-shop
/// backend:
///   url: http://127.0.0.1:8099
///   start: { command: python3 shop.py, env: { MOLLIE_API_URL: "{{ mock.url }}/mollie/v2" }, health: /health }
/// checkout:
///   request: { method: POST, url: /orders, json: { provider: "{{ provider }}", amount: "{{ amount }}" } }
///   order: id
/// order:
///   request: { method: GET, url: "/orders/{{ order.id }}" }
///   state: status
///   states: { paid: succeeded, open: pending }
/// ```
package struct MerchantContract: Sendable {
    /// The contract's name (reports show it).
    package var name: String
    /// The file it was read from.
    package var file: String
    /// What it says it is for.
    package var description: String?
    /// Where the backend listens and how to start it.
    package var backend: Backend
    /// How a shopper starts a checkout on the backend (`merchant: checkout`).
    package var checkout: Checkout
    /// How to read an order back (`merchant: order`).
    package var order: OrderRead
    /// Where the shopper comes back after paying (`merchant: return`), when the backend has such a page.
    package var returnRequest: HTTPRequestStep?
    /// How the shopper's app hands the backend what the provider's SDK made (`merchant: pay`, e.g. Yuno's one-time
    /// token), when payments are created from the app that way; `{{ order.id }}` and the step's `with:` values are in
    /// scope.
    package var payRequest: HTTPRequestStep?
    /// Per provider: the backend's notification URL (installed on the mock where the provider keeps it in its
    /// account settings, such as PlacetoPay's site) and return URL.
    package var providers: [String: ProviderSettings]
    /// Where the contract starts.
    package var location: SourceLocation

    /// The backend's address and start-up.
    package struct Backend: Sendable {
        /// The base URL the contract's relative request URLs and the health path are resolved against.
        package var url: Template
        /// How `paycheck run` starts it; `nil` when the user starts it.
        package var start: Start?
    }

    /// How `paycheck run` starts the backend, like Playwright's `webServer`.
    package struct Start: Sendable {
        /// The command line, run with `/bin/sh -c`.
        package var command: Template
        /// The working directory, relative to the contract's folder (the folder itself by default).
        package var directory: String?
        /// Environment variables added to PayCheck's own, rendered with `mock.url` (the base URL the backend is
        /// given for the mock: the run's scoped root), `credentials.<provider>.<field>` and `backend.url`.
        package var environment: [(name: String, value: Template)]
        /// The path (or URL) polled until it answers 2xx.
        package var health: Template
        /// How long to wait for the health URL, in seconds.
        package var timeout: Double
        /// Where it starts in the file.
        package var location: SourceLocation
    }

    /// `merchant: checkout`.
    package struct Checkout: Sendable {
        /// The request; `{{ provider }}` and the step's `with:` values are in scope.
        package var request: HTTPRequestStep
        /// Where the order id is in the JSON answer.
        package var orderID: ValuePath
        /// Where the provider's payment id is, if the answer has it (else the run finds it in the mock's journal).
        package var paymentID: ValuePath?
        /// Where the checkout URL is, if the answer has it.
        package var checkoutURL: ValuePath?
    }

    /// `merchant: order`.
    package struct OrderRead: Sendable {
        /// The request; `{{ order.id }}` is in scope.
        package var request: HTTPRequestStep
        /// Where the backend's own state name is in the answer.
        package var state: ValuePath
        /// The backend's state names, each mapped to a canonical outcome.
        package var states: [String: Outcome]
        /// Where a count of fulfilments (goods shipped, credits granted) is, if the backend exposes one.
        package var fulfilments: ValuePath?
        /// Where the state mapping starts in the file.
        package var location: SourceLocation
    }

    /// One provider's settings for this backend.
    package struct ProviderSettings: Sendable {
        /// Where the provider notifies the backend.
        package var notificationURL: Template?
        /// Where the provider sends the shopper back.
        var returnURL: Template?
    }
}

/// The `merchant:` actions a suite step can take on a backend through its contract.
package enum MerchantAction: String, Sendable, CaseIterable {
    /// `merchant: checkout` with the checkout's values in `with:` — the shopper starts a checkout; the order, and
    /// the provider's payment it created, become the case's (`{{ order.id }}`, `{{ order.payment }}`).
    case checkout
    /// `merchant: order` — reads the order (the case's, or `with: { order: … }`); the outcome is the backend's
    /// state mapped by the contract.
    case order
    /// `merchant: return` — the shopper lands on the backend's return page (the contract's `return`).
    case `return`
    /// `merchant: pay` with what the provider's SDK made in `with:` (Yuno: `token`) — the shopper's app hands it to
    /// the backend (the contract's `pay`), which creates the payment; that payment becomes the case's
    /// `{{ order.payment }}` (the checkout's stays as `{{ order.session }}`).
    case pay
    /// `merchant: payment` — the payment the backend created at the provider during the case's checkout, as the
    /// backend asked for it: `body` has its `id`, `amount` (a number), `currency` and `payments` (how many payments
    /// the checkout created). It asks the backend nothing.
    case payment
    /// `merchant: notified` (`with: { atLeast: N }`, 1 by default) — the premise of a scenario about notifications:
    /// at least N of the provider's notifications reached the backend during the case. It asks the backend nothing;
    /// when they did not, the scenario did not happen and the step is an error with the reason, never a pass.
    case notified

    /// The lint spec. Every merchant step runs alone: the requests the backend sends meanwhile are the case's.
    package var spec: ActionSpec {
        switch self {
        case .checkout: ActionSpec(rawValue, parameters: nil, runsAlone: true)
        case .order, .return: ActionSpec(rawValue, parameters: ["order"], runsAlone: true)
        case .payment: ActionSpec(rawValue, parameters: [], runsAlone: true)
        case .notified: ActionSpec(rawValue, parameters: ["atLeast"], runsAlone: true)
        case .pay: ActionSpec(rawValue, parameters: nil, runsAlone: true)
        }
    }
}
