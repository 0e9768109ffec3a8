import Foundation
import PayCheckCore

/// The Suite mCommerce rules that the SDK (client side) and PayCheck's mock (server side) share (providers.md §5.4,
/// corrected by §5.11 B1): which bean field each code checks, in the SDK's order, and the rule that every check runs
/// and the last failing one wins.
///
/// The SDK refuses a *missing* value (null or empty; T009 a token that is not 16 characters; T010 an amount that does
/// not match `[0-9]+(\.[0-9][0-9]?)?`; A006/T011 a currency outside `MXN|USD`, which the SDK's enum cannot hold).
/// The mock refuses, under the same code, a value that does not match the merchant (a wrong branch, user, key…);
/// MIT's server codes are unpublished, so answering with the SDK's code of the field is PayCheck's choice.
package enum MITSuiteRules {
    /// One check: the bean, the field, the code.
    package struct Check: Sendable, Hashable {
        package var bean: String
        package var field: String
        package var code: String

        init(_ bean: String, _ field: String, _ code: String) {
            self.bean = bean
            self.field = field
            self.code = code
        }
    }

    /// The beans' names in a step's `with:` and in the JSON payload (§5.5: `tokenData`/`paymentData`, `3dsData`).
    package static let tokenization = "tokenization", threeDS = "threeDS"

    /// `Environment` of `initOnEnvironment` (§5.4, §5.11 B6).
    static let environments = ["SANDBOX", "DEV", "QA", "PROD"]
    /// The SDK's `Currency` enum (§5.4).
    package static let currencies = ["MXN", "USD"]
    /// The amount the SDK accepts for a token payment (§5.11 B1, T010).
    static let amountPattern = #"^[0-9]+(\.[0-9][0-9]?)?$"#
    /// The length of a card token (§5.11 B1, T009).
    static let tokenLength = 16

    /// `authenticate(beanTokenization, bean3DS)`: the Bean3DS fields, in the SDK's order (§5.11 B1).
    package static let authentication: [Check] = [
        .init(threeDS, "branch", "A001"), .init(threeDS, "country", "A002"), .init(threeDS, "user", "A003"),
        .init(threeDS, "password", "A004"), .init(threeDS, "merchant", "A005"), .init(threeDS, "currency", "A006"),
        .init(threeDS, "authKey", "A007"), .init(threeDS, "company", "A009"),
    ]

    /// `sndPayWithToken(beanTokenization, bean3DS)`: the BeanTokenization fields, in the SDK's order (§5.11 B1).
    package static let tokenPayment: [Check] = [
        .init(tokenization, "branch", "T001"), .init(tokenization, "user", "T002"), .init(tokenization, "password", "T003"),
        .init(tokenization, "country", "T005"), .init(tokenization, "merchant", "T006"), .init(tokenization, "reference", "T007"),
        .init(tokenization, "operationType", "T008"), .init(tokenization, "token", "T009"), .init(tokenization, "amount", "T010"),
        .init(tokenization, "currency", "T011"), .init(tokenization, "company", "T014"),
    ]

    /// The code of the last failing check: every check runs, no early return (§5.11 B1).
    package static func lastFailing(_ results: [(code: String, passes: Bool)]) -> String? {
        results.last { !$0.passes }?.code
    }

    /// Whether the SDK accepts a field's value (it only checks presence and form, §5.11 B1).
    package static func sdkAccepts(_ field: String, _ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        switch field {
        case "currency": return currencies.contains(value)
        case "token": return value.count == tokenLength
        case "amount": return value.range(of: amountPattern, options: .regularExpression) != nil
        default: return true
        }
    }

    /// The SDK's checks of environment and context, which close every call's list (§5.11 B1: C002, C003).
    package static func controllerChecks(environment: String?, context: String?) -> [(code: String, passes: Bool)] {
        [("C002", environments.contains(environment ?? "")), ("C003", !(context ?? "").isEmpty)]
    }

    /// The client-side code of a call, or nil: a missing bean is A008/T012, otherwise the last failing check.
    package static func sdkCode(
        _ checks: [Check], beans: [String: [String: String]?], missingBean: String, environment: String?, context: String?
    ) -> String? {
        let given = beans.compactMapValues { $0 }
        guard given.count == beans.count else { return missingBean }
        let results = checks.map { check in (check.code, sdkAccepts(check.field, given[check.bean]?[check.field])) }
        return lastFailing(results + controllerChecks(environment: environment, context: context))
    }

    /// Luhn's check of a card number of 12–19 digits.
    package static func luhn(_ number: String) -> Bool {
        let digits = number.compactMap(\.wholeNumberValue)
        guard digits.count == number.count, (12...19).contains(digits.count) else { return false }
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() {
            if index % 2 == 1 { sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2 } else { sum += digit }
        }
        return sum % 10 == 0
    }
}
