/// The keys each mapping of the suite language accepts.
enum SuiteKeys {
    static let suite = ["suite", "provider", "description", "tags", "vars", "rows", "cases"]
    static let `case` = ["name", "description", "catches", "tags", "requires", "skip", "xfail", "vars", "rows", "steps"]
    static let stepKinds = ["http", "call", "payer", "mock", "redirect", "deeplink", "merchant", "set", "wait", "include"]
    static let stepCommon = ["name", "expect", "capture", "retry", "timeout", "with", "auth"]
    static let http = ["method", "url", "headers", "query", "json", "form", "body"]
    static let expect = ["status", "headers", "body", "outcome", "error"]
    static let error = ["class", "code", "message"]
    static let retry = ["until", "every", "for"]
    static let capture = ["from", "regex", "secret"]
    static let fragment = ["steps", "description"]
    static let requirements = ["mock"]
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
    static let outcomes = ["succeeded", "pending", "declined", "canceled", "expired", "error"]
    static let errorClasses = ["C", "S", "P", "A", "T"]
}
