/// The JSON Schema of merchant contract files (``MerchantContract``), for editors: `paycheck schema contract` prints
/// it and `paycheck init --merchant` writes it next to the contract it scaffolds. `paycheck lint --contract` applies
/// the same rules and more (provider ids, template syntax, paths).
package enum ContractSchema {
    /// The schema as JSON text, ending with a newline.
    package static let jsonSchema: String = #"""
        {
          "$schema": "http://json-schema.org/draft-07/schema#",
          "$id": "https://paycheck.dev/schemas/contract.json",
          "title": "PayCheck merchant contract",
          "description": "How PayCheck reaches a merchant's own backend: how to start it, start a checkout and read an order (docs/merchant.md). Start the file with '# yaml-language-server: $schema=contract.schema.json'.",
          "type": "object",
          "required": ["contract", "backend", "checkout", "order"],
          "additionalProperties": false,
          "properties": {
            "contract": { "type": "string", "minLength": 1, "description": "The backend's name, shown in reports." },
            "description": { "type": "string" },
            "backend": {
              "type": "object",
              "required": ["url"],
              "additionalProperties": false,
              "properties": {
                "url": { "type": "string", "description": "Where the backend listens, e.g. http://127.0.0.1:{{ port }} ({{ port }} is a free port the run picks)." },
                "start": {
                  "type": "object",
                  "required": ["command", "health"],
                  "additionalProperties": false,
                  "description": "How `paycheck run` starts the backend, waits for it and stops it. Leave it out when you start the backend yourself.",
                  "properties": {
                    "command": { "type": "string", "description": "Run with /bin/sh -c in `directory`." },
                    "directory": { "type": "string", "description": "Relative to this file; this file's folder by default." },
                    "env": {
                      "type": "object",
                      "additionalProperties": { "type": ["string", "number", "boolean"] },
                      "description": "Added to the environment; templates see {{ mock.url }} (the mock as the backend must call it: the run's scoped root), {{ credentials.<provider>.<field> }}, {{ port }} and {{ backend.url }}."
                    },
                    "health": { "type": "string", "description": "A path (or URL) polled until it answers 2xx." },
                    "timeout": { "type": "string", "description": "How long to wait for the health URL, e.g. 30s (default), at most 10m." }
                  }
                }
              }
            },
            "checkout": {
              "type": "object",
              "required": ["request", "order"],
              "additionalProperties": false,
              "description": "`merchant: checkout`: how a shopper starts a checkout. The step's `with:` values and {{ provider }} are in scope.",
              "properties": {
                "request": { "$ref": "#/definitions/request" },
                "order": { "$ref": "#/definitions/path", "description": "Where the order id is in the JSON answer." },
                "payment": { "$ref": "#/definitions/path", "description": "Where the provider's payment id is, if the answer has it; otherwise the run finds the payment the backend created in the mock's journal." },
                "checkoutUrl": { "$ref": "#/definitions/path", "description": "Where the checkout URL is, if the answer has it." }
              }
            },
            "order": {
              "type": "object",
              "required": ["request", "state", "states"],
              "additionalProperties": false,
              "description": "`merchant: order`: how to read an order. {{ order.id }} is in scope.",
              "properties": {
                "request": { "$ref": "#/definitions/request" },
                "state": { "$ref": "#/definitions/path", "description": "Where the backend's own state name is." },
                "states": {
                  "type": "object",
                  "minProperties": 1,
                  "additionalProperties": { "enum": ["succeeded", "pending", "declined", "canceled", "expired", "error"] },
                  "description": "Each of the backend's state names mapped to a canonical outcome."
                },
                "fulfilments": { "$ref": "#/definitions/path", "description": "Where a count of fulfilments (goods shipped, credit granted) is, if the backend exposes one." }
              }
            },
            "return": {
              "type": "object",
              "required": ["request"],
              "additionalProperties": false,
              "description": "`merchant: return`: the page the shopper comes back to after paying.",
              "properties": { "request": { "$ref": "#/definitions/request" } }
            },
            "pay": {
              "type": "object",
              "required": ["request"],
              "additionalProperties": false,
              "description": "`merchant: pay`: how the shopper's app hands the backend what the provider's SDK made (Yuno's one-time token, `{{ token }}`), so the backend creates the payment; `{{ order.id }}` is in scope.",
              "properties": { "request": { "$ref": "#/definitions/request" } }
            },
            "providers": {
              "type": "object",
              "description": "Per provider id: where the provider notifies the backend and sends the shopper back.",
              "additionalProperties": {
                "type": ["object", "null"],
                "additionalProperties": false,
                "properties": {
                  "notificationUrl": { "type": "string", "description": "Installed on the mock where the provider keeps it in the account (PlacetoPay's site, MIT's response URL); refused by lint for the others, whose notification URL the backend sends itself." },
                  "returnUrl": { "type": "string", "description": "Refused by lint: it does nothing, the backend sends its return URL with each payment it creates." }
                }
              }
            }
          },
          "definitions": {
            "path": { "type": "string", "minLength": 1, "description": "A path into the JSON answer, e.g. id, data.order.id, items[0].status." },
            "request": {
              "type": "object",
              "required": ["url"],
              "additionalProperties": false,
              "description": "An HTTP request; a url starting with / is a path on the backend.",
              "properties": {
                "method": { "enum": ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] },
                "url": { "type": "string" },
                "headers": { "type": "object", "additionalProperties": { "type": ["string", "number", "boolean"] } },
                "query": { "type": "object" },
                "json": {},
                "form": { "type": "object" },
                "body": { "type": "string" }
              }
            }
          }
        }

        """#
}
