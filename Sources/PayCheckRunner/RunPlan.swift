package import PayCheckCore

/// The cases a run will execute, in report order, after tag, filter and shard selection.
package struct RunPlan: Sendable {
    /// One selected case.
    package struct Item: Sendable {
        /// Index of the suite in `suites`.
        package var suiteIndex: Int
        /// Index of the case in its suite.
        package var caseIndex: Int
        /// Why it will be skipped without running, if it will.
        package var skipReason: SkipReason?
        /// Whether the case changes state every case shares (the mock clock, a reset), so it runs alone.
        package var exclusive: Bool = false
    }

    /// The suites that have at least one selected case.
    package var suites: [Suite]
    /// The selected cases, suite by suite.
    package var items: [Item]
    /// A ``StableDigest`` of everything selected before sharding — each suite's file, text digest and selected
    /// case names — so the shards of one run share it and `paycheck merge` can tell them from other runs.
    package var selectionDigest: String

    /// Selects cases from loaded suites.
    package init(suites all: [Suite], configuration: RunConfiguration, hasProviderCredentials: (String) -> Bool = { _ in true }) {
        var suites: [Suite] = []
        var items: [Item] = []
        var ordinal = 0
        var digest = StableDigest()
        for suite in all {
            var selected: [Item] = []
            for (caseIndex, testCase) in suite.cases.enumerated() {
                let tags = Set(suite.tags + testCase.tags)
                if !configuration.tags.isEmpty, tags.isDisjoint(with: configuration.tags) { continue }
                if !tags.isDisjoint(with: configuration.skipTags) { continue }
                if let filter = configuration.filter?.lowercased(), !filter.isEmpty {
                    let name = "\(suite.name) › \(testCase.name)".lowercased()
                    if !name.contains(filter) && !suite.file.lowercased().contains(filter) { continue }
                }
                defer { ordinal += 1 }
                digest.add(suite.file)
                digest.add(suite.name)
                digest.add(suite.sourceDigest)
                digest.add(testCase.name)
                if let shard = configuration.shard, ordinal % shard.count != shard.index - 1 { continue }
                var reason = testCase.skip.map(SkipReason.skip)
                if reason == nil, testCase.requires.contains("mock"), !configuration.target.hasMockControl {
                    reason = .needsMock(target: configuration.target.description, because: testCase.whyMock)
                }
                if reason == nil, let provider = suite.provider, let target = configuration.target.live, !hasProviderCredentials(provider) {
                    reason = .noCredentials(provider: provider, target: target)
                }
                selected.append(Item(suiteIndex: suites.count, caseIndex: caseIndex, skipReason: reason, exclusive: RunPlan.isExclusive(testCase)))
            }
            if !selected.isEmpty {
                suites.append(suite)
                items += selected
            }
        }
        self.suites = suites
        self.items = items
        self.selectionDigest = digest.hex
    }

    /// Cases with an action that changes state every case shares (the mock clock, a reset, anything a provider
    /// declares so) run alone, so other cases never see it.
    static func isExclusive(_ testCase: Case) -> Bool {
        testCase.steps.contains(where: \.runsAlone)
    }
}
