import Crypto
import Foundation

/// The webhook signature of providers.md §3.8 (§3.13 P1-14), shared by the mock (which signs) and
/// `call: verifyWebhook` (which checks like a merchant): `x-hmac-signature = Base64(HMAC-SHA256(key: the HMAC client
/// secret, message: the raw body))`, no prefix.
package enum YunoWebhookSignature {
    /// The header value for `body`.
    package static func sign(body: [UInt8], secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(body), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac).base64EncodedString()
    }

    /// Whether `signature` is `body`'s, compared in constant time. Like the official plugin (§3.13 P1-14) it accepts
    /// Base64 or hex, with an optional `sha256=` prefix.
    package static func verify(signature: String, body: [UInt8], secret: String) -> Bool {
        var given = signature.trimmingCharacters(in: .whitespaces)
        if given.lowercased().hasPrefix("sha256=") { given.removeFirst(7) }
        let expected = Array(HMAC<SHA256>.authenticationCode(for: Data(body), using: SymmetricKey(data: Data(secret.utf8))))
        let bytes: [UInt8]
        if given.count == 64, given.allSatisfy(\.isHexDigit) {
            var out: [UInt8] = []
            var index = given.startIndex
            while index < given.endIndex {
                let next = given.index(index, offsetBy: 2)
                out.append(UInt8(given[index..<next], radix: 16) ?? 0)
                index = next
            }
            bytes = out
        } else {
            guard let data = Data(base64Encoded: given) else { return false }
            bytes = Array(data)
        }
        guard bytes.count == expected.count else { return false }
        return zip(bytes, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
