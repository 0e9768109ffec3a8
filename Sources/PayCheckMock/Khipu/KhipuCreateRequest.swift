import Foundation
import PayCheckCore

/// Validation of a create-payment request (providers.md §2.4, §2.12 A12, B15), the same for both versions but for
/// the currency list (2.0 lacks `CLF`). Every violation is 400 "Error de validación" naming the field.
enum KhipuCreateRequest {
    static let currencies = ["CLP", "CLF", "ARS", "PEN", "MXN", "USD", "EUR", "BOB", "COP"]
    static let maxLengths: [String: Int] = [
        "subject": 255, "transaction_id": 255, "body": 5120, "bank_id": 5, "return_url": 1024, "cancel_url": 1024,
        "picture_url": 1024, "notify_url": 1024, "contract_url": 1024, "payer_name": 255, "payer_email": 255,
        "responsible_user_email": 255,
    ]
    /// How long a payment without `expires_date` can be paid. Choice: the docs give no default; one day.
    static let defaultLifetime: TimeInterval = 24 * 3600

    /// The validated fields (as strings), the amount and the expiry.
    static func parse(
        _ fields: [String: String], apiVersion: String, maxAmountDigits: Int = AmountRule.defaultIntegerDigits, now: Date
    ) throws(KhipuFailure)
        -> (fields: [String: String], amount: Double, expiresAt: Date)
    {
        for (key, limit) in maxLengths {
            if let value = fields[key], value.count > limit {
                throw KhipuFailure.invalid(key, "El campo \(key) admite a lo más \(limit) caracteres")
            }
        }
        guard let subject = fields["subject"], !subject.isEmpty else { throw KhipuFailure.invalid("subject", "El asunto es obligatorio") }
        _ = subject
        let allowed = apiVersion == "2.0" ? currencies.filter { $0 != "CLF" } : currencies
        guard let currency = fields["currency"], allowed.contains(currency) else {
            throw KhipuFailure.invalid("currency", "Moneda inválida; use \(allowed.joined(separator: ", "))")
        }
        let amount = try Self.checkedAmount(fields["amount"] ?? "", currency: currency, maxDigits: maxAmountDigits)
        if let version = fields["notify_api_version"], !version.isEmpty, !["1.3", "3.0"].contains(version) {
            throw KhipuFailure.invalid("notify_api_version", "Versión de notificación inválida; use 1.3 o 3.0")
        }
        if KhipuPayment.flag(fields["send_email"]) {
            for key in ["payer_name", "payer_email"] where (fields[key] ?? "").isEmpty {
                throw KhipuFailure.invalid(key, "El campo \(key) es obligatorio cuando send_email es verdadero")
            }
        }
        var expiresAt = now.addingTimeInterval(defaultLifetime)
        if let text = fields["expires_date"], !text.isEmpty {
            guard let date = Self.date(text) else {
                throw KhipuFailure.invalid("expires_date", "Fecha inválida; use ISO 8601, p. ej. 2024-05-01T12:00:00Z")
            }
            guard date > now else { throw KhipuFailure.invalid("expires_date", "La fecha de expiración debe ser futura") }
            expiresAt = date
        }
        return (fields, amount, expiresAt)
    }

    /// The one check of every khipu amount (create, refunds, predict): a plain decimal with `.` (§2.4: "number,
    /// '.' decimal separator, up to 4 decimals" — no exponent, sign or thousands separator), above zero, at most
    /// 4 decimals as written and none that are not zero in CLP (§2.12 B15), at most `maxDigits` digits before the
    /// point (the account's `maxAmountDigits`: khipu documents no bound, 12 by default, docs/providers/khipu.md).
    /// Every violation is 400 "Error de validación" naming `amount` (§2.12 A8).
    static func checkedAmount(
        _ text: String, currency: String?, maxDigits: Int = AmountRule.defaultIntegerDigits
    ) throws(KhipuFailure) -> Double {
        let rule = AmountRule(maxIntegerDigits: maxDigits, maxFractionDigits: currency == "CLP" ? 0 : 4, allowsExponent: false)
        switch rule.check(text: text) {
        case nil:
            guard (DecimalText(text)?.writtenFractionDigits ?? 0) <= 4, let amount = Double(text) else {
                throw KhipuFailure.invalid("amount", "El monto admite a lo más 4 decimales")
            }
            return amount
        case .zero: throw KhipuFailure.invalid("amount", "El monto debe ser mayor que 0")
        case .tooLarge:
            throw KhipuFailure.invalid("amount", "El monto admite a lo más \(maxDigits) dígitos enteros")
        case .tooManyDecimals where currency == "CLP":
            throw KhipuFailure.invalid("amount", "Los montos en CLP no tienen decimales")
        case .tooManyDecimals, .wrongDecimals: throw KhipuFailure.invalid("amount", "El monto admite a lo más 4 decimales")
        case .notANumber, .notFinite, .negative: throw KhipuFailure.invalid("amount", "Monto inválido")
        }
    }

    /// ISO 8601 in every spelling the official clients send (§2.12 A12): `Z`, `+00:00`, `+0000`, with or without
    /// milliseconds.
    static func date(_ text: String) -> Date? {
        var normalized = text
        let scalars = Array(text.unicodeScalars)
        if scalars.count > 5, ["+", "-"].contains(scalars[scalars.count - 5]),
            scalars.suffix(4).allSatisfy({ ("0"..."9").contains($0) })
        {
            normalized = String(text.dropLast(2)) + ":" + String(text.suffix(2))
        }
        return ISOTimestamp.parse(normalized)
    }
}
