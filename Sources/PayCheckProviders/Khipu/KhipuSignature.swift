import Crypto
import Foundation
import PayCheckCore

/// khipu's two signatures, shared by the adapter (which signs) and the mock (which verifies).
package enum KhipuSignature {
    /// The API 2.0 string to sign (providers.md §2.2, §2.12 A1–A2): `METHOD & pct(url without query)` then, for
    /// every query and form parameter sorted by encoded key, `& pct(key) = pct(value)`, with RFC 3986 encoding of the
    /// *decoded* values exactly as sent (no normalisation).
    package static func stringToSign(method: String, url: String, parameters: [(name: String, value: String)]) -> String {
        var text = method.uppercased() + "&" + FormText.percentEncodeRFC3986(url)
        let encoded = parameters.map { (FormText.percentEncodeRFC3986($0.name), FormText.percentEncodeRFC3986($0.value)) }
        for (name, value) in encoded.sorted(by: { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }) {
            text += "&" + name + "=" + value
        }
        return text
    }

    /// `lowercase hex(HMAC-SHA256(key: secret, message: toSign))` (§2.2 step 4).
    package static func hash(_ toSign: String, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The notification 3.0 signature (§2.7, §2.12 A9): `Base64(HMAC-SHA256(key: secret, message: t + "." + body))`.
    package static func notification(t: String, body: [UInt8], secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(t.utf8) + Data(".".utf8) + Data(body), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// The `x-khipu-signature` header value: `t=<t>,s=<signature>`.
    package static func notificationHeader(t: String, body: [UInt8], secret: String) -> String {
        "t=\(t),s=\(notification(t: t, body: body, secret: secret))"
    }

    /// Checks an `x-khipu-signature` header against `body` in constant time.
    package static func verifyNotification(header: String, body: [UInt8], secret: String) -> Bool {
        var t: String?
        var s: String?
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { t = pair[1] } else if pair[0] == "s" { s = pair[1] }
        }
        guard let t, let s else { return false }
        let expected = Array(notification(t: t, body: body, secret: secret).utf8)
        let given = Array(s.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
