import Foundation
import Hummingbird
import PayCheckCore

/// The webhooks API under `/yuno/v1/webhooks` (providers.md §3.3, §3.13 P1-13); `account_id` in the body on create
/// and update, in the query on list, read and delete (yuno-docs `reference/webhooks/index.mdx`). Webhook URLs may be loopback ones (the mock must reach local receivers; the real API
/// refuses non-public URLs with `WEBHOOK_URL_UNSAFE`, §3.13 decision).
struct YunoWebhookRoutes: Sendable {
    let context: YunoContext

    func register(on router: Router<BasicRequestContext>) {
        let context = self.context
        let account = YunoAPIRoutes.account
        typealias Routes = YunoAPIRoutes
        router.post("yuno/v1/webhooks") { request, _ in
            try Routes.authenticate(request)
            let body = try await Routes.body(request)
            context.refreshGateway()
            let now = context.environment.clock.now()
            let hook = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.createHook(body, account: account, now: now) }
            return Routes.json(hook, status: 201)
        }
        router.get("yuno/v1/webhooks") { request, _ in
            try Routes.authenticate(request)
            try YunoState.hookAccount(request.uri.queryParameters.get("account_id"), expected: account)
            return Routes.json(context.store.withState { $0.listHooks() }, status: 200)
        }
        router.get("yuno/v1/webhooks/{id}") { request, requestContext in
            try Routes.authenticate(request)
            try YunoState.hookAccount(request.uri.queryParameters.get("account_id"), expected: account)
            let id = Routes.id(requestContext)
            let hook = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.hook(id) }
            return Routes.json(YunoState.masked(hook.json), status: 200)
        }
        router.patch("yuno/v1/webhooks/{id}") { request, requestContext in
            try Routes.authenticate(request)
            // WebhookUpdateInput: account_id is the body's one required field; the query's is not read.
            let body = try await Routes.body(request)
            try YunoState.hookAccount(body["account_id"]?.stringValue, expected: account, missing: "account_id is required.")
            let id = Routes.id(requestContext)
            let now = context.environment.clock.now()
            context.refreshGateway()
            let hook = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.updateHook(id, body, now: now) }
            return Routes.json(hook, status: 200)
        }
        router.delete("yuno/v1/webhooks/{id}") { request, requestContext in
            try Routes.authenticate(request)
            try YunoState.hookAccount(request.uri.queryParameters.get("account_id"), expected: account)
            let id = Routes.id(requestContext)
            let hook = try context.store.withState { (state: inout YunoState) throws(YunoFailure) in try state.deleteHook(id) }
            return Routes.json(hook, status: 200)
        }
    }
}
