/// The wording of status messages in the languages PlacetoPay answers in.
///
/// The English texts are the ones of the docs repository (`placetopay-docs`, OpenAPI
/// `src/assets/apis/checkout/en.yaml` and the pages under `src/pages/en/checkout/`); the Spanish ones follow the
/// Spanish examples (`es.yaml`: "Aprobada", "Pago abortado por el usuario"). The localization page says
/// Spanish, English, Portuguese and Italian are supported; the mock translates into Spanish and Portuguese and
/// answers every other language in English (a choice, listed in docs/providers/placetopay.md).
enum PlacetoPayMessages {
    /// The language of `locale` the mock answers in: `es`, `pt`, or `en` for everything else.
    static func language(of locale: String?) -> String {
        switch locale?.prefix(2).lowercased() {
        case "es": return "es"
        case "pt": return "pt"
        default: return "en"
        }
    }

    /// `english` in the language of `locale`, or `english` itself when there is no translation.
    static func localized(_ english: String, locale: String?) -> String {
        let language = self.language(of: locale)
        guard language != "en", let translations = self.translations[english] else { return english }
        return (language == "es" ? translations.es : translations.pt) ?? english
    }

    /// English text → Spanish and Portuguese.
    private static let translations: [String: (es: String?, pt: String?)] = [
        Text.processed: ("La petición se ha procesado correctamente", "A solicitação foi processada com sucesso"),
        Text.sessionPending: ("La petición se encuentra pendiente", "A solicitação está pendente"),
        Text.sessionApproved: ("La petición ha sido aprobada exitosamente", "A solicitação foi aprovada com sucesso"),
        Text.sessionApprovedPartial: (
            "La petición se encuentra parcialmente aprobada", "A solicitação está parcialmente aprovada"
        ),
        Text.sessionRejected: ("La petición ha sido rechazada", "A solicitação foi rejeitada"),
        Text.sessionCancelledByPayer: (
            "La petición ha sido cancelada por el usuario", "A solicitação foi cancelada pelo usuário"
        ),
        Text.sessionCancelledByMerchant: (
            "La petición ha sido cancelada por el comercio", "A solicitação foi cancelada pelo comerciante"
        ),
        Text.sessionExpired: ("La petición ha expirado", "A solicitação expirou"),
        Text.sessionPartialExpired: (
            "La petición ha expirado o fue cancelada y se realizaron pagos",
            "A solicitação expirou ou foi cancelada e pagamentos foram realizados"
        ),
        Text.approved: ("Aprobada", "Aprovada"),
        Text.rejected: ("Rechazada", "Rejeitada"),
        Text.paymentAborted: ("Pago abortado por el usuario", "Pagamento abortado pelo usuário"),
        Text.cancelledByMerchant: ("Cancelada por el comercio", "Cancelada pelo comerciante"),
        Text.pendingConfirmation: ("Transacción pendiente de confirmación", "Transação pendente de confirmação"),
        Text.transactionPending: ("La transacción se encuentra pendiente", "A transação está pendente"),
        Text.transactionFailed: ("La transacción no pudo ser procesada", "A transação não pôde ser processada"),
        Text.transactionExpired: ("La transacción ya ha expirado", "A transação já expirou"),
        Text.alreadyRefunded: ("La transacción ya fue reversada", "A transação já foi estornada"),
    ]

    /// The English texts. Documented ones are quoted from the docs repository; the others are marked.
    enum Text {
        /// `OK` answer to a create or cancel (OpenAPI `CreateSessionResponse`, cancel-session page).
        static let processed = "The request has been processed successfully"
        /// Session `PENDING`/`PT` (OpenAPI query example).
        static let sessionPending = "The request is pending"
        /// Session `APPROVED`/`00` (OpenAPI query and notification examples).
        static let sessionApproved = "The petition has been successfully approved"
        /// Session `APPROVED_PARTIAL`/`P0` (OpenAPI query example).
        static let sessionApprovedPartial = "The request is partially approved"
        /// Session `REJECTED`/`XN` (OpenAPI query and collect examples).
        static let sessionRejected = "The request has been rejected"
        /// Session `REJECTED`/`?C`. Choice: no session-level example exists.
        static let sessionCancelledByPayer = "The request has been cancelled by the user"
        /// Session `REJECTED`/`MC` (OpenAPI cancel example).
        static let sessionCancelledByMerchant = "The request has been cancelled by the merchant"
        /// Session `REJECTED`/`EX`. Choice: the docs give no text for an expired session.
        static let sessionExpired = "The request has expired"
        /// Session `PARTIAL_EXPIRED`/`PX` (OpenAPI query example).
        static let sessionPartialExpired = "The request is expired or cancelled and payments have been made"
        /// Transaction `APPROVED`/`00` (OpenAPI transaction examples).
        static let approved = "Approved"
        /// A transaction declined by the bank. Choice: the docs show the ISO code itself as the message.
        static let rejected = "Rejected"
        /// Transaction `REJECTED`/`?C` of the payer (OpenAPI dispersion example).
        static let paymentAborted = "Payment aborted by the user"
        /// Transaction `REJECTED`/`?C` after the merchant's `cancel` (OpenAPI transaction `Cancel` example).
        static let cancelledByMerchant = "Cancelled by the merchant"
        /// Transaction `PENDING_CONFIRMATION`/`PT` (OpenAPI query example).
        static let pendingConfirmation = "Pending confirmation transaction"
        /// Transaction pending at the bank. Choice: no example.
        static let transactionPending = "The transaction is pending"
        /// Transaction `FAILED`/`BR` (3DS-N exception card). Choice: no example.
        static let transactionFailed = "The transaction could not be processed"
        /// `confirm`/`cancel` of a transaction voided by expiry (OpenAPI transaction 400 example).
        static let transactionExpired = "The transaction has already expired"
        /// A `reverse` of a fully refunded transaction (refund page).
        static let alreadyRefunded = "Transaction already refunded"
    }
}
