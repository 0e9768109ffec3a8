import Foundation
import Yams

/// The keys each mapping of a merchant contract accepts.
enum ContractKeys {
    static let root = ["contract", "description", "backend", "checkout", "order", "return", "pay", "providers"]
    static let backend = ["url", "start"]
    static let start = ["command", "directory", "env", "health", "timeout"]
    static let checkout = ["request", "order", "payment", "checkoutUrl"]
    static let order = ["request", "state", "states", "fulfilments"]
    static let `return` = ["request"]
    static let pay = ["request"]
    static let provider = ["notificationUrl", "returnUrl"]
}

extension SuiteParser {
    /// Parses the file as a merchant contract; every problem is a located diagnostic.
    mutating func parseContract() -> MerchantContract? {
        guard let root = compose(), let pairs = mapping(root, "a contract file") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.root, in: "the contract")
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        for key in ["contract", "backend", "checkout", "order"] where value(key) == nil {
            error(root, "missing key '\(key)'", hint: key == "contract" ? "add 'contract: <name>' at the top of the file" : "see 'paycheck schema contract' and docs/merchant.md")
        }
        let name = value("contract").flatMap { nonEmptyString($0, "'contract'") }
        let description = value("description").flatMap { string($0, "'description'") }
        let backend = value("backend").flatMap { contractBackend($0) }
        let checkout = value("checkout").flatMap { contractCheckout($0) }
        let order = value("order").flatMap { contractOrder($0) }
        var returnRequest: HTTPRequestStep?
        if let node = value("return"), let request = contractRequestSection(node, keys: ContractKeys.return, what: "'return'") {
            returnRequest = request.request
        }
        var payRequest: HTTPRequestStep?
        if let node = value("pay"), let request = contractRequestSection(node, keys: ContractKeys.pay, what: "'pay'") {
            payRequest = request.request
        }
        var providers: [String: MerchantContract.ProviderSettings] = [:]
        if let node = value("providers") {
            for pair in mapping(node, "'providers'") ?? [] {
                if catalog.provider(pair.key) == nil {
                    let known = catalog.providerIDs
                    error(
                        pair.keyNode, "unknown provider '\(pair.key)'",
                        hint: Suggest.nearest(pair.key, in: known).map { "did you mean '\($0)'?" } ?? "known providers: " + known.joined(separator: ", "))
                }
                var settings = MerchantContract.ProviderSettings()
                if !isNull(pair.value), let fields = mapping(pair.value, "provider '\(pair.key)'") {
                    checkKeys(fields, allowed: ContractKeys.provider, in: "provider '\(pair.key)'")
                    for field in fields {
                        switch field.key {
                        case "notificationUrl":
                            settings.notificationURL = template(field.value, "'notificationUrl'")
                            // A key that does nothing would let a scenario wait for a notification that never comes.
                            if let unused = catalog.provider(pair.key)?.contractNotificationURLUnused {
                                error(
                                    field.keyNode, "'notificationUrl' does nothing for \(pair.key): \(unused)",
                                    hint: "remove it; the backend must give \(pair.key) its notification URL (docs/merchant.md)")
                            }
                        case "returnUrl":
                            settings.returnURL = template(field.value, "'returnUrl'")
                            error(
                                field.keyNode, "'returnUrl' does nothing: the backend sends its return URL with each payment it creates",
                                hint: "remove it; the contract's 'return:' request is where the payer comes back")
                        default: break
                        }
                    }
                }
                providers[pair.key] = settings
            }
        }
        if let backend { checkStart(backend) }
        guard let name, let backend, let checkout, let order, !diagnostics.hasErrors else { return nil }
        return MerchantContract(
            name: name, file: file, description: description, backend: backend, checkout: checkout, order: order,
            returnRequest: returnRequest, payRequest: payRequest, providers: providers, location: location(root))
    }

    private mutating func contractBackend(_ node: Node) -> MerchantContract.Backend? {
        guard let pairs = mapping(node, "'backend'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.backend, in: "'backend'")
        guard let urlNode = pairs.first(where: { $0.key == "url" })?.value else {
            error(node, "'backend' needs a 'url' (where the backend listens)", hint: "e.g. url: http://127.0.0.1:8099")
            return nil
        }
        guard let url = template(urlNode, "'url'") else { return nil }
        if url.singleExpression == nil, case .text(let first)? = url.parts.first, !first.hasPrefix("http://"), !first.hasPrefix("https://") {
            error(urlNode, "the backend's url '\(url.source)' must start with http:// or https://")
        }
        var start: MerchantContract.Start?
        if let startNode = pairs.first(where: { $0.key == "start" })?.value { start = contractStart(startNode) }
        return MerchantContract.Backend(url: url, start: start)
    }

    private mutating func contractStart(_ node: Node) -> MerchantContract.Start? {
        guard let pairs = mapping(node, "'start'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.start, in: "'start'")
        var command: Template?
        var directory: String?
        var environment: [(name: String, value: Template)] = []
        var health: Template?
        var timeout = 30.0
        for pair in pairs {
            switch pair.key {
            case "command": command = nonEmptyString(pair.value, "'command'").flatMap { template($0, at: location(pair.value)) }
            case "directory": directory = nonEmptyString(pair.value, "'directory'")
            case "env":
                for variable in mapping(pair.value, "'env'") ?? [] {
                    if !SuiteParser.isEnvironmentName(variable.key) {
                        error(variable.keyNode, "'\(variable.key)' is not an environment variable name", hint: "letters, digits and '_', not starting with a digit")
                    }
                    if let value = template(variable.value, "env '\(variable.key)'") { environment.append((variable.key, value)) }
                }
            case "health": health = template(pair.value, "'health'")
            case "timeout":
                if let seconds = duration(pair.value, "'timeout'") {
                    if seconds <= 0 || seconds > 600 { error(pair.value, "'timeout' must be more than zero and at most 10m") } else { timeout = seconds }
                }
            default: break
            }
        }
        if command == nil, !pairs.contains(where: { $0.key == "command" }) { error(node, "'start' needs a 'command'", hint: "e.g. command: python3 shop.py") }
        if health == nil, !pairs.contains(where: { $0.key == "health" }) {
            error(node, "'start' needs a 'health' path the backend answers 2xx on once it is up", hint: "e.g. health: /health")
        }
        guard let command, let health else { return nil }
        return MerchantContract.Start(command: command, directory: directory, environment: environment, health: health, timeout: timeout, location: location(node))
    }

    private mutating func contractCheckout(_ node: Node) -> MerchantContract.Checkout? {
        guard let section = contractRequestSection(node, keys: ContractKeys.checkout, what: "'checkout'") else { return nil }
        let order = requiredPath(section.pairs, "order", in: node, what: "'checkout'", hint: "where the order id is in the answer, e.g. order: id")
        let payment = section.pairs.first { $0.key == "payment" }.flatMap { valuePath($0.value, "'payment'") }
        let checkoutURL = section.pairs.first { $0.key == "checkoutUrl" }.flatMap { valuePath($0.value, "'checkoutUrl'") }
        guard let request = section.request, let order else { return nil }
        return MerchantContract.Checkout(request: request, orderID: order, paymentID: payment, checkoutURL: checkoutURL)
    }

    private mutating func contractOrder(_ node: Node) -> MerchantContract.OrderRead? {
        guard let section = contractRequestSection(node, keys: ContractKeys.order, what: "'order'") else { return nil }
        let state = requiredPath(section.pairs, "state", in: node, what: "'order'", hint: "where the backend's state is in the answer, e.g. state: status")
        let fulfilments = section.pairs.first { $0.key == "fulfilments" }.flatMap { valuePath($0.value, "'fulfilments'") }
        var states: [String: PayCheckCore.Outcome] = [:]
        var statesLocation = location(node)
        if let statesNode = section.pairs.first(where: { $0.key == "states" })?.value {
            statesLocation = location(statesNode)
            for pair in mapping(statesNode, "'states'") ?? [] {
                guard let text = string(pair.value, "state '\(pair.key)'") else { continue }
                guard let outcome = PayCheckCore.Outcome(rawValue: text) else {
                    error(
                        pair.value, "'\(text)' is not an outcome",
                        hint: Suggest.nearest(text, in: SuiteKeys.outcomes).map { "did you mean '\($0)'?" } ?? "one of: " + SuiteKeys.outcomes.joined(separator: ", "))
                    continue
                }
                states[pair.key] = outcome
            }
            if states.isEmpty, !diagnostics.hasErrors { error(statesNode, "'states' maps none of the backend's states") }
        } else {
            error(node, "'order' needs 'states': each of the backend's state names mapped to an outcome", hint: "e.g. states: { paid: succeeded, open: pending, expired: expired }")
        }
        guard let request = section.request, let state else { return nil }
        return MerchantContract.OrderRead(request: request, state: state, states: states, fulfilments: fulfilments, location: statesLocation)
    }

    /// A section with a `request:` (an `http:` request whose URL may be a path on the backend) and other keys.
    private mutating func contractRequestSection(_ node: Node, keys: [String], what: String)
        -> (request: HTTPRequestStep?, pairs: [(key: String, keyNode: Node, value: Node)])?
    {
        guard let pairs = mapping(node, what) else { return nil }
        checkKeys(pairs, allowed: keys, in: what)
        guard let requestNode = pairs.first(where: { $0.key == "request" })?.value else {
            error(node, "\(what) needs a 'request'", hint: "e.g. request: { method: GET, url: /orders/{{ order.id }} }")
            return (nil, pairs)
        }
        return (httpStep(requestNode, relative: true), pairs)
    }

    private mutating func requiredPath(
        _ pairs: [(key: String, keyNode: Node, value: Node)], _ key: String, in node: Node, what: String, hint: String
    ) -> ValuePath? {
        guard let pair = pairs.first(where: { $0.key == key }) else {
            error(node, "\(what) needs '\(key)'", hint: hint)
            return nil
        }
        return valuePath(pair.value, "'\(key)'")
    }

    /// A path into a JSON answer, such as `data.id` or `items[0].status`.
    private mutating func valuePath(_ node: Node, _ what: String) -> ValuePath? {
        guard let text = nonEmptyString(node, what) else { return nil }
        do throws(ValuePath.PathError) {
            return try ValuePath(parsing: text)
        } catch {
            self.error(node, "\(what): \(error.message)", hint: "a path into the JSON answer, such as data.id or items[0].status")
            return nil
        }
    }

    /// Whether `name` can name an environment variable.
    static func isEnvironmentName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)) }
    }
}

extension MerchantContract {
    /// Reads and checks the contract in `file`; the contract, or the located problems.
    package static func load(file: String, catalog: any ProviderCatalog) -> (contract: MerchantContract?, diagnostics: [Diagnostic]) {
        let loader = SuiteLoader(catalog: catalog)
        let text: String
        do {
            text = try loader.readFile(file)
        } catch let error as SuiteTextError {
            // Located like a suite file's: one line, never the file's bytes.
            let hint = "a contract is UTF-8 YAML text of at most \(SuiteLoader.maximumFileBytes >> 20) MiB"
            return (nil, [Diagnostic(at: error.location(in: file), "the contract \(error.message.replacingOccurrences(of: "the file ", with: ""))", hint: hint)])
        } catch {
            return (nil, [Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "cannot read the contract '\(file)': \(error.localizedDescription)")])
        }
        return Self.parse(text: text, file: file, catalog: catalog)
    }

    /// Parses a contract from text (for tests and editors).
    package static func parse(text: String, file: String, catalog: any ProviderCatalog) -> (contract: MerchantContract?, diagnostics: [Diagnostic]) {
        var parser = SuiteParser(file: file, text: text, catalog: catalog, loader: SuiteLoader(catalog: catalog))
        let contract = parser.parseContract()
        return (parser.diagnostics.hasErrors ? nil : contract, parser.diagnostics)
    }
}

extension SuiteParser {
    /// What the run would refuse when it starts the backend, said here instead (lint = run): a template in `backend`
    /// that reads a name the run does not give (`port`, `mock.url`, `mock.control`, `backend.url`, and
    /// `credentials.<provider>.<name>`), a `health` that is neither a path nor an http(s)
    /// URL, a `directory` that is not a folder.
    mutating func checkStart(_ backend: MerchantContract.Backend) {
        // `mock` of a contract has members of its own (`control` too): checked below, not as a suite's built-in.
        let check = VariableFlowCheck(external: ["mock"])
        var templates = [("url", backend.url)]
        if let start = backend.start {
            templates += [("command", start.command), ("health", start.health)] + start.environment.map { ("env '\($0.name)'", $0.value) }
        }
        for (what, template) in templates {
            // `backend.url` is rendered first, from `port` and `mock` only (RunSession+Merchant); the start's templates
            // see the credentials and `backend.url` too.
            let defined: Set<String> = what == "url" ? ["port", "mock"] : ["port", "mock", "credentials", "backend"]
            diagnostics.append(contentsOf: check.reads(template, defined: defined))
            for part in template.parts {
                guard case .expression(let expression, let source) = part else { continue }
                checkContractNames(expression, source: source, at: template.location)
            }
        }
        guard let start = backend.start else { return }
        if start.health.singleExpression == nil, case .text(let text)? = start.health.parts.first, start.health.parts.count == 1,
            !text.hasPrefix("/"), !text.hasPrefix("http://"), !text.hasPrefix("https://")
        {
            error(at: start.health.location, "'health' must be a path on the backend (/health) or an http(s) URL, found '\(text)'", hint: "e.g. health: /health")
        }
        if let directory = start.directory {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            let path = directory.hasPrefix("/") ? URL(fileURLWithPath: directory) : folder.appendingPathComponent(directory)
            var isFolder: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) || !isFolder.boolValue {
                error(at: start.location, "'directory' '\(directory)' is not a folder (it is read relative to the contract's folder: \(path.path))")
            }
        }
    }

    /// The members of `mock`, `backend` and `credentials` an expression reads, against what the run gives.
    private mutating func checkContractNames(_ expression: Expression, source: String, at location: SourceLocation) {
        switch expression {
        case .variable(let name, let path):
            let keys = (path?.components ?? []).compactMap { component -> String? in
                if case .key(let key) = component { key } else { nil }
            }
            func refuse(_ message: String, _ known: [String]) {
                let near = keys.last.flatMap { Suggest.nearest($0, in: known) }
                error(at: location, "\(message) in '{{ \(source) }}'", hint: near.map { "did you mean '\($0)'?" } ?? "known: " + known.joined(separator: ", "))
            }
            switch name {
            case "mock":
                if let member = keys.first, !["url", "control"].contains(member) { refuse("'mock' has no member '\(member)'", ["url", "control"]) }
            case "backend":
                if let member = keys.first, member != "url" { refuse("'backend' has no member '\(member)'", ["url"]) }
            case "credentials":
                guard let id = keys.first else { return }
                guard let provider = catalog.provider(id) else {
                    refuse("'credentials' has no provider '\(id)'", catalog.providerIDs)
                    return
                }
                if keys.count > 1, !provider.credentialNames.isEmpty, !provider.credentialNames.contains(keys[1]) {
                    refuse("'credentials.\(id)' has no '\(keys[1])'", provider.credentialNames)
                }
            default:
                break
            }
        case .call(_, let arguments):
            for argument in arguments { checkContractNames(argument, source: source, at: location) }
        default:
            break
        }
    }
}
