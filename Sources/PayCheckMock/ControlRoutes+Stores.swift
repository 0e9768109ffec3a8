import Foundation
import Hummingbird
import PayCheckCore

extension ControlRoutes {
    /// Adds the key-value store routes under `/__paycheck/kv`.
    func registerKeyValue(on router: Router<BasicRequestContext>) {
        let root = "\(ControlPath.root)/kv"
        let store = self.host.keyValueStore
        router.post(RouterPath(root)) { request, _ in
            let json = try MockRequestBody.value(try await Self.body(of: request))
            let id = store.insert(json)
            return MockResponse.json(Self.keyValue(id, json), status: .created)
        }
        router.put("\(root)/{key}") { request, context in
            let key = try Self.key(context)
            let json = try MockRequestBody.value(try await Self.body(of: request))
            store.put(key, json)
            return MockResponse.json(Self.keyValue(key, json))
        }
        router.get("\(root)/{key}") { _, context in
            let key = try Self.key(context)
            guard let json = store.get(key) else { throw Self.missing(key) }
            return MockResponse.json(Self.keyValue(key, json))
        }
        router.delete("\(root)/{key}") { _, context in
            let key = try Self.key(context)
            guard store.delete(key) else { throw Self.missing(key) }
            return MockResponse.noContent()
        }
    }

    /// Adds `GET /__paycheck/limits`: the host's bounds (``MockLimits``) and what each bounded store holds and has
    /// evicted so far.
    func registerLimits(on router: Router<BasicRequestContext>) {
        let host = self.host
        router.get(RouterPath(ControlAPI.path("limits"))) { _, _ in
            let journal = host.journal.usage
            let keyValue = host.keyValueStore.usage
            let webhooks = host.webhooks.usage
            return MockResponse.json(
                .object([
                    "limits": .object(host.limits.json.mapValues { .int($0) }),
                    "usage": .object([
                        "journal": .object(["entries": .int(journal.entries), "bytes": .int(journal.bytes), "evicted": .int(journal.evicted)]),
                        "kv": .object(["entries": .int(keyValue.entries), "bytes": .int(keyValue.bytes), "evicted": .int(keyValue.evicted)]),
                        "webhooks": .object(["entries": .int(webhooks.entries), "evicted": .int(webhooks.evicted)]),
                        "providers": .object(
                            Dictionary(
                                uniqueKeysWithValues: host.providers.compactMap { mock in
                                    mock.stateUsage.map { (mock.id, Value.object(["entries": .int($0.entries), "evicted": .int($0.evicted)])) }
                                })),
                    ]),
                ]))
        }
    }

    /// Adds the fault-injection routes under `/__paycheck/faults`.
    func registerFaults(on router: Router<BasicRequestContext>) {
        let root = RouterPath("\(ControlPath.root)/faults")
        let faults = self.host.faults
        router.post(root) { request, _ in
            let object = try MockRequestBody.object(try await Self.body(of: request))
            let fault = try faults.add(json: object)
            return MockResponse.json(fault.json, status: .created)
        }
        router.get(root) { _, _ in
            let pending = faults.pending
            return MockResponse.json(
                .object(["count": .int(pending.count), "faults": .array(pending.map(\.json))])
            )
        }
        router.delete(root) { _, _ in
            faults.clear()
            return MockResponse.noContent()
        }
    }

    /// `{"id": key, "value": <stored JSON>}`.
    private static func keyValue(_ key: String, _ json: Value) -> Value {
        .object(["id": .string(key), "value": json])
    }

    /// The `{key}` path parameter, percent-decoded.
    private static func key(_ context: BasicRequestContext) throws(MockHTTPError) -> String {
        guard let raw = context.parameters.get("key"), !raw.isEmpty else {
            throw MockHTTPError(.badRequest, "missing key in key-value path")
        }
        return raw.removingPercentEncoding ?? raw
    }

    /// The 404 for a key with no value.
    private static func missing(_ key: String) -> MockHTTPError {
        MockHTTPError(.notFound, "no value stored under '\(key)'")
    }
}
