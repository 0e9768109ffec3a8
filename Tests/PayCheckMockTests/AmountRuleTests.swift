import PayCheckCore
import Testing

@testable import PayCheckMock

@Suite("AmountRule: the digits of an amount as written")
struct AmountRuleTests {
    @Test(
        "a decimal is measured without expanding its exponent",
        arguments: [
            ("1000", 4, 0, 0), ("0.5", 0, 1, 1), ("10.50", 2, 1, 2), ("1e308", 309, 0, 0), ("1e+308", 309, 0, 0),
            ("1e-300", 0, 300, 0), ("1.25e2", 3, 0, 2), ("0012.3400", 2, 2, 4), ("-7.1", 1, 1, 1),
            ("1e9999999999", 1_000_000_001, 0, 0),
        ] as [(String, Int, Int, Int)]
    )
    func measures(text: String, integer: Int, significant: Int, written: Int) throws {
        let decimal = try #require(DecimalText(text))
        #expect(decimal.integerDigits == integer)
        #expect(decimal.significantFractionDigits == significant)
        #expect(decimal.writtenFractionDigits == written)
    }

    @Test("text that is no decimal is not read", arguments: ["", "-", ".", "1.", ".5", "1,000", "1 000", "0x10", "1e", "e5", "١٢", "1.2.3"])
    func refusesNonDecimals(text: String) {
        #expect(DecimalText(text) == nil)
    }

    @Test(
        "each violation is named, in order",
        arguments: [
            (Value.double(1e308), AmountRule.Violation.tooLarge), (.double(1e-300), .tooManyDecimals(2)),
            (.string("1e308"), .tooLarge), (.string("1e-300"), .tooManyDecimals(2)), (.string("NaN"), .notFinite),
            (.string("-Infinity"), .notFinite), (.double(.infinity), .notFinite), (.int(-5), .negative), (.int(0), .zero),
            (.string("0.00"), .zero), (.string("abc"), .notANumber), (.bool(true), .notANumber), (.null, .notANumber),
            (.string("1000000000000"), .tooLarge), (.string("10.001"), .tooManyDecimals(2)),
        ] as [(Value, AmountRule.Violation)]
    )
    func violations(value: Value, violation: AmountRule.Violation) {
        #expect(AmountRule(maxFractionDigits: 2).check(value) == violation)
    }

    @Test(
        "amounts within the limits pass",
        arguments: [Value.int(1), .double(0.01), .string("999999999999.99"), .string("10.50"), .string("1e3"), .double(165000)]
    )
    func accepts(value: Value) {
        #expect(AmountRule(maxFractionDigits: 2).check(value) == nil)
    }

    @Test("zero, exact decimals, plain notation and the digit bound are options")
    func options() {
        #expect(AmountRule(maxFractionDigits: 4, allowsZero: true).check(.int(0)) == nil)
        let exact = AmountRule(maxFractionDigits: 2, exactFractionDigits: true)
        #expect(exact.check(text: "10.00") == nil)
        #expect(exact.check(text: "10.0") == .wrongDecimals(2))
        #expect(exact.check(text: "10") == .wrongDecimals(2))
        let plain = AmountRule(maxFractionDigits: 2, allowsExponent: false)
        #expect(plain.check(text: "1e3") == .notANumber)
        #expect(plain.check(text: "+5") == .notANumber)
        #expect(plain.check(.double(1e-5)) == .tooManyDecimals(2))
        #expect(AmountRule(maxIntegerDigits: 6, maxFractionDigits: 2).check(text: "1234567") == .tooLarge)
    }

    @Test("ISO 4217 decimals by currency", arguments: [("CLP", 0), ("JPY", 0), ("COP", 2), ("USD", 2), ("KWD", 3), ("CLF", 4)])
    func isoDecimals(currency: String, decimals: Int) {
        #expect(AmountRule.isoDecimals(currency) == decimals)
    }
}
