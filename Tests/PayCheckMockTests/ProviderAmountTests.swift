import PayCheckCore
import Testing
import FoundationEssentials

@testable import PayCheckMock

@Suite("Each provider's amount check, in its own error shape")
struct ProviderAmountTests {
    @Test(
        "PlacetoPay: a message naming the field, or nil",
        arguments: [
            (Value.double(1e308), "COP", "The payment.amount.total field must have at most 12 digits before the decimal point, got 1e+308"),
            (.double(1e-300), "COP", "The payment.amount.total field must have at most 2 decimals in COP, got 1e-300"),
            (.double(1000.5), "CLP", "The payment.amount.total field must have at most 0 decimals in CLP, got 1000.5"),
            (.string("NaN"), "COP", "The payment.amount.total field must be a finite number, got 'NaN'"),
            (.int(0), "COP", "The payment.amount.total field must be a number greater than 0, got 0"),
            (.int(165000), "COP", nil), (.string("10.5"), "USD", nil), (.double(0.125), "KWD", nil),
        ] as [(Value, String, String?)]
    )
    func placetoPay(value: Value, currency: String, message: String?) {
        #expect(
            PlacetoPaySessionRequest.amountProblem(value, "payment.amount.total", currency: currency, maxDigits: 12) == message)
    }

    @Test(
        "khipu: 400 Error de validación on amount with the reason",
        arguments: [
            ("1e308", "USD", "Monto inválido"), ("1e+308", "USD", "Monto inválido"), ("1e-300", "USD", "Monto inválido"),
            ("-5", "CLP", "Monto inválido"), ("NaN", "CLP", "Monto inválido"), ("", "CLP", "Monto inválido"),
            ("0", "CLP", "El monto debe ser mayor que 0"), ("1000.5", "CLP", "Los montos en CLP no tienen decimales"),
            ("1.00001", "USD", "El monto admite a lo más 4 decimales"), ("3.00000", "USD", "El monto admite a lo más 4 decimales"),
            ("1000000000000", "CLP", "El monto admite a lo más 12 dígitos enteros"),
        ]
    )
    func khipuRefusals(text: String, currency: String, message: String) {
        do throws(KhipuFailure) {
            _ = try KhipuCreateRequest.checkedAmount(text, currency: currency)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == 400)
            #expect(error.message == "Error de validación")
            #expect(error.errors.map { $0.field } == ["amount"])
            #expect(error.errors.map { $0.message } == [message])
        }
    }

    @Test("khipu: plain decimals within the limits pass", arguments: [("1000", "CLP"), ("1000.0", "CLP"), ("10.1234", "CLF"), ("999999999999.9999", "USD")])
    func khipuAccepts(text: String, currency: String) throws {
        #expect(try KhipuCreateRequest.checkedAmount(text, currency: currency) > 0)
    }

    @Test(
        "Mollie: 422 invalid value on amount.value, or higher than the maximum on amount",
        arguments: [
            (Value.string("1e308"), "EUR", "The amount contains an invalid value", "amount.value"),
            (.string("1e-300"), "EUR", "The amount contains an invalid value", "amount.value"),
            (.double(1e308), "EUR", "The amount contains an invalid value", "amount.value"),
            (.string("10.0"), "EUR", "The amount contains an invalid value", "amount.value"),
            (.string("10.00"), "JPY", "The amount contains an invalid value", "amount.value"),
            (.string("0.00"), "EUR", "The amount contains an invalid value", "amount.value"),
            (.string("1000000000000.00"), "EUR", "The amount is higher than the maximum", "amount"),
        ] as [(Value, String, String, String)]
    )
    func mollieRefusals(value: Value, currency: String, detail: String, field: String) {
        do throws(MollieFailure) {
            _ = try MollieState.amountValue(value, currency: currency)
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.code == 422)
            #expect(error.detail == detail)
            #expect(error.field == field)
        }
    }

    @Test("Mollie: exact decimals pass")
    func mollieAccepts() throws {
        #expect(try MollieState.amountValue(.string("10.00"), currency: "EUR") == 10)
        #expect(try MollieState.amountValue(.string("1000"), currency: "JPY") == 1000)
    }

    @Test("MIT: at most 2 decimals that are not zero and 12 digits, else a reason")
    func mit() {
        #expect(MITLinkCheck.amountProblem("10", maxDigits: 12) == nil)
        #expect(MITLinkCheck.amountProblem("10.50", maxDigits: 12) == nil)
        #expect(MITLinkCheck.amountProblem("10.500", maxDigits: 12) == nil)
        #expect(MITLinkCheck.amountProblem("10.005", maxDigits: 12) == "amount must have at most 2 decimals, got \"10.005\"")
        #expect(MITLinkCheck.amountProblem("1e308", maxDigits: 12) == "amount must be a decimal greater than 0, got \"1e308\"")
        #expect(MITLinkCheck.amountProblem("1e-300", maxDigits: 12) == "amount must be a decimal greater than 0, got \"1e-300\"")
        #expect(
            MITLinkCheck.amountProblem("10000.00", maxDigits: 4) == "amount must have at most 4 digits before the decimal point, got \"10000.00\"")
        #expect(MITMock.xmlAProblem(["tpPago": "C", "amount": "1000000000000.00"])?.contains("at most 12 digits") == true)
    }

    @Test(
        "Yuno: INVALID_AMOUNT for 1e308, 1e-300 and more than 4 decimals; 0 is a verification",
        arguments: [Value.double(1e308), .double(1e-300), .string("1e308"), .double(10.00001), .int(-5), .string("NaN"), .int(1_000_000_000_000)]
    )
    func yunoRefusals(value: Value) {
        do throws(YunoFailure) {
            _ = try YunoState.amountValue(value)
            Issue.record("\(value) was accepted")
        } catch {
            #expect(error.httpStatus == 400)
            #expect(error.body == .object(["code": "INVALID_AMOUNT", "messages": .array(["Invalid amount"])]))
        }
    }

    @Test("Yuno: values within the limits pass", arguments: [Value.int(0), .double(10.1234), .string("52000"), .double(999999999999.9999)])
    func yunoAccepts(value: Value) throws {
        #expect(try YunoState.amountValue(value) >= 0)
    }
}
