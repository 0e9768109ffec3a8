import Foundation
import PayCheckProviders

/// The `CENTEROFPAYMENTS` result MIT posts to the merchant (providers.md §5.3), in the per-outcome shapes of the real
/// samples (§5.11 D1): approved carries `auth`, `time`, `date`, `amount`, `cc_mask`; denied has no `time`/`date`, an
/// empty `auth` and `amount`, and `cc_expmonth`/`cc_expyear`; error sets `cd_error` (with `nb_error` possibly empty).
enum MITNotification {
    static func document(
        link: (id: String, reference: String, amount: String, email: String, additionalData: String, folio: String),
        response: MITResponseState, card: String, cdError: String, nbError: String, now: Date
    ) -> String {
        let e: (String) -> String = MITXML.escape
        let last4 = String(card.suffix(4))
        let mask = String(card.prefix(6)) + String(repeating: "X", count: max(card.count - 10, 0)) + last4
        var out = "<CENTEROFPAYMENTS><reference>\(e(link.reference))</reference><response>\(response.rawValue)</response>"
        switch response {
        case .approved:
            let time = MITDate.time(now), date = MITDate.day(now)
            let auth = "PC" + String(link.folio.suffix(4))  // PayCheck's authorisation number: derived from the folio
            out += "<foliocpagos>\(link.folio)</foliocpagos><auth>\(auth)</auth><cd_response>0C</cd_response><cd_error/><nb_error/>"
            out += "<time>\(time)</time><date>\(date)</date><nb_company>SANDBOX WEBPAY</nb_company><nb_merchant>1234567 WEBPAYPLUS</nb_merchant>"
            out += "<cc_type>CREDITO/BANCO MIT/Visa</cc_type><tp_operation>VENTA</tp_operation><cc_name/><cc_number>\(last4)</cc_number>"
            out += "<amount>\(e(link.amount))</amount><id_url>\(link.id)</id_url><email>\(e(link.email))</email><cc_mask>\(mask)</cc_mask>"
        case .denied:
            out += "<foliocpagos>\(link.folio)</foliocpagos><auth/><cd_response></cd_response><cd_error/><nb_error/><nb_company/><nb_merchant/>"
            out += "<cc_type/><tp_operation/><cc_name/><cc_number>\(last4)</cc_number><cc_expmonth>12</cc_expmonth><cc_expyear>30</cc_expyear>"
            out += "<amount/><emv_key_date/><id_url>\(link.id)</id_url><email>\(e(link.email))</email>"
        default:
            out += "<foliocpagos/><auth/><cd_response/><cd_error>\(e(cdError))</cd_error><nb_error>\(e(nbError))</nb_error><nb_company/>"
            out += "<nb_merchant/><cc_type/><tp_operation/><cc_name/><cc_number/><cc_expmonth/><cc_expyear/><amount/><id_url>\(link.id)</id_url>"
            out += "<email>\(e(link.email))</email>"
        }
        return out + link.additionalData + "</CENTEROFPAYMENTS>"
    }

    /// MIME-style Base64: CR-LF every 64 characters (§5.11 D2).
    static func wrap(_ base64: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(base64)
        while !rest.isEmpty { lines.append(rest.prefix(64)); rest = rest.dropFirst(64) }
        return lines.joined(separator: "\r\n")
    }
}

/// MIT's dates and times in UTC: `dd/MM/yyyy`, `HH:mm:ss` and the `yyyyMM` a card's expiry is compared with.
/// Written from the Gregorian calendar's fields: a `DateFormatter` made per notification was 6% of the mock's CPU
/// under load (docs/benchmarks.md).
enum MITDate {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func fields(_ date: Date) -> DateComponents {
        // To the millisecond first, as a DateFormatter does (11.9996 s is written 12).
        let rounded = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: rounded)
    }

    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : String(value)
    }

    /// `dd/MM/yyyy`.
    static func day(_ date: Date) -> String {
        let f = fields(date)
        let year = String(f.year ?? 0)
        return "\(two(f.day))/\(two(f.month))/\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)"
    }

    /// `HH:mm:ss`.
    static func time(_ date: Date) -> String {
        let f = fields(date)
        return "\(two(f.hour)):\(two(f.minute)):\(two(f.second))"
    }

    /// `yyyyMM` as a number.
    static func month(_ date: Date) -> Int {
        let f = fields(date)
        return (f.year ?? 0) * 100 + (f.month ?? 0)
    }
}
