/// The JSON Schema of suite files (draft 2020-12), for editors and for checking suites outside PayCheck.
///
/// This is its one source, the provider-independent part: ``jsonSchema(catalog:)`` adds what the providers declare,
/// and that is what `paycheck schema` prints and `paycheck init` writes next to the suites it scaffolds;
/// `Suites/paycheck.schema.json` is its copy for this repository's own suites (regenerate it with
/// `swift run paycheck schema > Suites/paycheck.schema.json`; a test fails when the two differ).
package enum SuiteSchema {
    /// The schema as JSON text, ending with a newline.
    package static let jsonSchema: String = #"""
        {
          "$schema": "http://json-schema.org/draft-07/schema#",
          "$id": "https://paycheck.dev/schemas/suite.json",
          "title": "PayCheck suite",
          "description": "One PayCheck suite file. Point your editor's YAML language server at this file (e.g. '# yaml-language-server: $schema=../paycheck.schema.json'). `paycheck lint` applies the same rules and more (provider operations, template syntax, regular expressions).",
          "oneOf": [{ "$ref": "#/definitions/suite" }, { "$ref": "#/definitions/fragment" }],
          "definitions": {
            "suite": {
              "type": "object",
              "required": ["suite", "cases"],
              "additionalProperties": false,
              "properties": {
                "suite": { "type": "string", "minLength": 1, "description": "The suite's name." },
                "provider": { "type": "string", "description": "Provider id (e.g. placetopay); omit for raw HTTP suites." },
                "description": { "type": "string" },
                "tags": { "$ref": "#/definitions/stringList" },
                "vars": { "$ref": "#/definitions/vars" },
                "rows": { "$ref": "#/definitions/rows", "description": "A table: the file is one suite per row, each {{ row.KEY }} replaced by the row's value." },
                "cases": { "type": "array", "minItems": 1, "items": { "$ref": "#/definitions/case" } }
              }
            },
            "fragment": {
              "type": "object",
              "description": "A file of shared steps for `include:`.",
              "required": ["steps"],
              "not": { "required": ["suite"] },
              "additionalProperties": false,
              "properties": { "description": { "type": "string" }, "steps": { "$ref": "#/definitions/steps" } }
            },
            "case": {
              "type": "object",
              "required": ["name", "steps"],
              "additionalProperties": false,
              "properties": {
                "name": { "type": "string", "minLength": 1, "description": "Unique within the suite: says what the case proves." },
                "description": { "type": "string" },
                "tags": { "$ref": "#/definitions/stringList" },
                "requires": { "anyOf": [{ "type": "array", "items": { "enum": ["mock"] } }, { "type": "object", "additionalProperties": false, "properties": { "mock": { "type": "string", "minLength": 1 } } }], "description": "Skipped with a reason on targets without the mock's control API: [mock], or { mock: why the case needs the mock } when no payer:, mock: or merchant: step says it." },
                "skip": { "type": "string", "description": "Skip unconditionally, with this reason." },
                "xfail": { "type": "string", "description": "Expected to fail, with this reason; passing is a failure." },
                "catches": { "type": "string", "minLength": 1, "description": "The mistake a failure of this case reveals, e.g. 'backends that take an authorized payment as paid'; reports show it beside the failure." },
                "vars": { "$ref": "#/definitions/vars" },
                "rows": { "$ref": "#/definitions/rows", "description": "A table: the case runs once per row, each {{ row.KEY }} replaced by the row's value; the name must use a row value." },
                "steps": { "$ref": "#/definitions/steps" }
              }
            },
            "steps": { "type": "array", "minItems": 1, "items": { "$ref": "#/definitions/step" } },
            "step": {
              "type": "object",
              "additionalProperties": false,
              "oneOf": [
                { "required": ["http"] }, { "required": ["call"] }, { "required": ["payer"] }, { "required": ["mock"] },
                { "required": ["redirect"] }, { "required": ["deeplink"] }, { "required": ["set"] }, { "required": ["wait"] },
                { "required": ["include"] }, { "required": ["merchant"] }
              ],
              "properties": {
                "http": { "$ref": "#/definitions/http" },
                "call": { "type": "string", "description": "A provider operation: the adapter builds, signs and sends it." },
                "payer": { "type": "string", "description": "A payer action on the mock (pay, cancel, abandon…)." },
                "mock": { "type": "string", "description": "clock, reset, journal, fault, or a provider mock action." },
                "redirect": { "type": "string" },
                "deeplink": { "type": "string" },
                "merchant": { "enum": ["checkout", "order", "return", "pay", "payment", "notified"], "description": "A request to the merchant's own backend through its contract (`--contract`): checkout makes the order and its payment the case's ({{ order.id }}, {{ order.payment }}); order reads it (the outcome is the backend's state mapped by the contract); return lands on its return page; pay hands it what the provider's SDK made (Yuno's token) so it creates the payment; payment shows the payment the checkout created as the backend asked for it (id, amount, currency, payments); notified checks the scenario's premise that at least `atLeast` (1) notifications reached the backend during the case, an error when they did not." },
                "set": { "$ref": "#/definitions/vars" },
                "wait": { "$ref": "#/definitions/duration" },
                "include": { "type": "string", "description": "A steps file, relative to this file." },
                "with": { "anyOf": [{ "type": ["object", "null"] }, { "$ref": "#/definitions/rowValue" }], "description": "Parameters of call, payer, mock, redirect, deeplink and merchant steps." },
                "auth": { "type": "object", "description": "Per-step credential or signing overrides (call steps only)." },
                "name": { "type": "string" },
                "expect": { "anyOf": [{ "$ref": "#/definitions/expect" }, { "$ref": "#/definitions/rowValue" }] },
                "capture": {
                  "type": "object",
                  "additionalProperties": {
                    "oneOf": [
                      { "type": "string", "description": "body, body.<path>, header.<name>, status or outcome" },
                      {
                        "type": "object", "additionalProperties": false,
                        "properties": { "from": { "type": "string" }, "regex": { "type": "string" }, "secret": { "type": "boolean" } }
                      }
                    ]
                  }
                },
                "retry": {
                  "type": "object", "additionalProperties": false,
                  "properties": { "until": { "$ref": "#/definitions/expect" }, "every": { "$ref": "#/definitions/duration" }, "for": { "$ref": "#/definitions/duration" } }
                },
                "timeout": { "$ref": "#/definitions/duration" }
              }
            },
            "http": {
              "type": "object",
              "required": ["url"],
              "additionalProperties": false,
              "properties": {
                "method": { "type": "string", "description": "GET (default), POST, PUT, PATCH, DELETE, HEAD, OPTIONS" },
                "url": { "type": "string" },
                "headers": { "type": "object", "additionalProperties": { "type": ["string", "number", "boolean"] } },
                "query": { "type": "object" },
                "json": {},
                "form": { "type": "object" },
                "body": { "type": "string" }
              }
            },
            "expect": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "status": { "$ref": "#/definitions/check" },
                "headers": { "type": "object", "additionalProperties": { "$ref": "#/definitions/check" } },
                "body": { "type": "object", "description": "Path (a.b[0].c, $) → value or matchers.", "additionalProperties": { "$ref": "#/definitions/check" } },
                "outcome": { "$ref": "#/definitions/check", "description": "succeeded, pending, declined, canceled, expired or error" },
                "error": {
                  "type": "object", "additionalProperties": false,
                  "properties": { "class": { "$ref": "#/definitions/check" }, "code": { "$ref": "#/definitions/check" }, "message": { "$ref": "#/definitions/check" } }
                }
              }
            },
            "check": {
              "description": "A value (compared with eq) or a mapping of matchers.",
              "anyOf": [
                { "type": ["string", "number", "boolean", "null", "array"] },
                {
                  "type": "object",
                  "anyOf": [
                    { "propertyNames": { "enum": ["eq", "ne", "exists", "type", "matches", "contains", "in", "lt", "le", "gt", "ge", "length"] } },
                    { "propertyNames": { "not": { "enum": ["eq", "ne", "exists", "type", "matches", "contains", "in", "lt", "le", "gt", "ge", "length"] } } }
                  ],
                  "description": "Matchers only, or an object compared with eq that names none: a matcher next to another key is a misspelt one.",
                  "properties": {
                    "eq": {}, "ne": {}, "exists": { "type": "boolean" },
                    "type": { "enum": ["string", "number", "integer", "boolean", "object", "array", "null"] },
                    "matches": { "type": "string" }, "contains": {}, "in": { "type": "array" },
                    "lt": {}, "le": {}, "gt": {}, "ge": {}, "length": { "$ref": "#/definitions/check" }
                  }
                }
              ]
            },
            "vars": { "type": "object", "propertyNames": { "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$" } },
            "rows": {
              "type": "array", "minItems": 1, "maxItems": 1000,
              "items": { "type": "object", "minProperties": 1, "propertyNames": { "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$" } }
            },
            "rowValue": { "type": "string", "pattern": "^\\s*\\{\\{\\s*row\\.[A-Za-z_][A-Za-z0-9_-]*\\s*\\}\\}\\s*$", "description": "A row value used whole: {{ row.KEY }} stands for the row's value of any kind." },
            "stringList": { "oneOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }] },
            "duration": { "type": ["string", "number"], "pattern": "^[+-]?\\d+(\\.\\d+)?(ms|s|m|h|d)?$" }
          }
        }

        """#
}
