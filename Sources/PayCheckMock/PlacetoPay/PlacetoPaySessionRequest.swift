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
    /// `type: autopay` with a valid `autopay` block: the payer registers a card for automatic charges.
    var isAutopay = false
    /// `paymentMethod`, split at commas and lowercased: the only methods the payer may use; `nil` for all.
    var paymentMethods: [String]?
    /// `locale`, if sent.
    var locale: String?
    /// `expiration`, if sent.
    var expiration: Date?
    /// `instrument.token.token` of a collect request.
    var token: String?
    /// `instrument.token.subtoken` of a collect request (either identifies the stored card).
    var subtoken: String?
    /// The body without `auth` (and without `instrument`), for the query's `request` echo.
    var echo: [String: Value]

    /// Validates `body` (already authenticated) at mock time `now`.
    /// - Throws: ``PlacetoPayFailure/invalidField(_:at:)`` (400 `BR`) naming the first offending field.
    static func parse(
        _ body: [String: Value], mode: Mode, maxAmountDigits: Int = AmountRule.defaultIntegerDigits, now: Date
    ) throws(PlacetoPayFailure) -> Self {
        let check = PlacetoPayFieldCheck(now: now, maxAmountDigits: maxAmountDigits)
        let required = mode == .create
        try Self.checkIPAddress(try check.string(body, "ipAddress", required: required, maxLength: 46), check: check)
        _ = try check.string(body, "userAgent", required: required, maxLength: 255)
        _ = try check.url(body, "returnUrl", required: required)
        _ = try check.url(body, "cancelUrl", required: false)

        var request: Self
        switch (body["payment"], body["subscription"]) {
        case (.some(let payment), .some(let subscription)):
            // The OpenAPI request example sends both: the payment is charged and the card is tokenized, as with
            // `payment.subscribe` (choice for what "both" does; the docs do not describe it).
            guard mode == .create else { throw check.fail("The subscription field is not accepted by collect") }
            let object = try check.object(subscription, "subscription")
            _ = try check.string(object, "reference", in: "subscription", required: true, maxLength: 32)
            request = try Self.payment(payment, check: check)
            request.subscribe = true
        case (.some(let payment), nil):
            request = try Self.payment(payment, check: check)
        case (nil, .some(let subscription)):
            guard mode == .create else { throw check.fail("The payment field is required") }
            let object = try check.object(subscription, "subscription")
            let reference = try check.string(object, "reference", in: "subscription", required: true, maxLength: 32)
            _ = try check.string(object, "description", in: "subscription", required: false, maxLength: 255)
            request = Self(kind: .subscription, reference: reference ?? "", echo: [:])
        case (nil, nil) where mode == .create && body["type"]?.stringValue == "autopay":
            // An autopay session registers the payer's card for later charges: it tokenizes without paying.
            let reference = body["autopay"]?.objectValue?["reference"]?.stringValue ?? ""
            request = Self(kind: .subscription, reference: reference, echo: [:])
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
            case "autopay":
                try Self.checkAutopay(body["autopay"], check: check)
                request.isAutopay = true
            default: throw check.fail("The type field must be 'checkin' or 'autopay', got \(Self.quoted(type))")
            }
        }
        try Self.checkPerson(body["payer"], "payer", check: check)
        try Self.checkPerson(body["buyer"], "buyer", check: check)
        if mode == .collect, body["payer"] == nil || body["payer"] == .null {
            // OpenAPI `CollectRequest`: `payer` is required.
            throw check.fail("The payer field is required")
        }
        if let methods = try check.string(body, "paymentMethod", required: false, maxLength: 255) {
            // "It is used to restrict the payment methods available at checkout. Multiple codes can be sent
            // separated by commas." (OpenAPI `RedirectRequest.paymentMethod`)
            request.paymentMethods = methods.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }.filter { !$0.isEmpty }
        }
        if let metadata = body["metadata"] {
            let object = try check.object(metadata, "metadata")
            request.requiresConfirmation =
                try check.bool(object["requiresConfirmation"], "metadata.requiresConfirmation") ?? false
            // Confirmation-flow page: "This type of session is only supported for Basic payment sessions".
            if request.requiresConfirmation,
                request.kind != .payment || request.isCheckin || request.isAutopay
                    || request.subscribe
            {
                throw check.fail("The metadata.requiresConfirmation field is only supported for basic payment sessions")
            }
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
            // OpenAPI `SimpleToken`: "It must contain the `token` or the `subtoken`".
            let token = try check.object(instrument["token"] ?? .null, "instrument.token")
            request.token = token["token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            request.subtoken = token["subtoken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            guard request.token != nil || request.subtoken != nil else {
                throw check.fail("The instrument.token.token or instrument.token.subtoken field is required")
            }
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
        guard Self.currencies.contains(currency) else {
            throw check.fail(
                "The payment.amount.currency field must be an ISO 4217 code such as 'COP', got \(Self.quoted(currency))"
            )
        }
        guard let totalValue = amount["total"] else { throw check.fail("The payment.amount.total field is required") }
        try check.amount(totalValue, "payment.amount.total", currency: currency)
        guard let total = totalValue.numberValue else { throw check.fail("The payment.amount.total field is required") }
        var request = Self(kind: .payment, reference: reference ?? "", currency: currency, total: total, echo: [:])
        try Self.checkAmountItems(amount, currency: currency, check: check)
        try Self.checkRecurring(payment["recurring"], "payment.recurring", check: check)
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

    /// The `autopay` block of a `type: autopay` session (OpenAPI `AutopayRequest`): `action` CREATE or EDIT,
    /// `reference` and `description`; CREATE needs `recurring{type, periodicity, interval, nextPayment}`, a FIXED
    /// recurrence needs `amount`, EDIT needs `id`; `dueDay` is 1–28.
    private static func checkAutopay(_ value: Value?, check: PlacetoPayFieldCheck) throws(PlacetoPayFailure) {
        let autopay = try check.object(value ?? .null, "autopay")
        let action = try check.string(autopay, "action", in: "autopay", required: true, maxLength: 10) ?? ""
        guard action == "CREATE" || action == "EDIT" else {
            throw check.fail("The autopay.action field must be CREATE or EDIT, got \(Self.quoted(action))")
        }
        _ = try check.string(autopay, "reference", in: "autopay", required: true, maxLength: 32)
        _ = try check.string(autopay, "description", in: "autopay", required: true, maxLength: 255)
        if let dueDay = autopay["dueDay"], dueDay != .null {
            guard let day = dueDay.intValue, (1...28).contains(day) else {
                throw check.fail("The autopay.dueDay field must be an integer from 1 to 28, got \(Self.describe(dueDay))")
            }
        }
        if action == "EDIT" {
            _ = try check.string(autopay, "id", in: "autopay", required: true, maxLength: 36)
            return
        }
        let recurring = try check.object(autopay["recurring"] ?? .null, "autopay.recurring")
        let type = try check.string(recurring, "type", in: "autopay.recurring", required: true, maxLength: 20) ?? ""
        guard ["FIXED", "MINIMUM_BALANCE", "TOTAL_BALANCE"].contains(type) else {
            throw check.fail(
                "The autopay.recurring.type field must be FIXED, MINIMUM_BALANCE or TOTAL_BALANCE, got \(Self.quoted(type))")
        }
        _ = try check.string(recurring, "periodicity", in: "autopay.recurring", required: true, maxLength: 1)
        try Self.checkCount(recurring["interval"], "autopay.recurring.interval", allowsUnlimited: false, required: true, check: check)
        _ = try check.string(recurring, "nextPayment", in: "autopay.recurring", required: true, maxLength: 10)
        if type == "FIXED", autopay["amount"] == nil || autopay["amount"] == .null {
            throw check.fail("The autopay.amount field is required for a FIXED recurrence")
        }
        // `autopay.amount` is an `Amount` {currency, total} (OpenAPI `AutopayRequest`): its total is checked like a
        // payment's.
        if let amount = autopay["amount"]?.objectValue, let total = amount["total"], total != .null {
            try check.amount(total, "autopay.amount.total", currency: amount["currency"]?.stringValue ?? "")
        }
    }
}
