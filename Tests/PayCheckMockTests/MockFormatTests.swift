import Foundation
import PayCheckProviders
import Testing

@testable import PayCheckMock

/// The mocks' own writers of amounts and dates, checked against the Foundation formatters they replace (on hot paths
/// of the mock, docs/benchmarks.md).
@Suite("Mock formats: amounts and dates against Foundation's formatters")
struct MockFormatTests {
    @Test("Mollie: amounts are written as a POSIX NumberFormatter writes them, rounded half-up to the currency's decimals")
    func mollieText() {
        func reference(_ value: Decimal, _ currency: String) -> String {
            var rounded = Decimal()
            var copy = value
            NSDecimalRound(&rounded, &copy, MollieFormat.decimals(currency), .plain)
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.minimumFractionDigits = MollieFormat.decimals(currency)
            formatter.maximumFractionDigits = MollieFormat.decimals(currency)
            formatter.usesGroupingSeparator = false
            return formatter.string(from: rounded as NSDecimalNumber) ?? "\(rounded)"
        }
        var generator = SystemRandomNumberGenerator()
        var values: [Decimal] = [0, 1, 10, 0.5, 0.005, 0.015, 1.995, 12.3456, 1_000_000.1, 999_999_999.999, -4.5]
        for _ in 0..<5_000 {
            let mantissa = Int64.random(in: 0...9_999_999_999, using: &generator)
            values.append(Decimal(sign: .plus, exponent: -Int.random(in: 0...6, using: &generator), significand: Decimal(mantissa)))
        }
        for value in values {
            for currency in ["EUR", "JPY", "USD"] {
                #expect(MollieFormat.text(value, currency) == reference(value, currency), "\(value) \(currency)")
            }
        }
    }

    @Test("MIT: dates, times and the card-expiry month are written as a UTC POSIX DateFormatter writes them")
    func mitDates() {
        func reference(_ format: String, _ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter.string(from: date)
        }
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 1_798_761_599.999)]
        for _ in 0..<2_000 { dates.append(Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...4_000_000_000))) }
        for date in dates {
            #expect(MITDate.day(date) == reference("dd/MM/yyyy", date), "\(date.timeIntervalSince1970)")
            #expect(MITDate.time(date) == reference("HH:mm:ss", date), "\(date.timeIntervalSince1970)")
            #expect(MITDate.month(date) == Int(reference("yyyyMM", date)), "\(date.timeIntervalSince1970)")
        }
    }

    @Test("MIT: the amount check and the tag search on bytes agree with the regular expression and Foundation's search")
    func mitByteChecks() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789..-a \n<>/x")
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            // As the check uses it: with `Double(_:)`, which refuses the final line break `$` lets through.
            let expected = text.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil && Double(text) != nil
            #expect((MITLinkCheck.isDecimal(text) && Double(text) != nil) == expected, "\(text.debugDescription)")
            let document = "<a>" + text + "</x>" + text + "</a>"
            for name in ["a", "x"] {
                let open = document.range(of: "<\(name)>")
                let close = open.flatMap { document.range(of: "</\(name)>", range: $0.upperBound..<document.endIndex) }
                let foundation = open.flatMap { open in close.map { String(document[open.upperBound..<$0.lowerBound]) } }
                #expect(MITXML.inner(name, in: document) == foundation, "\(document.debugDescription)")
            }
        }
    }
}
