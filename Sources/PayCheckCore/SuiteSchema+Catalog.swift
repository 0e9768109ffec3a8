extension SuiteSchema {
    /// The suite schema with what `catalog` declares, so an editor catches what lint would: the provider ids, each
    /// step kind's action names (`call` operations, `payer` and `mock` actions, `redirect`, `deeplink`), the `with:`
    /// and `auth:` keys each action accepts, the fault kinds of `mock: fault`, the durations of `mock: clock` and the
    /// canonical outcomes. In a suite whose `provider:` is P, a step names P's actions and gives them P's keys only
    /// (`definitions/step-P`, applied by an `if`/`then` on the suite); in a fragment, or a suite whose provider is a
    /// template, a step takes what any provider takes (the union over the providers that have an action of that name).
    /// A value may always be a template (`"{{ row.provider }}"`), which only a run can check.
    package static func jsonSchema(catalog: any ProviderCatalog) -> String {
        guard case .object(var root)? = JSONText.parse(jsonSchema), case .object(var definitions)? = root["definitions"],
            case .object(var suite)? = definitions["suite"], case .object(var suiteProperties)? = suite["properties"],
            case .object(var step)? = definitions["step"], case .object(var stepProperties)? = step["properties"]
        else { return jsonSchema }
        let ids = catalog.providerIDs.sorted()
        suiteProperties["provider"] = oneOf(ids, suiteProperties["provider"]?["description"])

        // Every provider's actions: what a step in a fragment, or in a suite whose provider is a template, may say.
        let all = actionRules(catalog: catalog, providers: ids)
        for kind in actionKinds {
            stepProperties[kind.rawValue] = oneOf(all.names[kind] ?? [], stepProperties[kind.rawValue]?["description"])
        }
        step["allOf"] = .array(all.rules)
        step["properties"] = .object(stepProperties)

        // A suite whose provider is P: its steps name P's actions only and give them P's with: keys only, so another
        // provider's key (khipu's payment_id in a PlacetoPay payer: step) is flagged, as lint flags it.
        var perProvider: [Value] = []
        for id in ids {
            let own = actionRules(catalog: catalog, providers: [id])
            var properties: [String: Value] = [:]
            for kind in actionKinds { properties[kind.rawValue] = oneOf(own.names[kind] ?? [], nil) }
            // A rule the union already has (an action no other provider names) need not be said again.
            let narrower = own.rules.filter { !all.rules.contains($0) }
            definitions["step-\(id)"] = .object([
                "description": .string("A step of a suite whose provider is \(id): \(id)'s actions only, with \(id)'s with: and auth: keys only."),
                "properties": .object(properties), "allOf": .array(narrower),
            ])
            let steps: Value = .object(["items": .object(["$ref": .string("#/definitions/step-\(id)")])])
            perProvider.append(
                .object([
                    "if": .object(["required": .array([.string("provider")]), "properties": .object(["provider": .object(["const": .string(id)])])]),
                    "then": .object(["properties": .object(["cases": .object(["items": .object(["properties": .object(["steps": steps])])])])]),
                ]))
        }
        suite["allOf"] = .array(perProvider)
        suite["properties"] = .object(suiteProperties)
        definitions["suite"] = .object(suite)
        definitions["step"] = .object(step)
        // The outcome an expectation names is one of the canonical outcomes (or a matcher, or a template).
        if case .object(var expect)? = definitions["expect"], case .object(var properties)? = expect["properties"] {
            properties["outcome"] = .object([
                "anyOf": .array([.object(["enum": .array(Outcome.allCases.map { .string($0.rawValue) })]), template, .object(["type": "object"])]),
                "description": properties["outcome"]?["description"] ?? .null,
            ])
            expect["properties"] = .object(properties)
            definitions["expect"] = .object(expect)
        }
        root["definitions"] = .object(definitions)
        root["description"] = .string(
            (root["description"]?.stringValue ?? "") + " Generated with the providers' declarations: " + ids.joined(separator: ", ") + ".")
        return JSONText.encode(.object(root), pretty: true) + "\n"
    }

    /// The step kinds whose actions the providers declare.
    static let actionKinds: [ProviderAction.Kind] = [.call, .payer, .mock, .redirect, .deeplink]

    /// A value that is a template, which only a run can check.
    static let template: Value = .object(["type": "string", "pattern": "\\{\\{"])

    /// One of `names`, or a template; a template only when there are no names.
    static func oneOf(_ names: [String], _ description: Value?) -> Value {
        let choices: [Value] = names.isEmpty ? [template] : [.object(["enum": .array(names.map(Value.string))]), template]
        var members: [String: Value] = ["anyOf": .array(choices)]
        if let description { members["description"] = description }
        return .object(members)
    }

    /// The actions of `providers` by step kind (with the generic mock actions), and one `if`/`then` rule per action
    /// with the `with:` and `auth:` keys it takes: the union over those of `providers` that have an action of that name.
    static func actionRules(catalog: any ProviderCatalog, providers ids: [String]) -> (names: [ProviderAction.Kind: [String]], rules: [Value]) {
        var names: [ProviderAction.Kind: Set<String>] = [:]
        var withKeys: [String: Set<String>] = [:]
        var open: Set<String> = []  // actions some provider takes any mapping for
        var authKeys: [String: Set<String>] = [:]
        var shapes: [String: [String: RequestShape]] = [:]  // by action, then `with:` key: merged over the providers
        func add(_ kind: ProviderAction.Kind, _ spec: ActionSpec) {
            names[kind, default: []].insert(spec.name)
            let key = "\(kind.rawValue):\(spec.name)"
            for (name, shape) in spec.shapes { shapes[key, default: [:]][name] = shapes[key]?[name].map { $0.merged(with: shape) } ?? shape }
            if let parameters = spec.parameters { withKeys[key, default: []].formUnion(parameters) } else { open.insert(key) }
            authKeys[key, default: []].formUnion(spec.authKeys)
        }
        for id in ids {
            guard let provider = catalog.provider(id) else { continue }
            for (kind, specs) in provider.specs { for spec in specs { add(kind, spec) } }
        }
        for action in GenericMockAction.allCases { add(.mock, action.spec) }

        // `with:` and `auth:` per action, and the special cases lint also checks.
        var rules: [Value] = []
        for kind in actionKinds {
            for name in (names[kind] ?? []).sorted() {
                let key = "\(kind.rawValue):\(name)"
                var properties: [String: Value] = [:]
                if !open.contains(key), let keys = withKeys[key] {
                    var with: [String: Value] = ["type": "object", "propertyNames": .object(["enum": .array(keys.sorted().map(Value.string))])]
                    // The members of a shaped value (`payment: { reference, amount: { … } }`), so a typo inside it shows.
                    // A key one provider shapes and another leaves free stays free.
                    let shaped = (shapes[key] ?? [:]).filter { entry in
                        ids.allSatisfy { id in
                            guard let spec = catalog.provider(id)?.spec(kind, name), spec.parameters?.contains(entry.key) == true else { return true }
                            return spec.shapes[entry.key] != nil
                        }
                    }
                    if !shaped.isEmpty { with["properties"] = .object(shaped.mapValues(\.editorSchema)) }
                    if kind == .mock, name == GenericMockAction.fault.rawValue {
                        with["properties"] = .object(["kind": oneOf(FaultKind.allCases.map(\.rawValue), nil)])
                    }
                    if kind == .mock, name == GenericMockAction.clock.rawValue {
                        with["properties"] = .object(["advance": .object(["$ref": "#/definitions/duration"])])
                    }
                    properties["with"] = .object(["anyOf": .array([.object(with), template, .object(["type": "null"])])])
                }
                if kind == .call {
                    let keys = (authKeys[key] ?? []).sorted()
                    properties["auth"] =
                        keys.isEmpty
                        ? .object(["not": .object([:]), "description": "This operation takes no auth: overrides."])
                        : .object(["type": "object", "propertyNames": .object(["enum": .array(keys.map(Value.string))])])
                }
                guard !properties.isEmpty else { continue }
                rules.append(
                    .object([
                        "if": .object(["required": .array([.string(kind.rawValue)]), "properties": .object([kind.rawValue: .object(["const": .string(name)])])]),
                        "then": .object(["properties": .object(properties)]),
                    ]))
            }
        }
        return (names.mapValues { $0.sorted() }, rules)
    }
}
