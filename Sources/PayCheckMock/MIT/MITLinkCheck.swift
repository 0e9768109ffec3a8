import Foundation
import PayCheckCore
import PayCheckProviders

/// The checks `/gen` applies to a decrypted `P` document (providers.md §5.2, with §5.11 C2–C6: lenient limits by
/// default — `MXN|USD` plus the legacy `DLS`, `reference` ≤100, label ≤60, value ≤150, any positive decimal amount,
/// unknown optional children accepted, `datos_adicionales` under `url` or `P`; `strict` applies the 2018 XSD).
/// A missing required element is `01` (schema), a value outside its limits `02` (restrictions), a merchant that
/// does not match `03` (company, branch or user incorrect) — §5.11 D6.
enum MITLinkCheck {
    struct Failure: Error {
        var code: String
        var message: String
    }

    struct Fields {
        var reference, amount, currency, email: String
        /// The `datos_adicionales` element as XML, echoed in the notification (§5.11 C6).
        var additionalData: String
    }

    static func check(
        _ document: [String: Value], strict: Bool, maxAmountDigits: Int = AmountRule.defaultIntegerDigits, credentials: [String: String]
    ) -> Result<Fields, Failure> {
        do { return .success(try fields(document, strict: strict, maxAmountDigits: maxAmountDigits, credentials: credentials)) } catch { return .failure(error) }
    }

    /// The one check of an MIT amount's size (`/gen` `P/url/amount` and the Cobro's `xmlA` `amount`, once their form
    /// has matched): the portal's "2 decimales" (§5.11 C4) read as at most 2 decimals that are not zero, so the .NET
    /// SDK's `10` and a `10.50` pass; more than `maxDigits` digits before the point (the site's `maxAmountDigits`,
    /// 12 by default: MIT publishes no bound) is refused. `nil` when the amount is fine.
    static func amountProblem(_ amount: String, maxDigits: Int) -> String? {
        switch AmountRule(maxIntegerDigits: maxDigits, maxFractionDigits: 2, allowsExponent: false).check(text: amount) {
        case nil: return nil
        case .tooLarge: return "amount must have at most \(maxDigits) digits before the decimal point, got \"\(amount)\""
        case .tooManyDecimals, .wrongDecimals: return "amount must have at most 2 decimals, got \"\(amount)\""
        case .notANumber, .notFinite, .negative, .zero: return "amount must be a decimal greater than 0, got \"\(amount)\""
        }
    }

    private static func fields(
        _ document: [String: Value], strict: Bool, maxAmountDigits: Int, credentials: [String: String]
    ) throws(Failure) -> Fields {
        let schema = { (text: String) in Failure(code: "01", message: "El XML no cumple con el esquema: \(text)") }
        let limits = { (text: String) in Failure(code: "02", message: "El XML no cumple con las restricciones: \(text)") }
        guard let business = document["business"]?.objectValue else { throw schema("P/business is missing") }
        guard let url = document["url"]?.objectValue else { throw schema("P/url is missing") }
        func text(_ members: [String: Value], _ name: String, _ path: String, min: Int, max: Int) throws(Failure) -> String {
            guard let value = members[name] else { throw schema("\(path) is missing") }
            guard let string = value.stringValue else { throw schema("\(path) must be text") }
            guard (min...max).contains(string.count) else { throw limits("\(path) must be \(min)–\(max) characters, got \(string.count)") }
            return string
        }
        let company = try text(business, "id_company", "P/business/id_company", min: 4, max: 4)
        let branch = try text(business, "id_branch", "P/business/id_branch", min: 1, max: 11)
        let user = try text(business, "user", "P/business/user", min: 8, max: strict ? 20 : 20)
        let password = try text(business, "pwd", "P/business/pwd", min: 1, max: strict ? 80 : 100)
        let reference = try text(url, "reference", "P/url/reference", min: 1, max: strict ? 40 : 100)
        let amount = try text(url, "amount", "P/url/amount", min: 1, max: 20)
        guard Self.isDecimal(amount), let number = Double(amount), number > 0 else {
            throw limits("P/url/amount must be a decimal greater than 0, got \"\(amount)\"")
        }
        if let problem = Self.amountProblem(amount, maxDigits: maxAmountDigits) { throw limits("P/url/\(problem)") }
        let currency = try text(url, "moneda", "P/url/moneda", min: 3, max: 3)
        let currencies = strict ? ["MXN", "DLS"] : ["MXN", "USD", "DLS"]
        guard currencies.contains(currency) else { throw limits("P/url/moneda must be \(currencies.joined(separator: " or ")), got \"\(currency)\"") }
        guard try text(url, "canal", "P/url/canal", min: 1, max: 1) == "W" else { throw limits("P/url/canal must be W") }
        if let promotions = url["promociones"]?.stringValue {
            guard promotions.count <= 40, promotions.range(of: #"^C(,[0-9]{1,2})*$"#, options: .regularExpression) != nil else {
                throw limits("P/url/promociones must be C or C followed by month counts (C,3,6,…), at most 40 characters, got \"\(promotions)\"")
            }
        }
        for flag in ["omitir_notif_default", "st_correo", "prepago"] {
            if let value = url[flag]?.stringValue, !["0", "1"].contains(value) { throw limits("P/url/\(flag) must be 0 or 1") }
        }
        if let date = url["fh_vigencia"]?.stringValue, strict, date.range(of: #"^[0-9]{2}/[0-9]{2}/[0-9]{4}$"#, options: .regularExpression) == nil {
            throw limits("P/url/fh_vigencia must be dd/mm/yyyy")
        }
        let email = url["mail_cliente"]?.stringValue ?? ""
        guard email.count <= (strict ? 50 : 100) else { throw limits("P/url/mail_cliente must be at most \(strict ? 50 : 100) characters") }
        let additional = url["datos_adicionales"] ?? document["datos_adicionales"]
        var echo = "<datos_adicionales/>"
        if let additional, additional != .string("") {
            let items: [Value]
            switch additional["data"] {
            case .array(let list)?: items = list
            case let single?: items = [single]
            case nil: items = []
            }
            guard items.count <= 6 else { throw limits("P/url/datos_adicionales has \(items.count) data elements, at most 6") }
            var out = "<datos_adicionales>"
            for (index, item) in items.enumerated() {
                // `id` and `display` as attributes (the portal's example, §5.2) or as elements (MIT's 2022 .NET and PHP SDKs).
                guard let id = (item["@id"] ?? item["id"])?.stringValue, Int(id) != nil else {
                    throw schema("datos_adicionales/data[\(index + 1)]/@id must be an integer")
                }
                let display = (item["@display"] ?? item["display"])?.stringValue ?? "true"
                let label = item["label"]?.stringValue ?? "", value = item["value"]?.stringValue ?? ""
                guard (1...(strict ? 30 : 60)).contains(label.count) else { throw limits("datos_adicionales/data[\(index + 1)]/label must be 1–\(strict ? 30 : 60) characters") }
                guard (1...(strict ? 50 : 150)).contains(value.count) else { throw limits("datos_adicionales/data[\(index + 1)]/value must be 1–\(strict ? 50 : 150) characters") }
                out += "<data id=\"\(MITXML.escape(id))\" display=\"\(MITXML.escape(display))\"><label>\(MITXML.escape(label))</label><value>\(MITXML.escape(value))</value></data>"
            }
            echo = out + "</datos_adicionales>"
        }
        guard company == credentials["idCompany"], branch == credentials["idBranch"], user == credentials["user"], password == credentials["password"] else {
            throw Failure(code: "03", message: "Los datos de la compañía, sucursal o usuario son incorrectos")
        }
        return Fields(reference: reference, amount: amount, currency: currency, email: email, additionalData: echo)
    }

    /// Whether `text` is digits with an optional fraction (`^[0-9]+(\.[0-9]+)?$`), checked on bytes: the regular
    /// expression showed in the MIT mock's profile (docs/benchmarks.md).
    static func isDecimal(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: Substring.UTF8View) in !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        return parts.allSatisfy(digits)
    }
}
