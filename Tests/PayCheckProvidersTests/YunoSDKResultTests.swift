import PayCheckCore
import PayCheckProviders
import Testing

/// What `yunoPaymentResult` reports for the seed guide's scenarios (providers.md §3.9, §3.13 P2-16).
@Suite("Yuno SDK result mapping")
struct YunoSDKResultTests {
    @Test("the seed guide's scenarios: card approved/declined/error, Apple Pay closed, PIX closed, QR expired, backend down")
    func scenarios() {
        func result(_ status: String?, _ sub: String?, _ method: String? = "CARD", closed: Bool = false) -> String {
            let (result, substatus, outcome) = YunoSDKResult.result(status: status, subStatus: sub, method: method, closedByUser: closed)
            return "\(result) \(substatus ?? "-") \(outcome.rawValue)"
        }
        #expect(result("SUCCEEDED", "APPROVED") == "succeeded - succeeded")
        #expect(result("DECLINED", "DECLINED") == "reject DECLINED declined")
        #expect(result("ERROR", "ERROR") == "fail ERROR error")
        #expect(result("PENDING", "PENDING_PROVIDER_CONFIRMATION", "APPLE_PAY", closed: true) == "userCancelled CANCELLED_BY_USER canceled")
        #expect(result("PENDING", "IN_PROCESS", "PIX", closed: true) == "processing CLOSED_BY_USER pending")
        #expect(result("EXPIRED", "EXPIRED", "PIX", closed: true) == "fail EXPIRED expired")
        #expect(result("FRAUD", "FRAUD_VERIFIED") == "succeeded - succeeded")
        #expect(result(nil, nil) == "internalError - error")
        #expect(YunoSDKResult.android("userCancelled") == "CANCELED")
    }

    @Test("every mapped backend pair gives an SDK result")
    func everyPair() {
        for rule in YunoProvider.mapping.rules {
            let (result, _, _) = YunoSDKResult.result(status: rule.state, subStatus: rule.reason, method: "CARD", closedByUser: false)
            #expect(["succeeded", "fail", "processing", "reject", "internalError", "userCancelled"].contains(result), "\(rule.key)")
        }
    }
}
