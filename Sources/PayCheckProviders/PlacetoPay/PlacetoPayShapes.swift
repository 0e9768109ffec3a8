import PayCheckCore

/// The shapes of PlacetoPay's request members (providers.md §1.4, from the OpenAPI file's `RedirectRequest`,
/// `PaymentRequest`, `Amount`, `Taxes`, `Details`, `Recurring`, `Person`, `NameValuePair` and `Instrument`), which lint
/// checks a step's `with:` against. What the OpenAPI file leaves free (`shipping`, `items`, `dispersion`,
/// `modifiers`, `metadata`) stays open.
enum PlacetoPayShapes {
    /// `Amount`: currency and total, with optional taxes and details (§1.4).
    static let amount = RequestShape.object([
        .required("currency", .text), .required("total", .number),
        .optional(
            "taxes",
            .list(
                .object([
                    .required(
                        "kind", .oneOf(["valueAddedTax", "exciseDuty", "ice", "airportTax", "stateTax", "reducedStateTax", "municipalTax"])),
                    .required("amount", .number), .optional("base", .number),
                ]))),
        .optional(
            "details",
            .list(
                .object([
                    .required(
                        "kind",
                        .oneOf([
                            "discount", "additional", "vatDevolutionBase", "shipping", "handlingFee", "insurance", "giftWrap", "subtotal", "fee",
                            "tip", "airline", "interests",
                        ])),
                    .required("amount", .number),
                ]))),
    ])

    /// `NameValuePair` of `fields` (§1.4).
    static let fields = RequestShape.list(
        .object([.required("keyword", .text), .optional("value", .any), .optional("displayOn", .oneOf(["none", "payment", "receipt", "both", "approved"]))]))

    /// `Recurring` (§1.4).
    static let recurring = RequestShape.object([
        .required("periodicity", .oneOf(["D", "M", "Y"])), .required("interval", .number), .optional("nextPayment", .text),
        .optional("maxPeriods", .number), .optional("dueDate", .text), .optional("notificationUrl", .text),
    ])

    /// `PaymentRequest` (§1.4): the mock refuses it without `reference` and `amount`.
    static let payment = RequestShape.object([
        .required("reference", .text), .optional("description", .text), .required("amount", amount), .optional("allowPartial", .boolean),
        .optional("subscribe", .boolean), .optional("recurring", recurring), .optional("shipping", .openObject),
        .optional("items", .list(.openObject)), .optional("fields", fields), .optional("dispersion", .list(.openObject)),
        .optional("modifiers", .list(.openObject)), .optional("recurringRemove", .any),
    ])

    /// `SubscriptionRequest` (§1.4).
    static let subscription = RequestShape.object([.required("reference", .text), .optional("description", .text), .optional("fields", fields)])

    /// `Person`, for `buyer` and `payer` (§1.4).
    static let person = RequestShape.object([
        .optional("document", .text), .optional("documentType", .text), .optional("name", .text), .optional("surname", .text),
        .optional("company", .text), .optional("email", .text), .optional("mobile", .text),
        .optional(
            "address",
            .object([
                .optional("street", .text), .optional("city", .text), .optional("state", .text), .optional("postalCode", .text),
                .optional("country", .text), .optional("phone", .text),
            ])),
    ])

    /// `Instrument` of collect and the gateway endpoints: a token (or sub-token), or a card (§1.8, OpenAPI `Instrument`).
    static let instrument = RequestShape.object([
        .optional("token", .object([.optional("token", .text), .optional("subtoken", .text), .optional("installments", .number)])),
        .optional("card", .openObject), .optional("pin", .text), .optional("otp", .text), .optional("bank", .openObject),
        .optional("redirection", .openObject), .optional("credit", .openObject),
    ])

    /// `SimpleToken`, the instrument of `/api/gateway/token`: a token or a sub-token (OpenAPI file).
    static let simpleToken = RequestShape.object([.optional("token", .text), .optional("subtoken", .text)])

    /// The shape of a top-level `with:` member of a PlacetoPay operation, or `nil` when it has none declared.
    static func shape(of name: String, in operation: PlacetoPayOperation) -> RequestShape? {
        switch name {
        case "instrument" where operation == .gatewayToken: simpleToken
        case "payment": payment
        case "subscription": subscription
        case "buyer", "payer": person
        case "fields": fields
        case "instrument": instrument
        case "amount": amount
        case "metadata": .openObject
        case "type": .oneOf(["checkin", "autopay"])
        case "skipResult", "noBuyerFill", "captureAddress": .boolean
        default: nil
        }
    }
}
