import PayCheckCore

/// The shapes of Mollie's request members (providers.md §4.2, §4.12; `mollie/openapi: specs.yaml` `amount`, `address`,
/// `payment-line-item`), which lint checks a step's `with:` against.
enum MollieShapes {
    /// `amount`: currency and value, the value "a string, not a float, to avoid rounding errors" (§4.2).
    static let amount = RequestShape.object([.required("currency", .text), .required("value", .text)])

    /// `billingAddress` and `shippingAddress` (specs.yaml `payment-address`).
    static let address = RequestShape.object(
        ["title", "givenName", "familyName", "organizationName", "streetAndNumber", "streetAdditional", "postalCode", "email", "phone", "city", "region", "country"]
            .map { .optional($0, .text) })

    /// One of `lines` (specs.yaml `payment-line-item`).
    static let line = RequestShape.object([
        .optional("type", .oneOf(["physical", "digital", "shipping_fee", "discount", "store_credit", "gift_card", "surcharge", "tip"])),
        .required("description", .text), .required("quantity", .number), .optional("quantityUnit", .text), .required("unitPrice", amount),
        .optional("discountAmount", amount), .required("totalAmount", amount), .optional("vatRate", .text), .optional("vatAmount", amount),
        .optional("sku", .text), .optional("categories", .list(.oneOf(["meal", "eco", "gift", "sport_culture"]))), .optional("imageUrl", .text),
        .optional("productUrl", .text), .optional("recurring", .openObject),
    ])

    /// The shape of a top-level `with:` member of a Mollie operation, or `nil` when it has none declared.
    static func shape(of name: String) -> RequestShape? {
        switch name {
        case "amount": amount
        case "billingAddress", "shippingAddress": address
        case "lines": .list(line)
        case "sequenceType": .oneOf(["oneoff", "first", "recurring"])
        case "captureMode": .oneOf(["automatic", "manual"])
        case "testmode": .boolean
        default: nil
        }
    }
}
