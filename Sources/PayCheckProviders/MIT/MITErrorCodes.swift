package import PayCheckCore

/// MIT's error codes: the Suite mCommerce SDK's C/S/P/A/T codes with their Spanish and English texts (seed guide;
/// texts from the SDK's own resources, providers.md §5.11 B2 — the SDK string "País invalido" wins over the guide's
/// typo "Country ainvalido"), and the `cd_error` / `cd_response` codes 01–22 of WebPay Plus (§5.11 D6).
package enum MITErrorCodes {
    /// The code of a `/gen` answer that is not an encrypted blob (unknown `data0`, undecryptable `data`, §5.11 C8).
    static let clearText = "clear-text"

    /// The SDK codes of the seed guide: code, class, Spanish, English.
    package static let sdk: [(code: String, errorClass: ErrorClass, spanish: String, english: String)] = [
        ("C001", .C, "Compañía invalida", "Invalid company"),
        ("C002", .C, "Ambiente invalido", "Invalid environment"),
        ("C003", .C, "Contexto invalido", "Invalid context"),
        ("S001", .S, "Error de conexión", "Connection error"),
        ("S002", .S, "Excepción de llave", "Key exception"),
        ("P001", .P, "Compañía invalida", "Invalid company"),
        ("P002", .P, "XML A invalido", "Invalid XML A"),
        ("P003", .P, "XML M invalido", "Invalid XML M"),
        ("A001", .A, "Branch invalido", "Invalid branch"),
        ("A002", .A, "País invalido", "Invalid country"),
        ("A003", .A, "Usuario invalido", "Invalid user"),
        ("A004", .A, "Contraseña invalida", "Invalid password"),
        ("A005", .A, "Merchant invalido", "Invalid merchant"),
        ("A006", .A, "Moneda invalida", "Invalid currency"),
        ("A007", .A, "Llave invalida", "Invalid auth key"),
        ("A008", .A, "Parámetros inválidos", "Invalid parameters"),
        ("A009", .A, "Compañía invalida", "Invalid company"),
        ("A010", .A, "Autenticación fallida", "Failed authentication"),
        ("T001", .T, "Branch invalido", "Invalid branch"),
        ("T002", .T, "Usuario invalido", "Invalid user"),
        ("T003", .T, "Contraseña invalida", "Invalid password"),
        ("T004", .T, "Tarjeta invalida", "Invalid card"),
        ("T005", .T, "País invalido", "Invalid country"),
        ("T006", .T, "Merchant invalido", "Invalid merchant"),
        ("T007", .T, "Referencia invalida", "Invalid reference"),
        ("T008", .T, "Tipo de operación invalido", "Invalid operation type"),
        ("T009", .T, "Token invalido", "Invalid token"),
        ("T010", .T, "Monto invalido", "Invalid amount"),
        ("T011", .T, "Moneda invalida", "Invalid currency"),
        ("T012", .T, "Parámetros inválidos", "Invalid parameters"),
        ("T013", .T, "La tarjeta proporcionada no corresponde con el token", "Provided card does not match with the token"),
        ("T014", .T, "Compañía invalida", "Invalid company"),
        ("S003", .S, "Hubo un error en el servicio, favor de intentar mas tarde", "Error server, please try again"),
    ]

    /// WebPay Plus `cd_error` codes 01–22 (§5.11 D6, Paylands' MIT page, [3P]) with PayCheck's class.
    static let webPayPlus: [(code: String, errorClass: ErrorClass, text: String)] = [
        ("01", .P, "the XML does not comply with the schema"),
        ("02", .P, "the XML does not comply with the restrictions"),
        ("03", .A, "company, branch or user data incorrect"),
        ("04", .P, "invalid card number"),
        ("05", .C, "branch configuration errors"),
        ("06", .P, "card validation error (VISA/MASTERCARD/AMEX)"),
        ("07", .P, "months cannot be charged with this bank"),
        ("08", .P, "amount below the minimum for the affiliation or promotion"),
        ("09", .P, "amount cannot be charged by this user"),
        ("10", .P, "transaction date outside the affiliation's dates"),
        ("11", .P, "amount cannot be charged for this affiliation"),
        ("12", .P, "card cannot be processed with this affiliation"),
        ("13", .P, "incorrect CVV"),
        ("14", .P, "invalid reference (same day only)"),
        ("15", .A, "company details incorrect"),
        ("16", .P, "amount data incorrect"),
        ("17", .P, "authorisation number does not match / invalid amount 0.0"),
        ("18", .P, "original transaction not approved"),
        ("19", .P, "AMEX cannot refund"),
        ("20", .P, "operation already performed"),
        ("21", .A, "incorrect user code"),
        ("22", .A, "no permission for this operation"),
    ]

    /// The SDK's Spanish text of a code.
    package static func spanish(_ code: String) -> String? { sdk.first { $0.code == code }?.spanish }

    /// Every catalog row.
    package static var entries: [ErrorCatalog.Entry] {
        sdk.map { .init($0.code, $0.errorClass, "\($0.spanish) / \($0.english)", source: "MIT Suite mCommerce SDK (seed guide; providers.md §5.11 B1–B2)") }
            + webPayPlus.map { .init($0.code, $0.errorClass, $0.text, source: "WebPay Plus cd_error (providers.md §5.11 D6, [3P])") }
            + [.init(clearText, .C, "a clear-text answer: unknown data0 or data not decryptable with the merchant's key", source: "providers.md §5.11 C8")]
    }
}
