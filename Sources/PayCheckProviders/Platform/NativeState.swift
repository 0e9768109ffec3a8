/// A provider's own payment state, spelt as its API spells it: one enum per provider, used by the adapter's outcome
/// table and by the provider's mock alike, so a misspelt state does not compile. In text it reads as it is spelt.
package protocol NativeState: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible where RawValue == String {}

extension NativeState {
    /// Every state as the API spells it, in declaration order.
    package static var spellings: [String] { allCases.map(\.rawValue) }

    /// The state as the API spells it.
    package var description: String { rawValue }
}
