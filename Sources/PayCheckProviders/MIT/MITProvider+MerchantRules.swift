package import PayCheckCore

extension MITProvider {
    /// The rules a merchant's backend is held to (findings, `paycheck explain <rule>`). The link request is encrypted,
    /// so all but the first are reported by the mock once it has decrypted it (``MITMock``).
    package enum MerchantRules {
        /// The link request's `data` sent in clear (§5.1, §5.2: `Base64(IV || AES(xml))`).
        static let plainData = FindingRule(
            "mit.plain-data", .error, "the link request's data is encrypted with the merchant's key",
            explanation: "WebPay Plus takes <data> as Base64(IV || AES-128-CBC(xml)) under the key MIT gave the merchant; "
                + "sent in clear, the merchant's user and password travel readable and MIT refuses the request. Encrypt the "
                + "<P> document with a fresh random IV.",
            source: "providers.md §5.1, §5.2")
        /// One IV for two encrypted requests (§5.1: a random IV per message).
        package static let ivReused = FindingRule(
            "mit.iv-reused", .error, "every encrypted request has an IV of its own",
            explanation: "AES-CBC under one key with a repeated IV shows which requests start alike (the same business block, "
                + "user and password) and breaks the cipher's guarantees. Draw 16 random bytes for every message, as MIT's "
                + "own samples do.",
            source: "providers.md §5.1")
        /// One reference for two orders: a link for a reference whose link was paid, or for another amount (§5.2
        /// `reference`: the merchant's order).
        package static let referenceReused = FindingRule(
            "mit.reference-reused", .warning, "a reference names one order: no new link after it was paid, none for another amount",
            explanation: "MIT's result names the link's reference; a second link for a reference already paid charges the order "
                + "twice, and two links with one reference and different amounts make the result ambiguous, so the order may "
                + "be marked paid for the cheaper one. Give each order its own reference, and keep the amount when a link is "
                + "made again for an unpaid order.",
            source: "providers.md §5.2, §5.3")
        /// An amount not written with two decimals (§5.11 C4: the portal's format).
        package static let amountFormat = FindingRule(
            "mit.amount-format", .warning, "amount is written with two decimals separated by a point",
            explanation: "MIT's portal asks for the amount \"con 2 decimales separado por un punto\" (100.00). The sandbox "
                + "accepts other forms today, but the result echoes the amount as sent, and a backend that compares it "
                + "with the order's must then parse both alike. Write 100.00.",
            source: "providers.md §5.2, §5.11 C4")

        /// All of them.
        static let all: [MerchantRule] = [
            MerchantRule(plainData) { request in
                guard request.method == "POST", request.path == "/gen", let form = request.body?["xml"]?.stringValue,
                    let pgs = MITXML.inner("pgs", in: form), let data = MITXML.inner("data", in: pgs)
                else { return [] }
                let trimmed = data.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
                return trimmed.hasPrefix("<") || trimmed.hasPrefix("&lt;") ? ["<data> holds XML in clear, not Base64(IV || AES(xml))"] : []
            },
            MerchantRule(ivReused), MerchantRule(referenceReused), MerchantRule(amountFormat),
        ]
    }

    package var merchantRules: [MerchantRule] { MerchantRules.all }
}
