import Foundation
import PayCheckCore

/// The webhooks API (providers.md §3.13 P1-13): `POST /webhooks` → 201, `GET /webhooks?account_id=`,
/// `GET`/`DELETE /webhooks/{id}?account_id=`, `PATCH /webhooks/{id}` with `account_id` in the body; ids are strings like `"12345"`, secrets come back masked.
extension YunoState {
    static let paymentTriggers: Set<String> = ["AUTHORIZE", "CANCEL", "CAPTURE", "CHARGEBACK", "PRECHARGEBACK", "PURCHASE", "REFUND", "VERIFY"]
    static let triggerLists = ["enrollment_triggers", "payment_triggers", "report_triggers", "subscription_triggers", "onboarding_triggers"]
    static let secretFields = ["api_key", "secret", "hmac_client_secret"]

    static func hookInvalid(_ message: String) -> YunoFailure { YunoFailure(400, "WEBHOOK_INVALID_REQUEST", message) }

    /// `account_id` of a webhooks call (query or body): missing → `WEBHOOK_INVALID_REQUEST`, another → `INVALID_ACCOUNT_ID`.
    static func hookAccount(_ given: String?, expected: String, missing: String = "account_id, name and url are required.") throws(YunoFailure) {
        guard let given, !given.isEmpty else { throw hookInvalid(missing) }
        guard given == expected else { throw YunoFailure(400, "INVALID_ACCOUNT_ID", "Account id is invalid") }
    }

    /// Validates and applies `body` onto `json` (create: everything required; update: only what is given).
    static func hookFields(_ body: [String: Value], into json: inout [String: Value], creating: Bool, strict: Bool) throws(YunoFailure) {
        for key in ["name", "url"] {
            if let value = body[key] {
                guard let text = value.stringValue, !text.isEmpty else { throw hookInvalid("account_id, name and url are required.") }
                json[key] = .string(text)
            } else if creating {
                throw hookInvalid("account_id, name and url are required.")
            }
        }
        if let url = json["url"]?.stringValue, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw hookInvalid("url must be an http(s) URL.")
        }
        if strict, let url = json["url"]?.stringValue, !isPublic(url) {
            throw YunoFailure(400, "WEBHOOK_URL_UNSAFE", "The webhook url must resolve to a public address.")
        }
        for key in secretFields where body[key] != nil { json[key] = body[key] }
        for key in triggerLists {
            guard let value = body[key], value != .null else { continue }
            guard let list = value.arrayValue?.compactMap(\.stringValue) else { throw YunoFailure(400, "WEBHOOK_INVALID_TRIGGER", "Invalid trigger.") }
            if key == "payment_triggers", !list.allSatisfy(paymentTriggers.contains) {
                throw YunoFailure(400, "WEBHOOK_INVALID_TRIGGER", "Invalid trigger.")
            }
            json[key] = .array(list.map { .string($0) })
        }
        if let state = body["state"] {
            guard let text = state.stringValue, ["ACTIVE", "INACTIVE"].contains(text) else { throw hookInvalid("state must be ACTIVE or INACTIVE.") }
            json["state"] = .string(text)
        }
        let triggers = triggerLists.reduce(0) { $0 + (json[$1]?.arrayValue?.count ?? 0) }
        guard triggers > 0 else { throw hookInvalid("at least one trigger is required.") }
    }

    mutating func createHook(_ body: [String: Value], account: String, now: Date) throws(YunoFailure) -> Value {
        try Self.hookAccount(body["account_id"]?.stringValue, expected: account)
        var json: [String: Value] = ["account_id": .string(account), "state": "ACTIVE", "renewal_days": body["renewal_days"] ?? .null]
        for key in Self.triggerLists { json[key] = .array([]) }
        for key in Self.secretFields { json[key] = .null }
        try Self.hookFields(body, into: &json, creating: true, strict: gateway.strictWebhookURLs)
        if hooks.values.contains(where: { $0.url == json["url"]?.stringValue && $0.json["name"] == json["name"] }) {
            throw YunoFailure(409, "WEBHOOK_ALREADY_EXISTS", "Webhook already exists.")
        }
        let id = String(nextHook)
        nextHook += 1
        json["id"] = .string(id)
        json["created_at"] = YunoPayment.stamp(now)
        json["updated_at"] = YunoPayment.stamp(now)
        hooks[id] = Hook(id: id, json: json)
        hookOrder.append(id)
        return Self.masked(json)
    }

    func hook(_ id: String) throws(YunoFailure) -> Hook {
        guard let hook = hooks[id] else { throw YunoFailure(404, "WEBHOOK_NOT_FOUND", "Webhook not found.") }
        return hook
    }

    func listHooks() -> Value { .array(hookOrder.compactMap { hooks[$0] }.map { Self.masked($0.json) }) }

    mutating func updateHook(_ id: String, _ body: [String: Value], now: Date) throws(YunoFailure) -> Value {
        var hook = try hook(id)
        try Self.hookFields(body, into: &hook.json, creating: false, strict: gateway.strictWebhookURLs)
        // WebhookUpdateInput: `renewal_days` replaces, `clear_renewal_days: true` empties it.
        if let days = body["renewal_days"], days != .null {
            guard days.wholeNumber != nil else { throw Self.hookInvalid("renewal_days must be a whole number.") }
            hook.json["renewal_days"] = days
        }
        if body["clear_renewal_days"]?.boolValue == true { hook.json["renewal_days"] = .null }
        hook.json["updated_at"] = YunoPayment.stamp(now)
        hooks[id] = hook
        return Self.masked(hook.json)
    }

    mutating func deleteHook(_ id: String) throws(YunoFailure) -> Value {
        let hook = try hook(id)
        hooks[id] = nil
        hookOrder.removeAll { $0 == id }
        return Self.masked(hook.json)
    }

    /// Whether `url`'s host is a public one: not `localhost`, a loopback, private or link-local address (the real
    /// API resolves the name; the mock judges the literal host).
    static func isPublic(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased(), !host.isEmpty else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("[") { return false }
        let parts = host.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 4 else { return true }
        switch (parts[0], parts[1]) {
        case (127, _), (10, _), (0, _), (192, 168), (169, 254): return false
        case (172, let second) where (16...31).contains(second): return false
        default: return true
        }
    }

    /// Secrets come back as `"***"`, `null` when unset; every `oauth2_*` is null (§3.13 P1-13).
    static func masked(_ json: [String: Value]) -> Value {
        var members = json
        for key in secretFields where members[key] != nil && members[key] != .null { members[key] = "***" }
        for key in ["oauth2_client_id", "oauth2_client_secret", "oauth2_token_url"] { members[key] = .null }
        return .object(members)
    }

    /// The active webhooks whose payment triggers include `trigger` (e.g. `PURCHASE`).
    func hooks(for trigger: String) -> [Hook] {
        hookOrder.compactMap { hooks[$0] }.filter { $0.active && $0.triggers.contains(trigger) }
    }
}
