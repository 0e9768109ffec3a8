import Foundation
import Hummingbird
import PayCheckCore

/// The pages a payer sees at a provider (Mollie's test-mode screen, PlacetoPay's checkout, khipu's payment page,
/// MIT's WebPay Plus link): plain HTML forms that load nothing from elsewhere and need no script, so a person, an
/// app's UI test or a headless browser can click through them. Each provider's page moves the payment through the
/// same state machine as its `payer:` steps; this builds the HTML and sends the payer back.
enum PayerPage {
    /// One outcome the payer can pick.
    struct Choice {
        /// The submitted value.
        var value: String
        /// What the payer reads.
        var label: String
    }

    /// A page: `title`, the `facts` shown as a definition list (`id` names each value's element), an optional
    /// `message` (a rejection to retry after), and a form posting back to the page's own URL with the `choices` as
    /// radio buttons named `field` (the first one checked) and one submit button per `buttons` entry (`name=action`).
    static func form(
        title: String, lang: String = "en", facts: [(id: String, label: String, value: String)], message: String? = nil,
        field: String, legend: String, choices: [Choice], inputs: [(name: String, label: String, value: String)] = [],
        buttons: [(value: String, label: String)], links: [(id: String, label: String, href: String)] = [],
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let h = MockResponse.escapeHTML
        var body = "<h1>\(h(title))</h1>\n<dl>\n"
        for fact in facts { body += "<dt>\(h(fact.label))</dt><dd id=\"\(h(fact.id))\">\(h(fact.value))</dd>\n" }
        body += "</dl>\n"
        if let message { body += "<p id=\"message\" role=\"alert\">\(h(message))</p>\n" }
        body += "<form method=\"post\">\n"
        if !choices.isEmpty {
            body += "<fieldset><legend>\(h(legend))</legend>\n"
            for (index, choice) in choices.enumerated() {
                let id = "\(field)-\(choice.value)"
                body +=
                    "<div><input type=\"radio\" id=\"\(h(id))\" name=\"\(h(field))\" value=\"\(h(choice.value))\"\(index == 0 ? " checked=\"checked\"" : "")/>"
                    + " <label for=\"\(h(id))\">\(h(choice.label))</label></div>\n"
            }
            body += "</fieldset>\n"
        }
        for input in inputs {
            body +=
                "<div><label for=\"\(h(input.name))\">\(h(input.label))</label> "
                + "<input type=\"text\" id=\"\(h(input.name))\" name=\"\(h(input.name))\" value=\"\(h(input.value))\"/></div>\n"
        }
        for button in buttons {
            body += "<button type=\"submit\" id=\"\(h(button.value))\" name=\"action\" value=\"\(h(button.value))\">\(h(button.label))</button>\n"
        }
        body += "</form>\n"
        for link in links { body += "<p><a id=\"\(h(link.id))\" href=\"\(h(link.href))\">\(h(link.label))</a></p>\n" }
        return MockResponse.html(self.document(title: title, lang: lang, body: body), status: status)
    }

    /// A page with `title` and `paragraph` only (a payment that can no longer be paid, say).
    static func notice(title: String, lang: String = "en", paragraph: String, status: HTTPResponse.Status = .ok) -> Response {
        let h = MockResponse.escapeHTML
        return MockResponse.html(self.document(title: title, lang: lang, body: "<h1>\(h(title))</h1>\n<p>\(h(paragraph))</p>\n"), status: status)
    }

    /// Sends the payer back to the merchant at `url`: `303 See Other` to an `http(s)` URL (the browser then GETs it,
    /// after the form's POST); a deep link (`mollie-checkout://…`, an app's scheme) a desktop browser cannot follow is
    /// shown as a link with what the app would receive, so a person or a UI test can read it. No URL: a page saying so.
    static func back(to url: String?, lang: String = "en") -> Response {
        guard let url, !url.isEmpty else {
            return self.notice(title: "Done", lang: lang, paragraph: "The merchant gave no URL to return to; close this page.")
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        if scheme == "http" || scheme == "https" {
            return Response(status: .seeOther, headers: [.location: url, .cacheControl: "no-store"])
        }
        let h = MockResponse.escapeHTML
        let body =
            "<h1>Back to the app</h1>\n<p>The provider sends the payer back to the app through a deep link, which only the app can open:</p>\n"
            + "<p><a id=\"return\" href=\"\(h(url))\">\(h(url))</a></p>\n"
            + "<p>The app would receive <code id=\"deeplink\">\(h(url))</code>. It carries no payment status: the app asks its backend.</p>\n"
        return MockResponse.html(self.document(title: "Back to the app", lang: lang, body: body))
    }

    /// The fields of a form POST (`application/x-www-form-urlencoded`), first value of each.
    static func fields(of request: Request) async throws -> [String: String] {
        let bytes = try await ControlRoutes.body(of: request)
        var fields: [String: String] = [:]
        for (name, value) in FormText.decodePairs(String(decoding: bytes, as: UTF8.self)) where fields[name] == nil { fields[name] = value }
        return fields
    }

    /// A whole document: no script, no external asset, a readable width; well-formed XML too (void elements closed),
    /// so a suite's `http:` step reads it as `html.body.…`.
    private static func document(title: String, lang: String, body: String) -> String {
        "<!DOCTYPE html><html lang=\"\(lang)\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width\"/>"
            + "<title>\(MockResponse.escapeHTML(title))</title>"
            + "<style>body{font-family:sans-serif;max-width:36em;margin:2em auto;padding:0 1em}button{margin:.5em .5em 0 0}"
            + "fieldset{margin:1em 0}dd{margin:0 0 .5em 0}#message{color:#a00}</style></head><body>\n"
            + body + "<p><small>PayCheck mock</small></p></body></html>"
    }
}
