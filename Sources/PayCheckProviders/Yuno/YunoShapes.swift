import PayCheckCore

/// The shapes of Yuno's request members (providers.md §3.4–§3.6, §3.13), which lint checks a step's `with:` against.
/// Yuno's nested objects beyond `amount` and `checkout` (the payer, the payment method's details) stay open.
enum YunoShapes {
    /// `amount`: an ISO 4217 currency and a number (§3.4; the mock refuses a currency that is not three letters).
    static let amount = RequestShape.object([.required("currency", .text), .required("value", .number)])

    /// The shape of a top-level `with:` member of a Yuno operation, or `nil` when it has none declared.
    static func shape(of name: String) -> RequestShape? {
        switch name {
        case "amount", "alternative_amount": amount
        case "checkout": .object([.required("session", .text), .optional("sdk_action_required", .boolean)])
        default: nil
        }
    }
}
