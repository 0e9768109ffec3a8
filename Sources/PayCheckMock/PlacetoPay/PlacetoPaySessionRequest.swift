import Foundation
import PayCheckCore
import PayCheckProviders

/// A validated create-session (`/api/session`, providers.md §1.4) or collect (`/api/collect`, §1.8) request.
struct PlacetoPaySessionRequest: Sendable {
    /// What the session is for.
    enum Kind: Sendable, Equatable {
        /// A payment (`payment` object).
        case payment
        /// Tokenizing a card without paying (`subscription` object).
        case subscription
    }

    /// Which endpoint the request came from.
    enum Mode: Sendable, Equatable {
        /// `POST /api/session`.
        case create
        /// `POST /api/collect`: `payment` and `instrument.token` required; `ipAddress`, `userAgent`, `returnUrl`
        /// optional (choice: a charge without the payer has no browser).
        case collect
    }

    /// The documented minimum lifetime of a session: 5 minutes (§1.4 `expiration`).
    static let minimumLifetime: TimeInterval = 5 * 60

    /// Payment or subscription.
    var kind: Kind
    /// `payment.reference` or `subscription.reference`.
    var reference: String
    /// `payment.amount.currency`; empty for a subscription.
    var currency = ""
    /// `payment.amount.total`; `0` for a subscription.
    var total = 0.0
    /// `payment.allowPartial`.
    var allowPartial = false
    /// `payment.subscribe`: tokenize the card when the payment is approved.
    var subscribe = false
    /// `type: checkin` (pre-authorization; enables `checkout`/`reauthorization`, §1.7).
    var isCheckin = false
    /// `metadata.requiresConfirmation`: approved transactions wait in `PENDING_CONFIRMATION` (§1.4).
    var requiresConfirmation = false
    /// `locale`, if sent.
    var locale: String?
    /// `expiration`, if sent.
    var expiration: Date?
    /// `instrument.token.token` (or `subtoken`) of a collect request.
    var token: String?
    /// The body without `auth` (and without `instrument`), for the query's `request` echo.
    var echo: [String: Value]

    /// Validates `body` (already authenticated) at mock time `now`.
    /// - Throws: ``PlacetoPayFailure/invalidField(_:at:)`` (400 `BR`) naming the first offending field.
    static func parse(_ body: [String: Value], mode: Mode, now: Date) throws(PlacetoPayFailure) -> Self {
        let check = PlacetoPayFieldCheck(now: now)
        let required = mode == .create
        _ = try check.string(body, "ipAddress", required: required, maxLength: 46)
        _ = try check.string(body, "userAgent", required: required, maxLength: 255)
        _ = try check.url(body, "returnUrl", required: required)
        _ = try check.url(body, "cancelUrl", required: false)

        var request: Self
        switch (body["payment"], body["subscription"]) {
        case (.some, .some):
            throw check.fail("Send either payment or subscription, not both")
        case (.some(let payment), nil):
            request = try Self.payment(payment, check: check)
        case (nil, .some(let subscription)):
            guard mode == .create else { throw check.fail("The payment field is required") }
            let object = try check.object(subscription, "subscription")
            let reference = try check.string(object, "reference", in: "subscription", required: true, maxLength: 32)
            _ = try check.string(object, "description", in: "subscription", required: false, maxLength: 255)
            request = Self(kind: .subscription, reference: reference ?? "", echo: [:])
        case (nil, nil):
            throw check.fail(
                mode == .create
                    ? "Either the payment or the subscription field is required" : "The payment field is required")
        }

        // Localization page: a `locale` that is missing or "does not comply" falls back to the site's locale and
        // country. Choice: a well-formed locale whose language is not one the page lists (es, en, pt, it) falls
        // back too; neither is an error.
        if let locale = body["locale"]?.stringValue, PlacetoPaySite.isValidLocale(locale),
            PlacetoPaySite.supportedLanguages.contains(String(locale.prefix(2)))
        {
            request.locale = locale
        }
        if let type = try check.string(body, "type", required: false, maxLength: 20) {
            switch type {
            case "checkin": request.isCheckin = true
            case "autopay": throw check.fail("The type 'autopay' is not supported by the PayCheck mock")
            default: throw check.fail("The type field must be 'checkin' or 'autopay', got \(Self.quoted(type))")
            }
        }
        if let metadata = body["metadata"] {
            let object = try check.object(metadata, "metadata")
            request.requiresConfirmation =
                try check.bool(object["requiresConfirmation"], "metadata.requiresConfirmation") ?? false
        }
        if let expiration = try check.string(body, "expiration", required: false, maxLength: 40) {
            guard let date = PlacetoPaySeed.parse(expiration) else {
                throw check.fail(
                    "The expiration field must be an ISO 8601 date-time with offset, got \(Self.quoted(expiration))")
            }
            guard date.timeIntervalSince(now) >= Self.minimumLifetime else {
                throw check.fail(
                    "The expiration field must be at least 5 minutes after the current time "
                        + "\(PlacetoPayStatus.format(now)), got \(Self.quoted(expiration))")
            }
            request.expiration = date
        }
        try check.fields(body["fields"], "fields")
        for key in ["captureAddress", "skipResult", "noBuyerFill"] {
            _ = try check.bool(body[key], key)
        }
        if mode == .collect {
            let instrument = try check.object(body["instrument"] ?? .null, "instrument")
            let token = try check.object(instrument["token"] ?? .null, "instrument.token")
            let value = token["token"]?.stringValue ?? token["subtoken"]?.stringValue
            guard let value, !value.isEmpty else { throw check.fail("The instrument.token.token field is required") }
            request.token = value
        }
        request.echo = body.filter { $0.key != "auth" && $0.key != "instrument" }
        return request
    }

    /// Validates the `payment` object.
    private static func payment(_ value: Value, check: PlacetoPayFieldCheck) throws(PlacetoPayFailure) -> Self {
        let payment = try check.object(value, "payment")
        let reference = try check.string(payment, "reference", in: "payment", required: true, maxLength: 32)
        _ = try check.string(payment, "description", in: "payment", required: false, maxLength: 255)
        guard let amountValue = payment["amount"] else { throw check.fail("The payment.amount field is required") }
        let amount = try check.object(amountValue, "payment.amount")
        let currency = try check.string(amount, "currency", in: "payment.amount", required: true, maxLength: 3) ?? ""
        guard currency.count == 3, currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw check.fail(
                "The payment.amount.currency field must be an ISO 4217 code such as 'COP', got \(Self.quoted(currency))"
            )
        }
        guard let totalValue = amount["total"] else { throw check.fail("The payment.amount.total field is required") }
        guard let total = totalValue.numberValue, total > 0 else {
            throw check.fail(
                "The payment.amount.total field must be a number greater than 0, got \(Self.describe(totalValue))")
        }
        var request = Self(kind: .payment, reference: reference ?? "", currency: currency, total: total, echo: [:])
        request.allowPartial = try check.bool(payment["allowPartial"], "payment.allowPartial") ?? false
        request.subscribe = try check.bool(payment["subscribe"], "payment.subscribe") ?? false
        try check.fields(payment["fields"], "payment.fields")
        return request
    }

    /// Quotes a client value for a message, shortened when long.
    static func quoted(_ value: String) -> String {
        MockHTTPError.quoted(value, limit: 60)
    }

    /// Describes a JSON value for a message: strings quoted, other values as JSON.
    static func describe(_ value: Value) -> String {
        switch value {
        case .string(let text): return Self.quoted(text)
        case .int, .double: return value.interpolated
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.typeDescription
        }
    }
}
