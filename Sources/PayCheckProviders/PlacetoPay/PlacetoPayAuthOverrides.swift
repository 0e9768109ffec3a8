package import Foundation
package import PayCheckCore

/// The `auth:` overrides of a `call:` step: deliberate mis-signings for negative tests (providers.md §1.2, §1.3).
///
/// ```yaml
/// - call: createSession
///   auth: { secretKey: not-the-secret }   # 102
/// - call: createSession
///   auth: { seedOffset: -6m }             # 103
/// ```
///
/// `auth(login:secretKey:now:randomBytes:)` is a pure function of its inputs, so tests pin exact values.
package struct PlacetoPayAuthOverrides: Sendable, Hashable {
    /// Sign as another site (`login`).
    package var login: String?
    /// Sign with another secret key (`secretKey`).
    package var secretKey: String?
    /// Shift the seed from the clock by this many seconds (`seedOffset: -6m`, `+10m`).
    package var seedOffset: TimeInterval?
    /// Send this seed text verbatim (`seed`); it also enters the digest.
    package var seed: String?
    /// Use this raw nonce text instead of fresh random bytes (`nonce`), e.g. to replay one.
    package var nonce: String?
    /// The digest (`algorithm: sha1` for the legacy formula).
    package var algorithm: PlacetoPayHashAlgorithm
    /// Send no `auth` object at all (`omit: true`).
    package var omit: Bool
    /// Leave these fields out of the `auth` object (`omitFields: [tranKey]`).
    package var omitFields: [String]
    /// Send this tranKey verbatim instead of the computed one (`tranKey`).
    package var tranKey: String?

    /// The keys `auth:` accepts.
    package static let keys = ["login", "secretKey", "seedOffset", "seed", "nonce", "algorithm", "omit", "omitFields", "tranKey"]
    /// The fields of the `auth` object, for `omitFields`.
    package static let fields = ["login", "tranKey", "nonce", "seed"]

    /// No overrides: a correctly signed SHA-256 request.
    package init() {
        algorithm = .sha256
        omit = false
        omitFields = []
    }

    /// Reads a step's rendered `auth:` mapping; `nil` means no overrides.
    /// - Throws: `ProviderError` naming an unknown key (with the valid ones) or a badly typed value.
    package init(parsing value: Value?) throws {
        self.init()
        guard let value, value != .null else { return }
        guard let members = PlacetoPayJSON.object(value) else {
            throw ProviderError.invalidStep("'auth' must be a mapping of overrides (\(Self.keys.joined(separator: ", "))), found \(value.brief)")
        }
        for key in members.keys.sorted() where !Self.keys.contains(key) {
            let near = Self.keys.first { $0.lowercased() == key.lowercased() }.map { " (did you mean '\($0)'?)" } ?? ""
            throw ProviderError.invalidStep("unknown PlacetoPay auth override '\(key)'\(near); valid: \(Self.keys.joined(separator: ", "))")
        }
        login = try Self.text(members, "login")
        secretKey = try Self.text(members, "secretKey")
        seed = try Self.text(members, "seed")
        nonce = try Self.text(members, "nonce")
        tranKey = try Self.text(members, "tranKey")
        if let offset = try Self.text(members, "seedOffset") {
            guard let seconds = DurationText.seconds(offset) else {
                throw ProviderError.invalidStep("auth override 'seedOffset' must be a duration like -6m or +10m, got '\(offset)'")
            }
            seedOffset = seconds
        }
        if seed != nil, seedOffset != nil {
            throw ProviderError.invalidStep("auth overrides 'seed' and 'seedOffset' both set the seed; give one of them")
        }
        if let name = try Self.text(members, "algorithm") {
            guard let parsed = PlacetoPayHashAlgorithm(rawValue: name.lowercased()) else {
                throw ProviderError.invalidStep("auth override 'algorithm' must be sha256 or sha1, got '\(name)'")
            }
            algorithm = parsed
        }
        switch members["omit"] {
        case nil, .null?: break
        case .bool(let flag)?: omit = flag
        case let other?: throw ProviderError.invalidStep("auth override 'omit' must be true or false, got \(other.brief)")
        }
        switch members["omitFields"] {
        case nil, .null?: break
        case .array(let items)?:
            for item in items {
                guard case .string(let field) = item, Self.fields.contains(field) else {
                    throw ProviderError.invalidStep("auth override 'omitFields' lists fields of the auth object (\(Self.fields.joined(separator: ", "))), got \(item.brief)")
                }
                omitFields.append(field)
            }
        case let other?:
            throw ProviderError.invalidStep("auth override 'omitFields' must be a list such as [tranKey], got \(other.brief)")
        }
    }

    /// The `auth` object to send, or `nil` when it is omitted.
    ///
    /// The raw nonce is the `nonce` override or, like the PHP SDK, the lowercase hex of `randomBytes`; the seed is
    /// the `seed` override or `now` (shifted by `seedOffset`) formatted like PHP `date('c')` at UTC−05:00, the
    /// zone of the documented examples (providers.md §1.2).
    package func auth(login: String, secretKey: String, now: Date, randomBytes: [UInt8]) -> PlacetoPayAuth? {
        guard !omit else { return nil }
        let rawNonce = nonce ?? PlacetoPayAuth.rawNonce(from: randomBytes)
        let seedText = seed ?? PlacetoPayAuth.seed(for: now.addingTimeInterval(seedOffset ?? 0), timeZone: Self.seedZone)
        var auth = PlacetoPayAuth.make(
            login: self.login ?? login, secretKey: self.secretKey ?? secretKey, rawNonce: rawNonce, seed: seedText,
            algorithm: algorithm)
        if let tranKey { auth.tranKey = tranKey }
        return auth
    }

    /// The `auth` object as a JSON value, without the omitted fields; `nil` when the whole object is omitted.
    package func authValue(login: String, secretKey: String, now: Date, randomBytes: [UInt8]) -> Value? {
        guard let auth = auth(login: login, secretKey: secretKey, now: now, randomBytes: randomBytes) else { return nil }
        var fields = auth.json()
        for field in omitFields { fields[field] = nil }
        return .object(fields.mapValues(Value.string))
    }

    /// UTC−05:00, the offset of the seeds in providers.md §1.2 (Colombia, Ecuador, Peru).
    static let seedZone = TimeZone(secondsFromGMT: -5 * 3600) ?? .gmt

    /// An optional scalar override as text.
    private static func text(_ members: [String: Value], _ key: String) throws -> String? {
        guard let value = members[key], value != .null else { return nil }
        guard let text = PlacetoPayJSON.scalarText(value) else {
            throw ProviderError.invalidStep("auth override '\(key)' must be text, got \(value.brief)")
        }
        return text
    }
}
