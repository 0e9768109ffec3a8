/// The expanded steps of each included file (by canonical path), shared by the parsers of one suite and its
/// includes, so a fragment included many times is read and parsed once. A reference type on purpose: the parsers
/// are values, and each child must see what its siblings already expanded. Used by one synchronous parse only.
final class IncludeCache {
    /// Steps by canonical file path.
    var steps: [String: [Step]] = [:]
}
