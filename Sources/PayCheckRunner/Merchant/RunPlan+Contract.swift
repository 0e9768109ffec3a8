package import PayCheckCore

extension RunPlan {
    /// Skips the cases that need a part of `contract` it does not describe (``contractGap(_:_:)``): a pack scenario
    /// the contract cannot drive is reported as not covered, not failed.
    package mutating func skipContractGaps(_ contract: MerchantContract) {
        for index in items.indices where items[index].skipReason == nil {
            let testCase = suites[items[index].suiteIndex].cases[items[index].caseIndex]
            if let gap = Self.contractGap(testCase, contract) { items[index].skipReason = .notInContract(gap) }
        }
    }

    /// What `testCase` needs from `contract` that it does not describe (a `merchant: return` without `return:`, a
    /// `merchant: pay` without `pay:`), or `nil`.
    static func contractGap(_ testCase: Case, _ contract: MerchantContract) -> String? {
        for step in testCase.steps {
            switch step.merchant?.action {
            case .return? where contract.returnRequest == nil:
                return "contract '\(contract.name)' has no 'return:' page for 'merchant: return'"
            case .pay? where contract.payRequest == nil:
                return "contract '\(contract.name)' has no 'pay:' request for 'merchant: pay'"
            default: continue
            }
        }
        return nil
    }
}
