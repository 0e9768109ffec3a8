extension SuiteSchema {
    /// The suite schema with what `catalog` declares, so an editor catches what lint would: the provider ids, each
    /// step kind's action names (`call` operations, `payer` and `mock` actions, `redirect`, `deeplink`), the `with:`
    /// and `auth:` keys each action accepts (the union over the providers that have an action of that name), the
    /// fault kinds of `mock: fault`, the durations of `mock: clock` and the canonical outcomes. A value may always be a
    /// template (`"{{ row.provider }}"`), which only a run can check.
    package static func jsonSchema(catalog: any ProviderCatalog) -> String {
        guard case .object(var root)? = JSONText.parse(jsonSchema), case .object(var definitions)? = root["definitions"],
            case .object(var suite)? = definitions["suite"], case .object(var suiteProperties)? = suite["properties"],
            case .object(var step)? = definitions["step"], case .object(var stepProperties)? = step["properties"]
        else { return jsonSchema }
        let template: Value = .object(["type": "string", "pattern": "\\{\\{"])
        func oneOf(_ names: [String], _ description: Value?) -> Value {
            var members: [String: Value] = ["anyOf": .array([.object(["enum": .array(names.map(Value.string))]), template])]
            if let description { members["description"] = description }
            return .object(members)
        }
        let ids = catalog.providerIDs.sorted()
        suiteProperties["provider"] = oneOf(ids, suiteProperties["provider"]?["description"])

        // Every action by step kind, with the union of its with: and auth: keys over the providers that have it.
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
        for kind in [ProviderAction.Kind.call, .payer, .mock, .redirect, .deeplink] {
            stepProperties[kind.rawValue] = oneOf((names[kind] ?? []).sorted(), stepProperties[kind.rawValue]?["description"])
        }

        // `with:` and `auth:` per action, and the special cases lint also checks.
        var rules: [Value] = []
        func when(_ kind: ProviderAction.Kind, _ name: String, then properties: [String: Value]) {
            rules.append(
                .object([
                    "if": .object(["required": .array([.string(kind.rawValue)]), "properties": .object([kind.rawValue: .object(["const": .string(name)])])]),
                    "then": .object(["properties": .object(properties)]),
                ]))
        }
        for kind in [ProviderAction.Kind.call, .payer, .mock, .redirect, .deeplink] {
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
                if !properties.isEmpty { when(kind, name, then: properties) }
            }
        }
        step["allOf"] = .array(rules)
        step["properties"] = .object(stepProperties)
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
}
